// tx-parse: native session lines in, one record per line out.
// The loop is synchronous over each chunk's lines and appends records to one output
// buffer; it waits only once per chunk (for the output to drain).
import { closeSync, readSync } from 'node:fs';
import { reusedChunks } from '../core/file-chunks.js';
import { isLongPiece, lineBatches, LONG_LINE, physicalLine, type LineItem } from '../core/lines.js';
import { LongLineRecord, pushRecord } from '../core/records.js';
import { openRegular } from '../core/regular-file.js';
import { stdinIsTerminal, type Context, type Tool } from '../core/run.js';
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
  if (ctx.files.length === 0 && stdinIsTerminal(ctx.proc)) ctx.files.push((await import('./current-session.js')).currentSessionForTerminal(ctx));
  for await (const input of ctx.inputs()) {
    const source = new SourceParser(ctx, input.src, input.part && input.src !== undefined ? harnessBefore(input.src, input.part.start) : undefined);
    for await (const batch of lineBatches(reusedChunks(input.stream), LONG_LINE, input.part?.linesBefore ?? 0)) {
      source.push(batch);
      await ctx.out.flushIfFull();
    }
  }
}

/**
 * The harness an invalid line at `offset` (a line start) of `file` is given: that of
 * the last line before it that is not invalid, as when the file is read from its start
 * (for a part of a file read on a worker). Lines are read backwards a window at a time.
 */
export function harnessBefore(file: string, offset: number): Harness {
  const { fd } = openRegular(file);
  try {
    // [end, offset) holds the lines already judged; `end` is always a line start.
    let end = offset;
    let window = 64 * 1024;
    while (end > 0) {
      const from = Math.max(0, end - window);
      const bytes = Buffer.allocUnsafe(end - from);
      const got = readSync(fd, bytes, 0, bytes.length, from);
      if (got < bytes.length) return 'claude-code';
      // The window ends with the newline of the line before `end`.
      let stop = bytes.length - 1;
      let judged = end;
      for (;;) {
        const nl = stop > 0 ? bytes.lastIndexOf(0x0a, stop - 1) : -1;
        // The line may begin before the window: read further back.
        if (nl < 0 && from > 0) break;
        const first = from + nl + 1 === 0;
        const decided = lineHarness(bytes.subarray(nl + 1, stop), first);
        if (decided) return decided;
        if (first) return 'claude-code';
        judged = from + nl + 1;
        stop = nl;
      }
      if (judged === end && end - from > LONG_LINE + 2) {
        // A line longer than tx-parse parses, so invalid: find where it starts without holding it.
        judged = lineStartBefore(fd, from);
        if (judged === 0) return 'claude-code';
      } else if (judged === end) window *= 2; // not one whole line in the window: a wider one
      end = judged;
    }
    return 'claude-code';
  } finally {
    closeSync(fd);
  }
}

/** The start of the line holding offset `pos - 1`: just past the newline before it, or 0. */
function lineStartBefore(fd: number, pos: number): number {
  const buf = Buffer.allocUnsafe(1024 * 1024);
  while (pos > 0) {
    const from = Math.max(0, pos - buf.length);
    const got = readSync(fd, buf, 0, pos - from, from);
    const nl = buf.subarray(0, got).lastIndexOf(0x0a);
    if (nl >= 0) return from + nl + 1;
    pos = from;
  }
  return 0;
}

/**
 * The harness a line hands on to the invalid lines after it, or null when it hands on
 * the one before it: an invalid line (a long one too), a JSON value that is not an
 * object (it takes the harness before it), or a record passed through.
 */
function lineHarness(raw: Buffer, first: boolean): Harness | null {
  if (raw.length > LONG_LINE) return null;
  // Numbered 1 only for the file's first line, where a BOM may stand; the number is not reported.
  const physical = physicalLine(raw, first ? 1 : 2, true);
  const asIf = (previous: Harness) => {
    const records = parsePhysicalLine(physical, undefined, previous, true).filter((r) => r.header.kind !== 'invalid' && !r.isRecord);
    return records.length > 0 ? records[records.length - 1].header.harness : null;
  };
  const one = asIf('claude-code');
  // A harness that follows the one before it decides nothing.
  return one !== null && one === asIf('codex') ? one : null;
}

/** The records of one source's lines, appended to the output: what tx-parse does between reading and writing. */
export class SourceParser {
  private previous: Harness;
  private long: LongLineRecord | null = null;
  private noted = false;

  /** `previous`: the harness of the line before the first (Claude Code when none). */
  constructor(
    private readonly ctx: Context,
    private readonly src: string | undefined,
    previous: Harness = 'claude-code',
  ) {
    this.previous = previous;
  }

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
  parallel: { url: import.meta.url, when: (args) => !args.follow, parts: true },
  // A followed file is named itself: --follow refuses a directory.
  directories: (args) => !args.follow,
};
