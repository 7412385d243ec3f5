// Physical lines of a regular file read with positioned, synchronous reads: forwards
// from an offset (each line with the offset just past it), or only the lines holding a
// given JSON value, found by a byte search. The shallow scans of tx-ls need byte offsets
// and skipping, which the stream splitter of lines.ts does not give; both split at LF
// and drop CR and a first-line BOM.
import { closeSync, readSync } from 'node:fs';
import { openRegular } from './regular-file.js';

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
    this.fd = openRegular(file).fd;
    if (counter) counter.files++;
  }

  /** `length` bytes from `position` (fewer at the end of the file), in a new buffer the caller may keep. */
  read(position: number, length: number): Buffer {
    return this.fill(Buffer.allocUnsafe(length), position);
  }

  /** Bytes from `position` into `buf` (up to the size found at stat), returned as the part filled. */
  readInto(buf: Buffer, position: number): Buffer {
    return this.fill(buf.subarray(0, Math.max(0, Math.min(buf.length, this.size - position))), position);
  }

  private fill(buf: Buffer, position: number): Buffer {
    const length = buf.length;
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

const SCAN_CHUNK = 1024 * 1024;
// One search buffer, lent to one search at a time: a search that keeps nothing of a chunk
// then reads a whole store without allocating (a fresh megabyte per read pays its page
// faults again, which cost more than the search).
let spare: Buffer | null = null;
const COLON = 0x3a;

/** True when the JSON string token ending before `at` is followed by a colon: a key, not a value. */
function isKey(buf: Buffer, at: number): boolean {
  while (at < buf.length && (buf[at] === 0x20 || buf[at] === 0x09 || buf[at] === CR || buf[at] === LF)) at++;
  return at < buf.length && buf[at] === COLON;
}

/**
 * The lines from `from` (a line start) onwards that hold one of `values` as a JSON string
 * value, in file order. Each value is matched as its JSON token with quotes (`"summary"`),
 * which no string's content can hold unescaped, and not where a colon follows (a key).
 * The file is searched in large reads with indexOf; only the lines holding a match are
 * cut out and returned, so the cost is one pass over the bytes, not one split per line.
 * A match may be a false positive (a value equal to the token elsewhere): the caller
 * parses the line to know.
 */
export function* linesWithValue(reader: ChunkReader, from: number, values: string[]): Generator<Buffer> {
  // The shared buffer when no other search holds it, else one of this search's own.
  const buf = spare ?? Buffer.allocUnsafe(SCAN_CHUNK);
  spare = null;
  try {
    yield* searchLines(reader, from, values, buf);
  } finally {
    spare = buf;
  }
}

function* searchLines(reader: ChunkReader, from: number, values: string[], buf: Buffer): Generator<Buffer> {
  const needles = searchNeedles(values);
  const overlap = Math.max(...needles.flatMap((n) => n.tokens.map((t) => t.bytes.length))) - 1;
  // `pos`: where the search goes on; `lineStart`: the start of the line holding `pos`.
  let pos = from;
  let lineStart = from;
  while (pos < reader.size) {
    const chunkStart = Math.max(from, pos - overlap);
    const chunk = reader.readInto(buf, chunkStart);
    if (chunk.length === 0) break;
    const chunkEnd = chunkStart + chunk.length;
    // The next match of each needle at or after the cursor (a match ending before `pos` was seen in the last chunk).
    const next = needles.map(() => -2);
    let cursor = 0;
    let moved = false;
    for (;;) {
      let best = -1;
      for (let k = 0; k < needles.length; k++) {
        const needle = needles[k].bytes;
        if (next[k] !== -1 && next[k] < cursor) {
          let i = chunk.indexOf(needle, cursor);
          while (i >= 0 && chunkStart + i + needle.length <= pos) i = chunk.indexOf(needle, i + 1);
          next[k] = i;
        }
        if (next[k] >= 0 && (best < 0 || next[k] < next[best])) best = k;
      }
      if (best < 0) break;
      const hit = next[best];
      cursor = hit + 1;
      const token = needles[best].tokens.find((t) => hit - t.offset < 0 || chunk.compare(t.bytes, 0, t.bytes.length, hit - t.offset, hit - t.offset + t.bytes.length) === 0);
      if (!token || isKey(chunk, hit - token.offset + token.bytes.length)) continue;
      const before = chunk.lastIndexOf(LF, hit);
      const start = before >= 0 ? chunkStart + before + 1 : lineStart;
      const after = chunk.indexOf(LF, hit);
      const end = after >= 0 ? chunkStart + after : lineEndFrom(reader, chunkEnd);
      yield trimLine(reader.read(start, end - start), start === 0);
      pos = end + 1;
      lineStart = end + 1;
      moved = true;
      if (after < 0) break;
      cursor = after + 1;
    }
    if (moved && pos > chunkEnd) continue;
    const last = chunk.lastIndexOf(LF);
    if (last >= 0 && chunkStart + last + 1 > lineStart) lineStart = chunkStart + last + 1;
    pos = chunkEnd;
  }
}

/**
 * What to search for each value's JSON token: from its last hyphen on (`-title"` for
 * `"custom-title"` and `"ai-title"`), else from its second letter (`ummary"`). A needle
 * that does not start with a quote or a common letter skips through JSON several times
 * faster (`"summary"` 0.7 GB/s, `ummary"` 1.4 GB/s, `-title"` 2.5 GB/s on generated
 * sessions), and values sharing a tail share one search; each match is checked against
 * the whole token.
 */
function searchNeedles(values: string[]): Needle[] {
  const key = values.join('\0');
  let needles = needlesOf.get(key);
  if (!needles) needlesOf.set(key, (needles = makeNeedles(values)));
  return needles;
}

/** A byte string to search for, and the whole tokens a match of it may be part of. */
type Needle = { bytes: Buffer; tokens: { bytes: Buffer; offset: number }[] };
// The needles of each value list, made once: a listing searches thousands of files for the same titles.
const needlesOf = new Map<string, Needle[]>();

function makeNeedles(values: string[]): Needle[] {
  const byNeedle = new Map<string, Needle>();
  for (const v of values) {
    const token = Buffer.from(JSON.stringify(v));
    const hyphen = token.lastIndexOf(0x2d);
    const offset = hyphen >= 0 ? hyphen : Math.min(2, token.length - 2);
    const key = token.subarray(offset).toString('latin1');
    let n = byNeedle.get(key);
    if (!n) byNeedle.set(key, (n = { bytes: token.subarray(offset), tokens: [] }));
    n.tokens.push({ bytes: token, offset });
  }
  return [...byNeedle.values()];
}

/** The offset of the first LF at or after `from`, or the end of the file. */
function lineEndFrom(reader: ChunkReader, from: number): number {
  for (let pos = from; pos < reader.size; ) {
    const chunk = reader.read(pos, CHUNK);
    if (chunk.length === 0) break;
    const i = chunk.indexOf(LF);
    if (i >= 0) return pos + i;
    pos += chunk.length;
  }
  return reader.size;
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
