// A holding area for output that must wait: bytes stay in memory up to a limit, then
// go to a temporary file, so a tool can hold back a whole session's output (to write a
// line that depends on the session's end before it) with memory flat.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MEMORY_LIMIT = 4 * 1024 * 1024;
const PIECE = 64 * 1024;

/** Bytes held back in order, readable again from any offset. */
export class Spool {
  private parts: Buffer[] = [];
  private memory = 0;
  private dir: string | null = null;
  private fd: number | null = null;
  /** Bytes held in all. */
  size = 0;

  constructor(private readonly memoryLimit = MEMORY_LIMIT) {}

  /** Add bytes at the end. */
  write(data: Buffer | string): void {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    this.size += buf.length;
    if (this.fd === null && this.memory + buf.length <= this.memoryLimit) {
      this.parts.push(buf);
      this.memory += buf.length;
      return;
    }
    if (this.fd === null) {
      this.dir = mkdtempSync(path.join(tmpdir(), 'txcript-'));
      this.fd = openSync(path.join(this.dir, 'spool'), 'w+');
      for (const part of this.parts) writeAll(this.fd, part);
      this.parts = [];
      this.memory = 0;
    }
    writeAll(this.fd, buf);
  }

  /** The held bytes from `from` on, in pieces of at most 64 KB. */
  *read(from = 0): Generator<Buffer> {
    if (this.fd === null) {
      let at = 0;
      for (const part of this.parts) {
        const end = at + part.length;
        if (end > from) yield from > at ? part.subarray(from - at) : part;
        at = end;
      }
      return;
    }
    for (let at = from; at < this.size; ) {
      const buf = Buffer.allocUnsafe(Math.min(PIECE, this.size - at));
      const got = readSync(this.fd, buf, 0, buf.length, at);
      if (got <= 0) return;
      yield buf.subarray(0, got);
      at += got;
    }
  }

  /** The held bytes from `start` to `end`, in pieces of at most 64 KB. */
  *range(start: number, end: number): Generator<Buffer> {
    let size = 0;
    for (const piece of this.read(start)) {
      const want = Math.min(piece.length, end - start - size);
      if (want <= 0) return;
      yield want === piece.length ? piece : piece.subarray(0, want);
      size += want;
    }
  }

  /** A copy of the held bytes from `start` to `end` (a small range: it is built in memory). */
  slice(start: number, end: number): Buffer {
    return Buffer.concat([...this.range(start, end)].map((p) => Buffer.from(p)));
  }

  /** Forget everything held and remove the temporary file. */
  clear(): void {
    this.parts = [];
    this.memory = 0;
    this.size = 0;
    if (this.fd !== null) closeSync(this.fd);
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
    this.fd = null;
    this.dir = null;
  }
}

function writeAll(fd: number, buf: Buffer): void {
  for (let at = 0; at < buf.length; ) at += writeSync(fd, buf, at);
}
