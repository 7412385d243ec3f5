/**
 * The real-client harness, for conformance tests (compiled to build/test/harness/).
 *
 *   import { startMockApi, runClaude, resumeConversation, recordedFixtures, conformanceSkip } from './index.js';
 *
 * - `startMockApi(script?)` → `MockApi` {port, url, requests, messagesRequests(route?), close()}:
 *   a scripted Anthropic Messages API on 127.0.0.1 (SSE or JSON). `script.main` is
 *   the list of assistant turns ({content: blocks, stop_reason?, delayMs?}) for the
 *   main conversation; `subagent`, `compact`, `title`, `side` the same for other
 *   requests (routed by `classifyRequest`); a turn with `error: {status, type, message}`
 *   answers that HTTP error; anything unscripted answers "OK." (or `script.fallback`).
 *   Every request is kept in `requests` ({route, body, answer}).
 * - `runClaude({args, home, cwd?, baseUrl, env?, timeoutMs?, stdin?})` →
 *   {code, signal, stdout, stderr, timedOut}: the pinned CLI (installed into
 *   .cache/claude-code/ on first use) under `env -i`, HOME and CLAUDE_CONFIG_DIR
 *   (= HOME/.claude) in the given scratch folder, talking only to `baseUrl`.
 * - `resumeConversation(file, {cwd?, prompt?, sessionId?, timeoutMs?})` →
 *   {found: true, messages, system, request} | {found: false, output}: install the
 *   file into a fresh scratch store, run `claude -p --resume ID "next"`, and return
 *   the `messages` the CLI rebuilt, or found:false ("No conversation found…").
 * - `runInteractive({home, cwd, baseUrl, sessionId, prompts, expectMainRequests, mock})`:
 *   the interactive UI in a private tmux server, typing prompts/keys as the mock sees requests.
 * - `recordedFixtures()` → [{scenario, file, sessionId, kind}]: every .jsonl under
 *   fixtures/recorded/, `kind` "session" (a top-level session file the CLI can
 *   resume) or "subagent" (subagents/agent-*.jsonl).
 * - `conformanceSkip()` → false, or the reason to skip a test that runs the real
 *   CLI (set TX_CONFORMANCE=1 to run them; `npm run conformance` does).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './claude-cli.js';
import { jsonlFiles } from './fixtures.js';

export { startMockApi, classifyRequest, systemText, lastUserText, firstUserText } from './mock-api.js';
export type { MockApi, MockScript, ScriptTurn, ScriptBlock, ScriptStep, RecordedRequest, RequestRoute, MessagesRequest } from './mock-api.js';
export { runClaude, claudeBinary, claudeInstalled, claudeEnv, repoRoot, CLI_VERSION } from './claude-cli.js';
export type { RunClaudeOptions, RunClaudeResult } from './claude-cli.js';
export { resumeConversation, projectSlug, sessionFacts } from './oracle.js';
export { runInteractive } from './interactive.js';
export type { InteractiveOptions } from './interactive.js';
export type { ResumeResult, ResumeOptions } from './oracle.js';

/** One recorded fixture file. */
export interface RecordedFixture {
  /** The scenario folder under fixtures/recorded/. */
  scenario: string;
  /** Absolute path of the .jsonl file. */
  file: string;
  /** The file name without .jsonl (the session id, or agent-<id> for a subagent). */
  sessionId: string;
  kind: 'session' | 'subagent';
}

/** The folder holding the recorded fixtures. */
export function recordedRoot(): string {
  return path.join(repoRoot(), 'fixtures', 'recorded');
}

/** Every recorded .jsonl file, sorted by path. */
export function recordedFixtures(): RecordedFixture[] {
  const root = recordedRoot();
  if (!existsSync(root)) return [];
  return jsonlFiles(root).map((file) => {
    const rel = path.relative(root, file).split(path.sep);
    return {
      scenario: rel[0]!,
      file,
      sessionId: path.basename(file, '.jsonl'),
      kind: rel.includes('subagents') ? 'subagent' : 'session',
    };
  });
}

/** False when tests that run the real CLI should run, else the reason they are skipped. */
export function conformanceSkip(): false | string {
  if (process.env.TX_CONFORMANCE !== '1') return 'runs the real Claude Code or Codex CLI: set TX_CONFORMANCE=1 (npm run conformance)';
  return false;
}

/** The recorded top-level session files (not subagent transcripts), sorted. */
export function recordedSessionFiles(): string[] {
  return recordedFixtures()
    .filter((f) => f.kind === 'session')
    .map((f) => f.file)
    .sort();
}
