/**
 * The real client as oracle: install a session file into a fresh scratch store,
 * run `claude -p --resume ID PROMPT` against the mock, and return the
 * conversation the CLI rebuilt from the file (the `messages` of its first
 * main-conversation request), or found:false when it cannot load the file.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { runClaude } from './claude-cli.js';
import { startMockApi, type MessagesRequest } from './mock-api.js';

/** What the CLI made of a session file. */
export type ResumeResult =
  | { found: true; messages: unknown[]; system: unknown; request: unknown }
  | { found: false; output: string };

/** Options for one resume. */
export interface ResumeOptions {
  /** The session's working directory (default: the first `cwd` in the file). */
  cwd?: string;
  /** The prompt sent after resuming (default "next"). */
  prompt?: string;
  /** The id to install the file under (default: the file name if a UUID, else the file's first `sessionId`). */
  sessionId?: string;
  timeoutMs?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOT_FOUND = 'No conversation found with session ID';

/** The project folder name Claude Code uses for a cwd: every non-alphanumeric becomes '-'. */
export function projectSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** The first `cwd` and `sessionId` found on the file's lines. */
export function sessionFacts(text: string): { cwd?: string; sessionId?: string } {
  const facts: { cwd?: string; sessionId?: string } = {};
  for (const line of text.split('\n')) {
    if (facts.cwd !== undefined && facts.sessionId !== undefined) break;
    if (!line.trim()) continue;
    try {
      const o = JSON.parse(line) as { cwd?: unknown; sessionId?: unknown };
      if (facts.cwd === undefined && typeof o.cwd === 'string' && o.cwd) facts.cwd = o.cwd;
      if (facts.sessionId === undefined && typeof o.sessionId === 'string' && UUID.test(o.sessionId)) facts.sessionId = o.sessionId;
    } catch {
      // an invalid line has no facts
    }
  }
  return facts;
}

/**
 * Resume `sessionFile` with the real CLI and return what it sent. The file is
 * copied (with its sibling `<name>/` folder of subagents and tool results, if
 * any) to `projects/<slug of cwd>/<id>.jsonl` of a scratch store. The CLI runs
 * in the session's cwd when that folder exists or lies under /tmp (it is then
 * created), else in a scratch folder; the CLI finds the file either way, but a
 * different cwd adds an "Environment update" system message to the request.
 */
export async function resumeConversation(sessionFile: string, opts: ResumeOptions = {}): Promise<ResumeResult> {
  const bytes = readFileSync(sessionFile);
  const facts = sessionFacts(bytes.toString('utf8'));
  const base = path.basename(sessionFile, '.jsonl');
  const sessionId = opts.sessionId ?? (UUID.test(base) ? base : facts.sessionId ?? randomUUID());
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'txcript-oracle-'));
  const home = path.join(scratch, 'home');
  let cwd = opts.cwd ?? facts.cwd ?? path.join(scratch, 'work');
  if (!existsSync(cwd)) {
    if (cwd.startsWith('/tmp/')) mkdirSync(cwd, { recursive: true });
    else cwd = path.join(scratch, 'work');
  }
  mkdirSync(cwd, { recursive: true });
  const project = path.join(home, '.claude', 'projects', projectSlug(opts.cwd ?? facts.cwd ?? cwd));
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, `${sessionId}.jsonl`), bytes);
  const sidecar = path.join(path.dirname(sessionFile), base);
  if (existsSync(sidecar) && statSync(sidecar).isDirectory()) cpSync(sidecar, path.join(project, sessionId), { recursive: true });

  const mock = await startMockApi({});
  try {
    const r = await runClaude({
      args: ['-p', '--resume', sessionId, opts.prompt ?? 'next'],
      home,
      cwd,
      baseUrl: mock.url,
      timeoutMs: opts.timeoutMs ?? 120_000,
    });
    const output = r.stdout + r.stderr;
    if (output.includes(NOT_FOUND)) return { found: false, output };
    const req = mock.messagesRequests('main')[0];
    if (!req || !req.body) {
      throw new Error(`claude --resume sent no main request (exit ${r.code ?? r.signal}${r.timedOut ? ', timed out' : ''}):\n${output.slice(0, 4000)}`);
    }
    const body = req.body as MessagesRequest;
    return { found: true, messages: body.messages ?? [], system: body.system, request: body };
  } finally {
    await mock.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
