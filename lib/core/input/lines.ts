// The line reader: physical lines out of a byte stream, linear in the line length.
// Pending pieces of an unfinished line are kept as a list and joined once, when its
// newline arrives, so a line of any size costs one copy (split2 re-scans instead).
// Lines come out in batches, one batch per chunk read, so a tool's loop over them is
// synchronous and pays for a promise per chunk rather than per line.
// A line longer than LONG_LINE is never joined: it comes out in pieces as they are
// read (see LongPiece), so memory stays flat and no string is ever made of it.

/** One physical line: its bytes without the line end, and how it ended. */
export interface PhysicalLine {
  /** 1-based line number in its source. */
  n: number;
  /** The line's bytes, without CR LF / LF, and without a leading BOM on line 1. */
  bytes: Buffer;
  /** The line ended in CR LF. */
  crlf: boolean;
  /** The line ended in a newline (false only for a last line without one). */
  eol: boolean;
  /** Line 1 started with a UTF-8 byte order mark (removed from `bytes`). */
  bom: boolean;
}

/**
 * A piece of a line longer than LONG_LINE. The first piece holds at least LONG_LINE
 * bytes; pieces keep every byte (a BOM and a CR before the newline stay in the bytes).
 */
export interface LongPiece {
  n: number;
  bytes: Buffer;
  first: boolean;
  /** The line's last piece. */
  last: boolean;
  /** On the last piece: a newline ended the line. */
  eol: boolean;
}

/** What a batch holds: whole lines, and pieces of long lines, in input order. */
export type LineItem = PhysicalLine | LongPiece;

/** True for a piece of a long line. */
export function isLongPiece(item: LineItem): item is LongPiece {
  return 'first' in item;
}

/** Lines longer than this many bytes are passed on in pieces and never parsed (64 MiB, or TX_LONG_LINE). */
export const LONG_LINE = longLineLimit();

function longLineLimit(): number {
  const v = Number(process.env.TX_LONG_LINE);
  return Number.isInteger(v) && v > 0 ? v : 64 * 1024 * 1024;
}

const LF = 0x0a;
const CR = 0x0d;

/** Line `n` from its bytes without the newline (`eol`: a newline ended it): a BOM on line 1 and a CR before the newline come off. */
export function physicalLine(bytes: Buffer, n: number, eol: boolean): PhysicalLine {
  let bom = false;
  if (n === 1 && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    bytes = bytes.subarray(3);
    bom = true;
  }
  const crlf = eol && bytes.length > 0 && bytes[bytes.length - 1] === CR;
  if (crlf) bytes = bytes.subarray(0, bytes.length - 1);
  return { n, bytes, crlf, eol, bom };
}

/** Splits chunks into lines synchronously, carrying an unfinished line from one chunk to the next. */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingLength = 0;
  private n = 0;
  /** The line being passed on in pieces, if any. */
  private long = false;

  /** `linesBefore`: lines before the first one pushed (for a part of a file read on its own). */
  constructor(
    private readonly limit = LONG_LINE,
    linesBefore = 0,
  ) {
    this.n = linesBefore;
  }

  /** The lines (and long-line pieces) that end in or pass through this chunk. */
  push(chunk: Buffer): LineItem[] {
    const out: LineItem[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(LF, start);
      if (nl < 0) break;
      let bytes = chunk.subarray(start, nl);
      if (this.long) {
        out.push({ n: this.n, bytes, first: false, last: true, eol: true });
        this.long = false;
      } else {
        if (this.pendingLength > 0) {
          this.pending.push(bytes);
          bytes = Buffer.concat(this.pending, this.pendingLength + bytes.length);
          this.pending = [];
          this.pendingLength = 0;
        }
        if (bytes.length > this.limit) out.push({ n: ++this.n, bytes, first: true, last: true, eol: true });
        else out.push(physicalLine(bytes, ++this.n, true));
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      // Copy: the source may reuse its chunk buffers.
      const rest = Buffer.from(chunk.subarray(start));
      if (this.long) out.push({ n: this.n, bytes: rest, first: false, last: false, eol: false });
      else {
        this.pending.push(rest);
        this.pendingLength += rest.length;
        if (this.pendingLength > this.limit) {
          out.push({ n: ++this.n, bytes: Buffer.concat(this.pending, this.pendingLength), first: true, last: false, eol: false });
          this.pending = [];
          this.pendingLength = 0;
          this.long = true;
        }
      }
    }
    return out;
  }

  /** The last line, if the input did not end with a newline; an empty tail is not a line. */
  end(): LineItem[] {
    if (this.long) {
      this.long = false;
      return [{ n: this.n, bytes: Buffer.alloc(0), first: false, last: true, eol: false }];
    }
    if (this.pendingLength === 0) return [];
    const bytes = Buffer.concat(this.pending, this.pendingLength);
    this.pending = [];
    this.pendingLength = 0;
    return [physicalLine(bytes, ++this.n, false)];
  }
}

/**
 * What lineBatches awaits after each chunk's batch, where set and where it gives a
 * promise: the main thread running a share of a --jobs run lets its event loop turn
 * there (serve-files.ts), so that it hears the other threads within a file too.
 */
let afterChunk: (() => Promise<void> | null) | null = null;

/** Set what lineBatches awaits after each chunk (null: nothing). */
export function setAfterChunk(f: (() => Promise<void> | null) | null): void {
  afterChunk = f;
}

/** Batches of lines from a stream of Buffers, one batch per chunk (batches may be empty); numbered from `linesBefore` + 1. */
export async function* lineBatches(chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, limit = LONG_LINE, linesBefore = 0): AsyncGenerator<LineItem[]> {
  const splitter = new LineSplitter(limit, linesBefore);
  for await (const raw of chunks) {
    yield splitter.push(typeof raw === 'string' ? Buffer.from(raw) : raw);
    const pause = afterChunk?.();
    if (pause) await pause;
  }
  const last = splitter.end();
  if (last.length > 0) yield last;
}

/** Split a stream of Buffers into physical lines; a missing final newline is reported, an empty tail is not a line. */
export async function* splitLines(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<PhysicalLine> {
  // Callers of this form take whole lines of any length (up to what a Buffer holds).
  for await (const batch of lineBatches(chunks, Infinity)) yield* batch as PhysicalLine[];
}
