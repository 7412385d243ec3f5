// tx-parse: native session lines in, one record per line out.
// The loop is synchronous over each chunk's lines and appends records to one output
// buffer; it waits only once per chunk (for the output to drain).
import { isLongPiece, lineBatches, LONG_LINE, type LineItem } from '../core/lines.js';
import { LongLineRecord, pushRecord } from '../core/records.js';
import type { Context, Tool } from '../core/run.js';
import { parsePhysicalLine } from '../parse-line.js';
import type { Harness } from '../record.js';

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
  --jobs N     with several files, read N at a time in worker threads
               (default: the number of cores; output stays in file order)
  -h, --help   this text        --version   the version
See tx-parse(1).`;

async function main(ctx: Context): Promise<void> {
  // Loaded only when asked for: following is its own loop (parse-follow.ts) over the same SourceParser.
  if (ctx.args.follow) return (await import('./parse-follow.js')).followParse(ctx);
  // No file and a terminal on stdin: nothing would ever arrive, so read the current session.
  // (Loaded only then: finding it takes every codec's store, which reading lines does not.)
  if (ctx.files.length === 0 && ctx.proc.stdin.isTTY) ctx.files.push((await import('./current-session.js')).currentSessionForTerminal(ctx));
  for await (const input of ctx.inputs()) {
    const source = new SourceParser(ctx, input.src);
    for await (const batch of lineBatches(input.stream)) {
      source.push(batch);
      await ctx.out.flushIfFull();
    }
  }
}

/** The records of one source's lines, appended to the output: what tx-parse does between reading and writing. */
export class SourceParser {
  private previous: Harness = 'claude-code';
  private long: LongLineRecord | null = null;
  private noted = false;

  constructor(
    private readonly ctx: Context,
    private readonly src: string | undefined,
  ) {}

  /** Append the records of a batch of lines (synchronously; flush after). */
  push(batch: LineItem[]): void {
    const { ctx, src } = this;
    const out = ctx.out;
    for (const line of batch) {
      if (isLongPiece(line)) {
        if (line.first) {
          ctx.warn({ src, n: line.n }, `line longer than ${LONG_LINE} bytes, kept as an invalid record (raw_base64) without parsing`);
          this.long = new LongLineRecord(out, this.previous, line.n, src);
        }
        this.long!.piece(line.bytes);
        if (line.last) this.long!.end(line.eol);
        continue;
      }
      for (const record of parsePhysicalLine(line, src, this.previous, true)) {
        if (record.problem) ctx.warn({ src, n: line.n }, record.problem);
        // A record is not wrapped again: it goes through as it came.
        if (record.isRecord) {
          if (!this.noted) ctx.note(`${src ?? 'stdin'}: these are records already (tx-parse output): passed through unchanged`);
          this.noted = true;
          out.push(record.lineBytes!);
          out.pushText(record.header.eol === false ? '' : record.header.crlf ? '\r\n' : '\n');
          continue;
        }
        if (record.header.kind !== 'invalid') this.previous = record.header.harness;
        pushRecord(out, record.header, record.lineBytes);
      }
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
  parallel: { url: import.meta.url, when: (args) => !args.follow },
  // A followed file is named itself: --follow refuses a directory.
  directories: (args) => !args.follow,
};
