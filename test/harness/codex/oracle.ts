/**
 * The real Codex CLI as oracle: install a rollout into a fresh scratch CODEX_HOME,
 * run `codex exec resume ID PROMPT` against the mock, and return the `input` of its
 * first request: the conversation the CLI rebuilt from the file, followed by what it
 * adds at resume time (fresh context messages, the new prompt).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { EXEC_FLAGS, runCodex, writeCodexConfig } from './cli.js';
import { startMockResponses, type InputItem, type ResponsesRequest } from './mock-responses.js';

/** What the CLI made of a rollout. */
export type CodexResumeResult =
  | { found: true; input: InputItem[]; request: ResponsesRequest; id: string }
  | { found: false; output: string; id: string };

/** Options for one resume. */
export interface CodexResumeOptions {
  /** The prompt sent after resuming (default "ping"). */
  prompt?: string;
  timeoutMs?: number;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The model provider a rollout's session_meta names (default "openai", as the CLI assumes). */
export function rolloutProvider(text: string): string {
  const first = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'));
  try {
    const p = (JSON.parse(first) as { payload?: { model_provider?: unknown } }).payload?.model_provider;
    if (typeof p === 'string' && /^[A-Za-z0-9_-]+$/.test(p)) return p;
  } catch {
    // no usable first line
  }
  return 'openai';
}

/** The id to install a rollout under: its session_meta id when that is a UUID, else one in its file name, else a new one. */
export function rolloutId(file: string, text: string): string {
  const first = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'));
  try {
    const o = JSON.parse(first) as { type?: string; payload?: { id?: unknown } };
    const id = o.type === 'session_meta' ? o.payload?.id : undefined;
    if (typeof id === 'string' && UUID.test(id) && id.length === 36) return id;
  } catch {
    // no usable first line
  }
  return UUID.exec(path.basename(file))?.[0] ?? randomUUID();
}

/** The file name Codex looks for: `rollout-<timestamp>-<id>.jsonl`. */
export function rolloutName(id: string): string {
  return `rollout-2026-01-01T00-00-00-${id}.jsonl`;
}

/** Resume `file` with the real CLI (in a scratch folder as cwd) and return the first request's input. */
export async function resumeRollout(file: string, opts: CodexResumeOptions = {}): Promise<CodexResumeResult> {
  const bytes = readFileSync(file);
  const id = rolloutId(file, bytes.toString('utf8'));
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'txcript-codex-oracle-'));
  const home = path.join(scratch, 'home');
  const cwd = path.join(scratch, 'work');
  mkdirSync(cwd, { recursive: true });
  const day = path.join(home, '.codex', 'sessions', '2026', '01', '01');
  mkdirSync(day, { recursive: true });
  writeFileSync(path.join(day, rolloutName(id)), bytes);
  const mock = await startMockResponses({});
  try {
    writeCodexConfig(path.join(home, '.codex'), mock.url, { provider: rolloutProvider(bytes.toString('utf8')) });
    const r = await runCodex({ args: ['exec', ...EXEC_FLAGS, 'resume', id, opts.prompt ?? 'ping'], home, cwd, timeoutMs: opts.timeoutMs ?? 120_000 });
    const req = mock.responsesRequests()[0];
    if (!req || !req.body) return { found: false, output: `exit ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\n${r.stdout}${r.stderr}`, id };
    return { found: true, input: req.body.input ?? [], request: req.body, id };
  } finally {
    await mock.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
