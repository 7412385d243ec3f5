/**
 * The real Gemini CLI as oracle: install a chat file into a fresh scratch HOME's store
 * (`~/.gemini/tmp/<project>/chats/`, with the project registry the client keeps) and run
 * `gemini --resume ID -p PROMPT`, or hand it over with `--session-file`, against the
 * mock; return the `contents` of the first main request: the conversation the client
 * rebuilt from the file, with what it adds at resume time (a fresh `<session_context>`
 * first, the new prompt last).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runGemini, writeGeminiSettings } from './cli.js';
import { startMockGemini, type GeminiContent, type GeminiRequest } from './mock-gemini.js';

/** What the CLI made of a chat file. */
export type GeminiResumeResult = { found: true; contents: GeminiContent[]; request: GeminiRequest; id: string } | { found: false; output: string; id: string | null };

/** How to resume. */
export interface GeminiResumeOptions {
  /** The prompt sent after resuming (default "ping"). */
  prompt?: string;
  /** `store` (default): install into the project's chats folder and `--resume ID`; `session-file`: `--session-file FILE`. */
  via?: 'store' | 'session-file';
  timeoutMs?: number;
}

/** The project folder name the client gives the oracle's working directory (`work`). */
export const ORACLE_PROJECT = 'work';

/** The session id a chat file names: the last metadata line's (the client lets a later one win), or null. */
export function chatSessionId(text: string): string | null {
  let id: string | null = null;
  for (const line of text.split('\n')) {
    if (!line.includes('"projectHash"')) continue;
    try {
      const o = JSON.parse(line) as { sessionId?: unknown; projectHash?: unknown };
      if (typeof o.sessionId === 'string' && typeof o.projectHash === 'string') id = o.sessionId;
    } catch {
      // not a metadata line
    }
  }
  if (id === null) {
    // An old-format file: one JSON document.
    try {
      const o = JSON.parse(text) as { sessionId?: unknown };
      if (typeof o.sessionId === 'string') id = o.sessionId;
    } catch {
      // neither
    }
  }
  return id;
}

/** The file name the client lists a chat under: `session-<date>T<hh-mm>-<id8>.jsonl` (`.json` for an old-format document). */
export function chatFileName(file: string, id: string): string {
  const base = path.basename(file);
  if (/^session-.*\.jsonl?$/.test(base)) return base;
  return `session-2026-01-01T00-00-${id.slice(0, 8)}${file.endsWith('.json') ? '.json' : '.jsonl'}`;
}

/** A scratch HOME whose store knows the project `cwd` as `work` (what the client writes on first use). */
export function seedProject(home: string, cwd: string): string {
  const gemini = path.join(home, '.gemini');
  const chats = path.join(gemini, 'tmp', ORACLE_PROJECT, 'chats');
  mkdirSync(chats, { recursive: true });
  mkdirSync(path.join(gemini, 'history', ORACLE_PROJECT), { recursive: true });
  writeFileSync(path.join(gemini, 'projects.json'), JSON.stringify({ projects: { [cwd]: ORACLE_PROJECT } }, null, 2));
  writeFileSync(path.join(gemini, 'tmp', ORACLE_PROJECT, '.project_root'), cwd);
  writeFileSync(path.join(gemini, 'history', ORACLE_PROJECT, '.project_root'), cwd);
  return chats;
}

/** Resume `file` with the real CLI (a scratch `work` folder as cwd) and return the first main request's contents. */
export async function resumeChat(file: string, opts: GeminiResumeOptions = {}): Promise<GeminiResumeResult> {
  const bytes = readFileSync(file);
  const id = chatSessionId(bytes.toString('utf8'));
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'txcript-gemini-oracle-'));
  const home = path.join(scratch, 'home');
  const cwd = path.join(scratch, ORACLE_PROJECT);
  mkdirSync(cwd, { recursive: true });
  const chats = seedProject(home, cwd);
  writeGeminiSettings(home);
  const mock = await startMockGemini({});
  try {
    let args: string[];
    if (opts.via === 'session-file') {
      const given = path.join(scratch, path.basename(file));
      writeFileSync(given, bytes);
      args = ['--session-file', given];
    } else {
      if (id === null) return { found: false, output: 'the file names no session id', id };
      writeFileSync(path.join(chats, chatFileName(file, id)), bytes);
      args = ['--resume', id];
    }
    const r = await runGemini({ args: [...args, '-p', opts.prompt ?? 'ping'], home, cwd, baseUrl: mock.url, timeoutMs: opts.timeoutMs ?? 120_000 });
    const req = mock.routeRequests('main')[0];
    if (!req || !req.body) return { found: false, output: `exit ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\n${r.stdout}${r.stderr}`, id };
    return { found: true, contents: req.body.contents ?? [], request: req.body, id: id ?? '' };
  } finally {
    await mock.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Resume session `id` of a store txcript installed (`home/.gemini`, as `tx-native
 * --install` left it: no project registry seeded) with `gemini --resume ID` run in `cwd`,
 * and return the first main request's contents.
 */
export async function resumeInstalled(home: string, cwd: string, id: string, opts: { prompt?: string; timeoutMs?: number } = {}): Promise<GeminiResumeResult> {
  writeGeminiSettings(home);
  const mock = await startMockGemini({});
  try {
    const r = await runGemini({ args: ['--resume', id, '-p', opts.prompt ?? 'ping'], home, cwd, baseUrl: mock.url, timeoutMs: opts.timeoutMs ?? 120_000 });
    const req = mock.routeRequests('main')[0];
    if (!req || !req.body) return { found: false, output: `exit ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\n${r.stdout}${r.stderr}`, id };
    return { found: true, contents: req.body.contents ?? [], request: req.body, id };
  } finally {
    await mock.close();
  }
}
