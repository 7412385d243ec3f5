// The line reader: physical lines out of a byte stream, linear in the line length.
// Pending pieces of an unfinished line are kept as a list and joined once, when its
// newline arrives, so a line of any size costs one copy (split2 re-scans instead).

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

const LF = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function finish(bytes: Buffer, n: number, eol: boolean): PhysicalLine {
  let bom = false;
  if (n === 1 && bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2]) {
    bytes = bytes.subarray(3);
    bom = true;
  }
  const crlf = eol && bytes.length > 0 && bytes[bytes.length - 1] === CR;
  if (crlf) bytes = bytes.subarray(0, bytes.length - 1);
  return { n, bytes, crlf, eol, bom };
}

/** Split a stream of Buffers into physical lines; a missing final newline is reported, an empty tail is not a line. */
export async function* splitLines(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<PhysicalLine> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let n = 0;
  for await (const raw of chunks) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(LF, start);
      if (nl < 0) break;
      let bytes = chunk.subarray(start, nl);
      if (pendingLength > 0) {
        pending.push(bytes);
        bytes = Buffer.concat(pending, pendingLength + bytes.length);
        pending = [];
        pendingLength = 0;
      }
      yield finish(bytes, ++n, true);
      start = nl + 1;
    }
    if (start < chunk.length) {
      // Copy: the source may reuse its chunk buffers.
      const rest = Buffer.from(chunk.subarray(start));
      pending.push(rest);
      pendingLength += rest.length;
    }
  }
  if (pendingLength > 0) yield finish(Buffer.concat(pending, pendingLength), ++n, false);
}
