// One native source's lines made records, in order, as tx-parse writes them: the
// harness an invalid line inherits, long lines kept whole as base64, and records
// already made passed through. tx-parse and tx-parse --follow both write through it.
import { closeSync, readSync } from 'node:fs';
import { isLongPiece, LONG_LINE, physicalLine, type LineItem } from '../core/input/lines.js';
import { openRegular } from '../core/input/regular-file.js';
import type { Context } from '../core/tool.js';
import { DEFAULT_HARNESS, HARNESSES } from '../codecs.js';
import type { Harness } from '../record.js';
import { parsePhysicalLine } from './parse-line.js';
import { LongLineRecord, pushRecord } from './read.js';

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
      if (got < bytes.length) return DEFAULT_HARNESS;
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
        if (first) return DEFAULT_HARNESS;
        judged = from + nl + 1;
        stop = nl;
      }
      if (judged === end && end - from > LONG_LINE + 2) {
        // A line longer than tx-parse parses, so invalid: find where it starts without holding it.
        judged = lineStartBefore(fd, from);
        if (judged === 0) return DEFAULT_HARNESS;
      } else if (judged === end) window *= 2; // not one whole line in the window: a wider one
      end = judged;
    }
    return DEFAULT_HARNESS;
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
  const one = asIf(DEFAULT_HARNESS);
  // A harness that follows the one before it decides nothing.
  return one !== null && HARNESSES.every((h) => h === DEFAULT_HARNESS || asIf(h) === one) ? one : null;
}

/** The records of one source's lines, appended to the output: what tx-parse does between reading and writing. */
export class SourceParser {
  private previous: Harness;
  private long: LongLineRecord | null = null;
  private noted = false;

  /** `previous`: the harness of the line before the first (the default harness when none). */
  constructor(
    private readonly ctx: Context,
    private readonly src: string | undefined,
    previous: Harness = DEFAULT_HARNESS,
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

