// Lines too long to hold. A page shows at most BLOCK_CAP characters of one block, so
// of a line longer than KEEP_STRING bytes tx-render keeps only what it can show: its
// bytes pass through a byte-level JSON scan that copies the structure and cuts each
// string after KEEP_STRING bytes (an image's base64 after KEEP_DATA; any string after
// KEEP_TIGHT once half of MAX_KEPT is kept), writing in the string's place how much was
// left out.
// Such a line is never joined whole, and what is read of it is at most its structure
// and KEEP_STRING bytes of each string, whatever its length. A line whose kept part
// passes MAX_KEPT bytes (a structure of hundreds of thousands of values) is left out,
// and said to be: reading it would take more memory than tx-render allows itself.
import { lineBatches, isLongPiece, type PhysicalLine } from '../core/input/lines.js';
import { withDocuments } from '../records/document.js';
import { formatCount } from './tally.js';

/** Bytes of one string a line keeps (a page shows BLOCK_CAP characters of a block); lines longer than this are shortened so before they are read. */
export const KEEP_STRING = 256 * 1024;

/** Bytes of an image's base64 a line keeps (the value of a key `data`): an image cut is not shown at all. */
export const KEEP_DATA = 2 * 1024 * 1024;

/** The keys whose string value is an image's data (Common's and Claude Code's `data`, Codex's `image_url`). */
const IMAGE_KEYS = new Set(['data', 'image_url']);

/** Bytes a shortened line may keep at most. */
export const MAX_KEPT = 4 * 1024 * 1024;

/** Bytes of each string kept once a line has kept half of MAX_KEPT: many long texts in one line (parallel results) are all shown in part. */
export const KEEP_TIGHT = 4096;

const QUOTE = 0x22;
const COLON = 0x3a;
const BACKSLASH = 0x5c;

/** Shortens one line fed to it in pieces: every string cut after KEEP_STRING bytes, with a note of what was left out. */
export class LineShortener {
  private readonly out: Buffer[] = [];
  private kept = 0;
  private inString = false;
  /** Inside a string: the last byte was a backslash; or hex digits of a \u escape still to come. */
  private afterBackslash = false;
  private hex = 0;
  /** Bytes of the current string kept so far; whether the rest of it is being left out, and how many bytes were. */
  private stringKept = 0;
  /** What the current string may keep; the first bytes of the last string read and whether a colon followed it (it was a key). */
  private budget = 0;
  private head = '';
  private lastString = '';
  private colon = false;
  private dropping = false;
  private dropped = 0;
  /** Bytes of the line read. */
  length = 0;
  /** The structure passed MAX_KEPT: the line cannot be kept. */
  overflow = false;

  constructor(
    private readonly keep = KEEP_STRING,
    private readonly max = MAX_KEPT,
  ) {}

  /** Take the next piece of the line. */
  push(piece: Buffer): void {
    this.length += piece.length;
    const n = piece.length;
    /** Start of the bytes still to be copied. */
    let from = 0;
    let i = 0;
    while (i < n && !this.overflow) {
      if (!this.inString) {
        // Outside strings JSON has no escapes: the next quote opens a string.
        const q = piece.indexOf(QUOTE, i);
        if (!this.colon) {
          const c = piece.indexOf(COLON, i);
          this.colon = c >= 0 && (q < 0 || c < q);
        }
        if (q < 0) break;
        this.inString = true;
        this.stringKept = 0;
        this.budget = this.colon && IMAGE_KEYS.has(this.lastString) ? Math.max(this.keep, KEEP_DATA) : this.keep;
        this.head = '';
        this.colon = false;
        i = q + 1;
        continue;
      }
      const c = piece[i];
      if (this.dropping) {
        if (this.afterBackslash) this.afterBackslash = false;
        else if (c === BACKSLASH) this.afterBackslash = true;
        else if (c === QUOTE) {
          this.add(Buffer.from(`\\n[${formatCount(this.dropped)} more bytes of this text left out by tx-render]`));
          this.dropping = false;
          this.inString = false;
          this.lastString = this.head;
          from = i;
          i++;
          continue;
        }
        this.dropped++;
        i++;
        continue;
      }
      // A string is cut only between characters and escapes, once past its budget.
      if (this.stringKept >= (this.kept + i - from > this.max / 2 ? Math.min(this.budget, KEEP_TIGHT) : this.budget) && !this.afterBackslash && this.hex === 0 && (c & 0xc0) !== 0x80 && c !== QUOTE) {
        this.add(piece.subarray(from, i));
        from = i;
        this.dropping = true;
        this.dropped = 0;
        continue;
      }
      if (this.afterBackslash) {
        this.afterBackslash = false;
        if (c === 0x75) this.hex = 4;
      } else if (this.hex > 0) this.hex--;
      else if (c === BACKSLASH) this.afterBackslash = true;
      else if (c === QUOTE) {
        this.inString = false;
        this.lastString = this.head;
      }
      if (this.stringKept < 9 && this.inString) this.head += String.fromCharCode(c);
      this.stringKept++;
      i++;
    }
    if (!this.dropping) this.add(piece.subarray(from, n));
  }

  /** The shortened line, or null when its structure alone passed the limit. */
  end(): Buffer | null {
    return this.overflow ? null : Buffer.concat(this.out, this.kept);
  }

  private add(bytes: Buffer): void {
    if (bytes.length === 0 || this.overflow) return;
    this.kept += bytes.length;
    if (this.kept > this.max) {
      this.overflow = true;
      this.out.length = 0;
      return;
    }
    // Copied: the reader may reuse its buffers.
    this.out.push(Buffer.from(bytes));
  }
}

/** A line as tx-render reads it: whole, shortened (`shortened`: its length), or too large to keep (`bytes` null). */
export interface RenderLine extends Omit<PhysicalLine, 'bytes'> {
  bytes: Buffer | null;
  shortened?: number;
}

/** The lines of a stream (a document's pieces for a document), each line longer than KEEP_STRING bytes shortened as it is read. */
export async function* renderLines(chunks: AsyncIterable<Buffer | string>, limit = KEEP_STRING): AsyncGenerator<RenderLine> {
  let long: LineShortener | null = null;
  // A session kept as one JSON document is read as its pieces (records/document.ts).
  for await (const batch of withDocuments(lineBatches(chunks, limit))) {
    for (const item of batch) {
      if (!isLongPiece(item)) {
        yield item;
        continue;
      }
      if (item.first) long = new LineShortener(limit);
      long!.push(item.bytes);
      if (item.last) {
        const bytes = long!.end();
        // A long line keeps a CR before its newline in its last piece; the JSON scan copied it as structure.
        yield { n: item.n, bytes: bytes && trimEnd(bytes), crlf: false, eol: item.eol, bom: false, shortened: long!.length };
        long = null;
      }
    }
  }
}

/** Bytes without trailing CR or whitespace a JSON line may end in. */
function trimEnd(bytes: Buffer): Buffer {
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 0x0d || bytes[end - 1] === 0x20)) end--;
  return bytes.subarray(0, end);
}
