// tx-parse: native session lines in, one record per line out.
// The loop is synchronous over each chunk's lines and appends records to one output
// buffer; it waits only once per chunk (for the output to drain).
import { reusedChunks } from '../core/input/file-chunks.js';
import { lineBatches, LONG_LINE } from '../core/input/lines.js';
import { stdinIsTerminal, type Context, type Tool } from '../core/tool.js';
import { harnessBefore, SourceParser } from '../records/source-parser.js';

const HELP = `usage: tx-parse [--strict] [FILE...]
       tx-parse -f [--strict] [FILE|SESSION...]

Split and classify session lines into records, one per physical line:
  {"harness":…,"n":…,"src":…,"kind":…,"line":<the native line, verbatim>}
Reads the files named (- is stdin), or stdin; with neither and stdin a
terminal, the current session of the working directory (tx-ls --current).
Lines that are not JSON, not UTF-8, blank, or glued together are kept as
records and reported on stderr. Lines that are records already (tx-parse
output) are passed through unchanged, after one note.

  -f, --follow follow the files as they grow (like tail -F) until SIGINT or
               SIGTERM (status 0); a SESSION id (or the current session)
               brings its subagent transcripts as they appear
  --strict     exit 1 if any line had to be kept as invalid or glued
  --jobs N     with several files, read N at a time, on this thread and N-1
               worker threads; given, one file of 16 MiB or more is cut into
               parts at line ends (default: the number of cores; output stays
               in file order)
  -h, --help   this text        --version   the version
See tx-parse(1).`;

async function main(ctx: Context): Promise<void> {
  // Loaded only when asked for: following is its own loop (parse-follow.ts) over the same SourceParser.
  if (ctx.args.follow) return (await import('./parse-follow.js')).followParse(ctx);
  // No file and a terminal on stdin: nothing would ever arrive, so read the current session.
  // (Loaded only then: finding it takes every codec's store, which reading lines does not.)
  if (ctx.files.length === 0 && stdinIsTerminal(ctx.proc)) ctx.files.push(await (await import('./current-session.js')).currentSessionForTerminal(ctx));
  for await (const input of ctx.inputs()) {
    const source = new SourceParser(ctx, input.src, input.part && input.src !== undefined ? harnessBefore(input.src, input.part.start) : undefined);
    for await (const batch of lineBatches(reusedChunks(input.stream), LONG_LINE, input.part?.linesBefore ?? 0)) {
      source.push(batch);
      await ctx.out.flushIfFull();
    }
  }
}

/** The tx-parse tool. */
export const parseTool: Tool = {
  name: 'tx-parse',
  help: HELP,
  options: { boolean: ['follow'], alias: { f: 'follow' } },
  main,
  // Following runs until stopped, so it is never split between workers.
  parallel: { url: import.meta.url, when: (args) => !args.follow, parts: true },
  // A followed file is named itself: --follow refuses a directory.
  directories: (args) => !args.follow,
};
