// tx-parse: native session lines in, one record per line out.
import { splitLines } from '../core/lines.js';
import type { Context, Tool } from '../core/run.js';
import { currentSessionForTerminal } from './current-session.js';
import { parsePhysicalLine } from '../parse-line.js';
import { encodeRecord, type Harness } from '../record.js';

const HELP = `usage: tx-parse [--strict] [FILE...]

Split and classify session lines into records, one per physical line:
  {"harness":…,"n":…,"src":…,"kind":…,"line":<the native line, verbatim>}
Reads the files named (- is stdin), or stdin; with neither and stdin a
terminal, the current session of the working directory (tx-ls --current).
Lines that are not JSON, not UTF-8, blank, or glued together are kept as
records and reported on stderr.

  --strict     exit 1 if any line had to be kept as invalid or glued
  -h, --help   this text        --version   the version
See tx-parse(1).`;

async function main(ctx: Context): Promise<void> {
  // No file and a terminal on stdin: nothing would ever arrive, so read the current session.
  if (ctx.files.length === 0 && ctx.proc.stdin.isTTY) ctx.files.push(currentSessionForTerminal(ctx));
  for await (const input of ctx.inputs()) {
    let previous: Harness = 'claude-code';
    for await (const line of splitLines(input.stream)) {
      for (const record of parsePhysicalLine(line, input.src, previous)) {
        if (record.problem) ctx.warn({ src: input.src, n: line.n }, record.problem);
        if (record.header.kind !== 'invalid') previous = record.header.harness;
        for (const piece of encodeRecord(record.header, record.lineBytes)) await ctx.out.write(piece);
      }
    }
  }
}

/** The tx-parse tool. */
export const parseTool: Tool = { name: 'tx-parse', help: HELP, options: {}, main };
