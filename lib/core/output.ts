// The writer every tool uses for stdout: batches small writes, cuts large ones into
// pieces of at most 64 KB (bigger writes into a pipe keep the stages of a pipeline
// from overlapping), waits for 'drain', and turns EPIPE into a quiet stop.
import type { Writable } from 'node:stream';

const PIECE = 64 * 1024;

/** Thrown by Output.write once the reader has gone away (EPIPE); run() ends quietly on it. */
export class BrokenPipe extends Error {
  constructor() {
    super('broken pipe');
  }
}

/** A buffered, backpressure-respecting writer over a Writable. */
export class Output {
  private parts: Buffer[] = [];
  private size = 0;
  private closed = false;
  private failure: Error | null = null;

  constructor(private readonly stream: Writable) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      this.closed = true;
      this.failure = err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED' ? new BrokenPipe() : err;
    });
  }

  /** Queue bytes or text; flushes when 64 KB have gathered. */
  async write(data: Buffer | string): Promise<void> {
    if (this.failure) throw this.failure;
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    if (buf.length === 0) return;
    this.parts.push(buf);
    this.size += buf.length;
    if (this.size >= PIECE) await this.flush();
  }

  /** Write one NDJSON line: a JSON value followed by a newline. */
  async writeJson(value: unknown): Promise<void> {
    await this.write(JSON.stringify(value) + '\n');
  }

  /** Push everything queued to the stream, in pieces of at most 64 KB. */
  async flush(): Promise<void> {
    if (this.size === 0) return;
    const all = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    for (let i = 0; i < all.length; i += PIECE) {
      if (this.failure) throw this.failure;
      if (this.closed) throw new BrokenPipe();
      const ok = this.stream.write(all.subarray(i, i + PIECE));
      if (!ok) await this.drained();
    }
  }

  /** Flush and wait until the stream has taken everything. */
  async end(): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
    if (this.stream.writableNeedDrain) await this.drained();
  }

  private drained(): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        this.stream.off('close', done);
        if (this.failure) reject(this.failure);
        else resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
      this.stream.on('close', done);
    });
  }
}
