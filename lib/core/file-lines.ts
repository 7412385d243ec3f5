// Physical lines of a regular file read with positioned, synchronous reads: forwards
// from an offset (each line with the offset just past it) or backwards from the end.
// The shallow scans of tx-ls need both directions and byte offsets, which the stream
// splitter of lines.ts does not give; both split at LF and drop CR and a first-line BOM.
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK = 16 * 1024;
const MAX_CHUNK = 1024 * 1024;
const LF = 0x0a;
const CR = 0x0d;

/** Bytes and files read by scans, for progress reports and benchmarks. */
export class ReadCounter {
  bytes = 0;
  files = 0;
}

/** An open session file read in chunks, counting what it reads. */
export class ChunkReader {
  readonly fd: number;
  constructor(
    file: string,
    readonly size: number,
    private readonly counter?: ReadCounter,
  ) {
    this.fd = openSync(file, 'r');
    if (counter) counter.files++;
  }

  read(position: number, length: number): Buffer {
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(this.fd, buf, got, length - got, position + got);
      if (n === 0) break;
      got += n;
    }
    if (this.counter) this.counter.bytes += got;
    return got === length ? buf : buf.subarray(0, got);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Physical lines from `from` onwards (CR LF and a BOM on line 1 removed), each with the offset just past it. */
export function* forwardLines(reader: ChunkReader, from = 0): Generator<{ bytes: Buffer; end: number }> {
  let pos = from;
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let lineStart = from;
  // Start small (the envelope is usually in the first lines), grow for long reads.
  let size = CHUNK;
  for (;;) {
    const chunk = reader.read(pos, size);
    if (size < MAX_CHUNK) size *= 2;
    if (chunk.length === 0) break;
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
      const end = pos + nl + 1;
      yield { bytes: trimLine(bytes, lineStart === 0), end };
      lineStart = end;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      pending.push(rest);
      pendingLength += rest.length;
    }
    pos += chunk.length;
  }
  if (pendingLength > 0) yield { bytes: trimLine(Buffer.concat(pending, pendingLength), lineStart === 0), end: pos };
}

function trimLine(bytes: Buffer, first: boolean): Buffer {
  if (first && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
  return bytes;
}

/** Complete lines between `low` and the end, last first; the piece at `low` counts only when `low` starts a line. */
export function* backwardLines(reader: ChunkReader, low: number, lowStartsLine: boolean): Generator<Buffer> {
  let pos = reader.size;
  let carry: Buffer = Buffer.alloc(0);
  while (pos > low) {
    const n = Math.min(CHUNK, pos - low);
    pos -= n;
    const chunk = reader.read(pos, n);
    const buf = carry.length > 0 ? Buffer.concat([chunk, carry]) : chunk;
    let end = buf.length;
    for (;;) {
      const nl = end > 0 ? buf.lastIndexOf(LF, end - 1) : -1;
      if (nl < 0) break;
      if (end > nl + 1) yield trimLine(buf.subarray(nl + 1, end), false);
      end = nl;
    }
    carry = buf.subarray(0, end);
  }
  if (lowStartsLine && carry.length > 0) yield trimLine(carry, low === 0);
}

/** Every physical line of a file in order, without building them into values; the file closes when the loop ends. */
export function* fileLines(file: string, size: number, counter?: ReadCounter): Generator<Buffer> {
  const reader = new ChunkReader(file, size, counter);
  try {
    for (const line of forwardLines(reader)) yield line.bytes;
  } finally {
    reader.close();
  }
}

/** Physical lines in a file, counted as tx-parse numbers them (reads the whole file). */
export function countLines(file: string, size: number, counter?: ReadCounter): number {
  const reader = new ChunkReader(file, size, counter);
  let lines = 0;
  let last = LF;
  try {
    for (let pos = 0; ; ) {
      const chunk = reader.read(pos, 1 << 20);
      if (chunk.length === 0) break;
      for (let i = chunk.indexOf(LF); i >= 0; i = chunk.indexOf(LF, i + 1)) lines++;
      last = chunk[chunk.length - 1];
      pos += chunk.length;
    }
  } finally {
    reader.close();
  }
  return last === LF ? lines : lines + 1;
}
