// What the store tests share: running a tool in-process on a fake process, session
// lines to build stores from, and the expected fields of a file by a full parse
// (every line through tx-parse's own JSON.parse path), independent of the shallow scan.
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { splitLines } from '../../lib/core/input/lines.js';
import { run } from '../../lib/core/run.js';
import { type Proc, type Tool } from '../../lib/core/tool.js';
import type { SessionFields } from '../../lib/codec.js';
import { parsePhysicalLine } from '../../lib/records/parse-line.js';

/** The repository root (compiled tests live in build/test/). */
export const REPO = fileURLToPath(new URL('../../..', import.meta.url));

/** The shared Claude Code corpus beside the repository, or null when absent. */
export function corpusDir(): string | null {
  const dir = path.join(REPO, '..', 'shared', 'corpus', 'claude-code');
  return existsSync(dir) ? dir : null;
}

/** Every session file recorded from the real CLI under fixtures/recorded (empty when none). */
export function recordedSessions(): { scenario: string; file: string; project: string }[] {
  const base = path.join(REPO, 'fixtures', 'recorded');
  const found: { scenario: string; file: string; project: string }[] = [];
  if (!existsSync(base)) return found;
  for (const scenario of readdirSync(base).sort()) {
    const projects = path.join(base, scenario, 'projects');
    if (!existsSync(projects)) continue;
    for (const project of readdirSync(projects).sort()) {
      const dir = path.join(projects, project);
      for (const name of readdirSync(dir).sort()) if (name.endsWith('.jsonl')) found.push({ scenario, file: path.join(dir, name), project });
    }
  }
  return found;
}

/** What a tool run printed and its exit status. */
export interface ToolRun {
  status: number;
  stdout: string;
  stderr: string;
  /** stdout as NDJSON values. */
  json: any[];
}

/** Run a tool in-process with arguments, an environment, a cwd, and stdin optionally a terminal. */
export async function runTool(tool: Tool, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; stdinTTY?: boolean; stderrTTY?: boolean } = {}): Promise<ToolRun> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (into: Buffer[]) =>
    new Writable({
      write(chunk, _enc, done) {
        into.push(Buffer.from(chunk));
        done();
      },
    });
  const stdin = opts.stdinTTY ? Object.assign(new PassThrough(), { isTTY: true }) : Readable.from([]);
  const stderr = Object.assign(sink(err), { isTTY: opts.stderrTTY === true });
  const proc: Proc = { argv: ['node', tool.name, ...args], env: opts.env ?? {}, stdin, stdout: sink(out), stderr, cwd: () => opts.cwd ?? '/' };
  const status = await run(tool, proc);
  const stdout = Buffer.concat(out).toString('utf8');
  const json = stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
  return { status, stdout, stderr: Buffer.concat(err).toString('utf8'), json };
}

/** One session line as JSON text. */
export function line(value: Record<string, unknown>): string {
  return JSON.stringify(value) + '\n';
}

/** A user prompt line of session `id`. */
export function userLine(id: string, text: string, extra: Record<string, unknown> = {}): string {
  return line({ type: 'user', sessionId: id, cwd: '/w', gitBranch: 'main', version: '2.1.0', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: text }, ...extra });
}

/** An assistant line of session `id` with `model`. */
export function assistantLine(id: string, model: string, extra: Record<string, unknown> = {}): string {
  return line({ type: 'assistant', sessionId: id, timestamp: '2026-01-01T00:00:01.000Z', message: { role: 'assistant', model, content: [{ type: 'text', text: 'ok' }] }, ...extra });
}

/** The fields tx-ls should report for a file, computed by parsing every line in full. */
export interface FullFields extends SessionFields {
  lines: number;
}

/** The expected fields of a session file by a full parse of every line (tx-parse's path: glued objects split). */
export async function fullFields(file: string): Promise<FullFields> {
  const f: FullFields = { id: path.basename(file, '.jsonl'), cwd: null, git_branch: null, version: null, model: null, title: null, ai_title: null, started_at: null, lines: 0 };
  let haveId = false;
  let custom: string | null = null;
  let agent: string | null = null;
  let summary: string | null = null;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  for await (const physical of splitLines(createReadStream(file))) {
    f.lines = physical.n;
    for (const record of parsePhysicalLine(physical, file, 'claude-code')) {
      const v = record.value as any;
      if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
      if (!haveId && typeof v.sessionId === 'string' && v.sessionId !== '') {
        f.id = v.sessionId;
        haveId = true;
      }
      f.cwd ??= str(v.cwd);
      f.git_branch ??= str(v.gitBranch);
      f.version ??= str(v.version);
      f.started_at ??= str(v.timestamp);
      if (f.model === null && v.type === 'assistant' && v.message && typeof v.message === 'object') {
        const m = str(v.message.model);
        if (m && m !== '<synthetic>') f.model = m;
      }
      if (v.type === 'custom-title' && str(v.customTitle)) custom = v.customTitle;
      if (v.type === 'agent-name' && str(v.agentName)) agent = v.agentName;
      if (v.type === 'ai-title' && str(v.aiTitle)) f.ai_title = v.aiTitle;
      if (v.type === 'summary' && summary === null && str(v.summary)) summary = v.summary;
    }
  }
  f.title = custom ?? agent ?? summary;
  return f;
}
