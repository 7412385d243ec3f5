// A tool for the worker tests, whose output is told by the names of its files:
// `NAME:PIECES:BYTES` writes PIECES lines of BYTES bytes, each flushed on its own (as a
// record tool flushes when its input has nothing waiting), with a note on stderr before
// and after; `NAME:exit` ends its thread in the middle of the file; `NAME:PIECES:BYTES:once`
// says a note once per run (Context.noteOnce) after its first.
import type { Tool } from '../../lib/core/run.js';

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

/** The tool (run on workers: each file is independent). */
export const piecesTool: Tool = {
  name: 'tx-pieces',
  help: 'usage: tx-pieces NAME:PIECES:BYTES...',
  options: {},
  parallel: { url: import.meta.url },
  async main(ctx) {
    for (const spec of ctx.files) {
      const name = spec.split(':')[0];
      ctx.note(`${name}: start`);
      if (spec.endsWith(':exit')) process.exit(3);
      if (spec.endsWith(':once')) ctx.noteOnce(`${name}: once`, 'with a note said once');
      for (const line of piecesOf(spec)) {
        await ctx.out.write(line);
        await ctx.out.flush();
      }
      ctx.note(`${name}: end`);
    }
  },
};

/** Writes, for each file named, its name and its thread's young generation limit in MB (`-` off a worker). */
async function youngMain(ctx: Parameters<Tool['main']>[0]): Promise<void> {
  const { resourceLimits } = await import('node:worker_threads');
  for (const name of ctx.files) await ctx.out.write(`${name} ${resourceLimits.maxYoungGenerationSizeMb ?? '-'}\n`);
}

/** A tool whose workers are asked for an 8 MB young generation (as tx-common's are). */
export const youngTool: Tool = { name: 'tx-young', help: 'usage: tx-young NAME...', options: {}, parallel: { url: import.meta.url, youngMb: 8 }, main: youngMain };

/** The same tool with the workers' default young generation. */
export const youngDefaultTool: Tool = { name: 'tx-young-default', help: 'usage: tx-young-default NAME...', options: {}, parallel: { url: import.meta.url }, main: youngMain };
