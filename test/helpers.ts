// What the tests share: where the repo, the bins, the fixtures and the corpus are,
// and a way to run a bin as a user would.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAll } from '../lib/codecs.js';
import { Continuable } from '../lib/continuable/continuable.js';
import type { Harness } from '../lib/record.js';

/** The repository root (compiled tests live in build/test/). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A path inside the repository. */
export function repo(...parts: string[]): string {
  return join(ROOT, ...parts);
}

/** The shared folder beside the repository (TX_SHARED names another: a checkout kept elsewhere). */
export const SHARED = process.env.TX_SHARED ?? join(ROOT, '..', 'shared');

/** The shared corpus folder beside the repository, or null when this checkout has none. */
export function corpusDir(harness: 'claude-code' | 'codex'): string | null {
  const dir = join(SHARED, 'corpus', harness);
  return existsSync(dir) ? dir : null;
}

/** Every .jsonl file of a corpus (empty when the corpus is absent). */
export function corpusFiles(harness: 'claude-code' | 'codex'): string[] {
  const dir = corpusDir(harness);
  if (!dir) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(dir, f));
}

/** What a finished bin left behind. */
export interface BinResult {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Run `build/bin/NAME.js` with arguments and optional stdin; collects everything. */
export function runBin(name: string, args: string[], input?: Buffer | string, env?: NodeJS.ProcessEnv): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [repo('build', 'bin', `${name}.js`), ...args], {
      cwd: ROOT,
      env: env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

/** Pipe bytes through a chain of bins, like a shell pipeline; returns the last stage's result and every stderr. */
export async function pipeline(input: Buffer | string, stages: [string, string[]][]): Promise<BinResult & { stderrs: string[] }> {
  let data: Buffer | string = input;
  const stderrs: string[] = [];
  let last: BinResult = { status: 0, stdout: Buffer.alloc(0), stderr: '' };
  for (const [name, args] of stages) {
    last = await runBin(name, args, data);
    stderrs.push(last.stderr);
    data = last.stdout;
  }
  return { ...last, stderrs };
}

/** Run a tool in this process with stdin delivered as the given chunks; collects stdout and stderr. */
export async function runTool(tool: import('../lib/core/tool.js').Tool, args: string[], chunks: (Buffer | string)[], env: NodeJS.ProcessEnv = {}): Promise<BinResult> {
  const { run } = await import('../lib/core/run.js');
  const { Readable, Writable } = await import('node:stream');
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (into: Buffer[]) =>
    new Writable({
      write(chunk, _enc, cb) {
        into.push(Buffer.from(chunk));
        cb();
      },
    });
  const stdin = Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)), { objectMode: false });
  const status = await run(tool, { argv: ['node', tool.name, ...args], env, stdin, stdout: sink(out), stderr: sink(err), cwd: () => ROOT } as any);
  return { status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
}

/** mulberry32: a small seeded PRNG, so a failing random case can be reproduced from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** How many buffers `work` makes from strings (`Buffer.from(string)`): text encoded into a buffer of its own. */
export async function buffersFromText(work: () => unknown): Promise<number> {
  const original = Buffer.from;
  let made = 0;
  Buffer.from = ((value: unknown, ...rest: unknown[]) => {
    if (typeof value === 'string') made++;
    return (original as (...a: unknown[]) => Buffer).call(Buffer, value, ...rest);
  }) as typeof Buffer.from;
  try {
    await work();
  } finally {
    Buffer.from = original;
  }
  return made;
}

/**
 * About `bytes` of session lines of uneven length (user and assistant in turn, one
 * chain): a text of up to `longest` copies of `letter`, then `mark` (a character beyond
 * ASCII) and the line's number. Seeded, so every run writes the same lines.
 */
export function unevenSession(seed: number, bytes: number, longest: number, letter: string, mark: string): string[] {
  const random = prng(seed);
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = letter.repeat(Math.floor(random() * longest)) + ` ${mark} ${i}`;
    const type = i % 2 === 0 ? 'user' : 'assistant';
    const content = type === 'user' ? text : [{ type: 'text', text }];
    lines.push(JSON.stringify({ type, sessionId: 's', uuid: `u${i}`, parentUuid: i === 0 ? null : `u${i - 1}`, timestamp: '2025-01-01T00:00:00Z', message: { role: type, content } }));
    size += lines[lines.length - 1].length + 1;
  }
  return lines;
}

/** Every harness's whole codec, by name. */
const WHOLE = new Map((await loadAll('codec')).map((c) => [c.harness, c]));

/** Common lines as tx-native makes them continuable for a target before writing them (lib/continuable/). */
export function continued(lines: any[], harness: Harness): any[] {
  const out: any[] = [];
  let open: Continuable | null = null;
  const close = () => {
    if (open) for (const { message } of open.messages()) out.push(message);
    open?.dispose();
    open = null;
  };
  for (const l of lines) {
    if (l.type === 'session') {
      close();
      out.push(l);
      open = new Continuable(l, { harness, rules: WHOLE.get(harness)!.continueRules }, { fromCompaction: false });
    } else open?.push(l);
  }
  close();
  return out;
}

/** Run `work` over `items`, at most `limit` at a time, results in input order. */
export async function pool<A, B>(items: A[], limit: number, work: (a: A) => Promise<B>): Promise<B[]> {
  const out: B[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The files below `dir`, at any depth (none when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) stack.push(full);
      else out.push(full);
    }
  }
  return out;
}

/** A command a person ran, as tx-native writes it for Codex and the Gemini CLI: the name and arguments typed, then what it expanded to. */
export function typedCommand(name: string, input: Record<string, unknown>): string {
  const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
  const typed = name === '!' ? `!${str(input.args)}` : [name, str(input.args)].filter((s) => s !== '').join(' ');
  return input.contents === undefined ? typed : `${typed}\n\n${str(input.contents)}`;
}
