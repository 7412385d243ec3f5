// A tool for the worker tests, whose output is told by the names of its files:
// `NAME:PIECES:BYTES` writes PIECES lines of BYTES bytes, each flushed on its own (as a
// record tool flushes when its input has nothing waiting), with a note on stderr before
// and after; `NAME:exit` ends its thread (a worker thread) in the middle of the file; `NAME:PIECES:BYTES:once`
// says a note once per run (Context.noteOnce) after its first; `NAME:PIECES:BYTES:direct`
// writes to the thread's stdout stream itself, and says whether it is the stream the
// file before it on the same thread had; `NAME:clock` writes its name and the time it
// ran (Date.now()); `NAME:touch:PATH` the same, and makes the file PATH;
// `NAME:waitfor:PATH` the same once PATH exists (20 s at most) and 200 ms more.
import { existsSync, writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import type { Tool } from '../../../lib/core/tool.js';

/** The lines a `NAME:PIECES:BYTES` file gives. */
export function piecesOf(spec: string): string[] {
  const [name, pieces, bytes] = spec.split(':');
  const lines: string[] = [];
  for (let i = 0; i < Number(pieces); i++) {
    const head = `${name} ${i} `;
    lines.push(head + '.'.repeat(Math.max(0, Number(bytes) - head.length - 1)) + '\n');
  }
  return lines;
}

let lastStdout: unknown = null;

/** The tool (run on workers: each file is independent). */
export const piecesTool: Tool = {
  name: 'tx-pieces',
  help: 'usage: tx-pieces NAME:PIECES:BYTES...',
  options: {},
  parallel: { url: import.meta.url },
  async main(ctx) {
    for (const spec of ctx.files) {
      const name = spec.split(':')[0];
      const clock = /^[^:]+:(?:clock|(touch|waitfor):(.+))$/.exec(spec);
      if (clock) {
        const [, how, path] = clock;
        if (how === 'touch') writeFileSync(path, '');
        if (how === 'waitfor') {
          const end = Date.now() + 20_000;
          while (!existsSync(path) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        await ctx.out.write(`${name} ${Date.now()}\n`);
        continue;
      }
      ctx.note(`${name}: start`);
      if (spec.endsWith(':exit')) {
        // The main thread runs a share of the files too: ending it would end the test.
        if (isMainThread) throw new Error(`${spec} ran on the main thread, not a worker thread`);
        process.exit(3);
      }
      if (spec.endsWith(':once')) ctx.noteOnce(`${name}: once`, 'with a note said once');
      const direct = spec.endsWith(':direct');
      // The thread's stdout stream, made once for all the files a worker runs, or anew for each.
      if (direct) ctx.note(`${name}: ${ctx.proc.stdout === lastStdout ? 'the same' : 'a new'} stdout`);
      lastStdout = ctx.proc.stdout;
      for (const line of piecesOf(spec)) {
        if (direct) {
          // Written to stdout itself, without waiting: the stream holds what the worker's credit does not yet let through.
          ctx.proc.stdout.write(line);
          continue;
        }
        await ctx.out.write(line);
        await ctx.out.flush();
      }
      ctx.note(`${name}: end`);
    }
  },
};

/**
 * Writes, for each file named, its name, its thread's young generation limit in MB (`-`
 * off a worker) and the size its young generation has after making 3,000,000 objects
 * that live a while (200,000 at a time), in MB.
 */
async function youngMain(ctx: Parameters<Tool['main']>[0]): Promise<void> {
  const { resourceLimits } = await import('node:worker_threads');
  const { getHeapSpaceStatistics } = await import('node:v8');
  for (const name of ctx.files) {
    let live: { i: number }[] = [];
    for (let i = 0; i < 3_000_000; i++) {
      live.push({ i });
      if (live.length === 200_000) live = [];
    }
    const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size / 2 ** 20;
    await ctx.out.write(`${name} ${resourceLimits.maxYoungGenerationSizeMb ?? '-'} ${young}\n`);
  }
}

/** A tool whose workers are asked for a 4 MB young generation (smaller than the default, as tx-common's 6 MB is). */
export const youngTool: Tool = { name: 'tx-young', help: 'usage: tx-young NAME...', options: {}, parallel: { url: import.meta.url, youngMb: 4 }, main: youngMain };

/** The same tool with the workers' default young generation. */
export const youngDefaultTool: Tool = { name: 'tx-young-default', help: 'usage: tx-young-default NAME...', options: {}, parallel: { url: import.meta.url }, main: youngMain };

/** On a worker, sends (Proc.send) for each file named 20,000 small objects that the main thread keeps: data that outlives many collections there. */
export const sendTool: Tool = {
  name: 'tx-send',
  help: 'usage: tx-send NAME...',
  options: {},
  parallel: { url: import.meta.url },
  async main(ctx) {
    for (const name of ctx.files) ctx.proc.send?.(Array.from({ length: 20_000 }, (_, i) => ({ name, i, text: `${name} ${i}` })));
  },
};

/**
 * For each file named: keeps 400,000 small objects alive, makes 300 strings of 2 MB
 * (each too large for a young generation, so each goes to the old one) and drops each
 * at once, and writes its name, the heap in use once the objects were made and the
 * largest the heap was, in MB.
 */
export const garbageTool: Tool = {
  name: 'tx-garbage',
  help: 'usage: tx-garbage NAME...',
  options: {},
  parallel: { url: import.meta.url },
  async main(ctx) {
    const { getHeapStatistics } = await import('node:v8');
    for (const name of ctx.files) {
      const live = Array.from({ length: 400_000 }, (_, i) => ({ i, text: `${i}` }));
      const base = getHeapStatistics().used_heap_size;
      let peak = 0;
      let length = 0;
      for (let i = 0; i < 300; i++) {
        length += JSON.parse(JSON.stringify(Buffer.alloc(2_000_000, 97 + (i % 26)).toString('latin1'))).length;
        peak = Math.max(peak, getHeapStatistics().total_heap_size);
      }
      await ctx.out.write(`${name} ${(base / 2 ** 20).toFixed(1)} ${(peak / 2 ** 20).toFixed(1)} ${live.length + length}\n`);
    }
  },
};
