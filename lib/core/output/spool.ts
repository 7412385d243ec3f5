// A holding area for output that must wait: bytes stay in memory up to a limit, then
// go to a temporary file, so a tool can hold back a whole session's output (to write a
// line that depends on the session's end before it) with memory flat. The file has no
// name once open, so no way of stopping the tool leaves it on disk.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { utf8Scratch } from '../json/utf8-scratch.js';

/**
 * Bytes held in memory before the rest goes to the file. What a session held is garbage
 * once it is written, and outside V8's heap it waits for a full collection, which a tool
 * that makes little garbage on the heap runs seldom: tx-common --jobs 2 on the 16 parts of
 * the 200 MB corpus peaked at 158-172 MB with 4 MB here, 139-149 MB with 1 MB, no slower
 * (a session of more than 1 MB of output is written to the file and read back once).
 */
const MEMORY_LIMIT = 1024 * 1024;
const PIECE = 64 * 1024;

/** Bytes held back in order, readable again from any offset. */
export class Spool {
  private parts: Buffer[] = [];
  /** Where each part starts (parts are held in memory only until the first spill). */
  private starts: number[] = [];
  private memory = 0;
  private dir: string | null = null;
  private fd: number | null = null;
  /** Bytes in parts (or in the file). */
  private held = 0;
  /**
   * Small writes gather in a chunk, strings encoded in place, and become one part when it
   * fills: one buffer (and, once spilled, one write to the file) per 64 KB, not per write.
   * Bytes from `from` to `fill` are not yet in a part.
   */
  private chunk: Buffer | null = null;
  private from = 0;
  private fill = 0;

  constructor(private readonly memoryLimit = MEMORY_LIMIT) {}

  /** Bytes held in all. */
  get size(): number {
    return this.held + this.fill - this.from;
  }

  /** Add bytes at the end. */
  write(data: Buffer | string): void {
    // A string's UTF-8 takes at most 3 bytes per UTF-16 unit.
    const most = typeof data === 'string' ? data.length * 3 : data.length;
    if (this.chunk === null || most > this.chunk.length - this.fill) {
      this.commit();
      if (most > PIECE / 4) {
        this.keep(typeof data === 'string' ? this.encoded(data) : data);
        return;
      }
      if (this.chunk === null || most > this.chunk.length - this.fill) {
        this.chunk = Buffer.allocUnsafe(PIECE);
        this.from = this.fill = 0;
      }
    }
    if (typeof data === 'string') this.fill += this.chunk.write(data, this.fill);
    else this.fill += data.copy(this.chunk, this.fill);
    // Memory holds no more than its limit, pending bytes included: past it, they go to the file.
    if (this.fd === null && this.memory + this.fill - this.from > this.memoryLimit) this.commit();
  }

  /**
   * A long string's UTF-8. Once the parts are in the file, a part is written at once and
   * not kept, so the string goes through the shared scratch buffer (utf8Scratch); in
   * memory, the part is kept, so it gets a buffer of its own.
   */
  private encoded(text: string): Buffer {
    return this.fd === null ? Buffer.from(text) : utf8Scratch(text);
  }

  /** The chunk's bytes not yet in a part become one. */
  private commit(): void {
    if (this.chunk === null || this.fill === this.from) return;
    this.keep(this.chunk.subarray(this.from, this.fill));
    // A part in memory is the chunk's bytes, so the chunk goes on after it; once the parts
    // are in the file, the whole chunk is free again.
    if (this.fd === null) this.from = this.fill;
    else this.from = this.fill = 0;
  }

  private keep(buf: Buffer): void {
    if (this.fd === null && this.memory + buf.length <= this.memoryLimit) {
      // A view into a larger buffer not ours (a line of input, say) is copied: held, it would keep all of it.
      this.parts.push(buf.length < buf.buffer.byteLength && buf.buffer !== this.chunk?.buffer ? Buffer.from(buf) : buf);
      this.starts.push(this.held);
      this.memory += buf.length;
      this.held += buf.length;
      return;
    }
    this.held += buf.length;
    if (this.fd === null) {
      this.dir = mkdtempSync(path.join(tmpdir(), 'txcript-'));
      this.fd = openSync(path.join(this.dir, 'spool'), 'w+');
      // Unlinked as soon as it is open: the open descriptor keeps the bytes, and nothing is
      // left behind however the process ends (a signal, a crash, kill -9).
      try {
        rmSync(this.dir, { recursive: true, force: true });
        this.dir = null;
      } catch {
        // A system that cannot remove an open file: clear() removes it.
      }
      for (const part of this.parts) writeAll(this.fd, part);
      this.parts = [];
      this.starts = [];
      this.memory = 0;
    }
    writeAll(this.fd, buf);
  }

  /** The held bytes from `from` on, in pieces of at most 64 KB, each valid until the next is asked for. */
  read(from = 0): Generator<Buffer> {
    return this.range(from, this.size);
  }

  /**
   * The held bytes from `start` to `end`, in pieces of at most 64 KB. Costs what it
   * returns (plus a binary search): a caller reading many small ranges stays linear.
   * Pieces read back from the file share one buffer: a piece is valid until the next
   * one is asked for (callers copy what they keep).
   */
  *range(start: number, end: number): Generator<Buffer> {
    this.commit();
    end = Math.min(end, this.size);
    if (start >= end) return;
    if (this.fd === null) {
      let lo = 0;
      let hi = this.starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.starts[mid] <= start) lo = mid;
        else hi = mid - 1;
      }
      for (let i = lo; i < this.parts.length && this.starts[i] < end; i++) {
        const part = this.parts[i];
        const from = Math.max(0, start - this.starts[i]);
        const to = Math.min(part.length, end - this.starts[i]);
        for (let at = from; at < to; at += PIECE) yield part.subarray(at, Math.min(to, at + PIECE));
      }
      return;
    }
    const buf = Buffer.allocUnsafe(Math.min(PIECE, end - start));
    for (let at = start; at < end; ) {
      const got = readSync(this.fd, buf, 0, Math.min(buf.length, end - at), at);
      if (got <= 0) return;
      yield buf.subarray(0, got);
      at += got;
    }
  }

  /** Forget everything held and remove the temporary file. */
  clear(): void {
    this.parts = [];
    this.starts = [];
    this.memory = 0;
    this.held = 0;
    this.chunk = null;
    this.from = this.fill = 0;
    if (this.fd !== null) closeSync(this.fd);
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
    this.fd = null;
    this.dir = null;
  }
}

function writeAll(fd: number, buf: Buffer): void {
  for (let at = 0; at < buf.length; ) at += writeSync(fd, buf, at);
}
