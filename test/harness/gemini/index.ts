/**
 * The real Gemini CLI harness, for conformance tests (compiled to build/test/harness/gemini/).
 *
 * - `startMockGemini(script?)` → `MockGeminiApi` {port, url, requests, routeRequests(route), close()}:
 *   a scripted Gemini API on 127.0.0.1. `script.main` holds the answers of the conversation
 *   (`:streamGenerateContent`, SSE) in order, `script.compress` those of compression requests;
 *   the client's JSON side requests (router, next speaker) get a value fitting their schema,
 *   `:countTokens` a count; anything unscripted answers "OK.".
 * - `runGemini({args, home, baseUrl, cwd?, env?, timeoutMs?})`: the pinned CLI (installed into
 *   .cache/gemini/ on first use) under `env -i`; `writeGeminiSettings(home)` writes the offline
 *   settings.json first. `startGemini(...)` the same, interruptible (`signal('SIGINT')`).
 * - `runGeminiUi({home, cwd, mock, args?, steps})`: the interactive UI in a private tmux server.
 * - `resumeChat(file, {prompt?, via?})` → {found: true, contents, request, id} | {found: false, output, id}:
 *   install the chat file into a fresh scratch store (or pass it with --session-file), run
 *   `gemini --resume ID -p ping`, return the `contents` of the first main request.
 * - `recordedGeminiChats()` → [{scenario, file}]: every chat file under fixtures/recorded-gemini/.
 * - `publicGeminiChats()` → [{name, file}]: every chat file under fixtures/public-gemini/ (SOURCES.tsv names each).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { jsonlFiles } from '../fixtures.js';
import { repoRoot } from '../pinned.js';

export { startMockGemini, classifyGeminiRequest, valueForSchema } from './mock-gemini.js';
export type { MockGeminiApi, GeminiScript, GeminiTurn, GeminiRequest, GeminiContent, ScriptPart } from './mock-gemini.js';
export { runGemini, startGemini, geminiBundle, geminiInstalled, geminiEnv, writeGeminiSettings, GEMINI_VERSION } from './cli.js';
export { runGeminiUi } from './interactive.js';
export { resumeChat, resumeInstalled, chatSessionId, chatFileName, seedProject, ORACLE_PROJECT } from './oracle.js';
export type { GeminiResumeResult } from './oracle.js';

/** The folder holding the recorded chat files. */
export function recordedGeminiRoot(): string {
  return path.join(repoRoot(), 'fixtures', 'recorded-gemini');
}

/** Every recorded chat file, sorted by path, with its scenario folder. */
export function recordedGeminiChats(): { scenario: string; file: string }[] {
  const root = recordedGeminiRoot();
  return jsonlFiles(root).map((file) => ({ scenario: path.relative(root, file).split(path.sep)[0]!, file }));
}

/** Every public chat file (`.json` or `.jsonl`) under fixtures/public-gemini/, sorted by path, named by that path. */
export function publicGeminiChats(): { name: string; file: string }[] {
  const root = path.join(repoRoot(), 'fixtures', 'public-gemini');
  const out: { name: string; file: string }[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.jsonl?$/.test(e)) out.push({ name: path.relative(root, p), file: p });
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}
