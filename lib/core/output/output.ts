// The writer every tool uses for stdout: gathers output into 64 KB pieces (bigger
// writes into a pipe keep the stages of a pipeline from overlapping), waits for
// 'drain', turns EPIPE into a quiet stop and any other failed write into OutputFailed.
// Hot loops append synchronously (`push`, `pushText`) and await `flushIfFull()` once
// per batch of input lines, so a record costs a copy, not a promise. Standard output
// that is not a terminal (a pipe, a socket, a file) is written as cat writes it: each
// piece with a blocking write the moment it fills (see Descriptor), and the piece is
// then filled again, as it is once a worker's Copier has copied it.
import { writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { describeError } from '../fs-error.js';
import { signalsHandled } from '../install/interrupt.js';
import { widenPipe } from './pipe-size.js';
import { stringifyJson } from '../json/json-text.js';
import { utf8Scratch } from '../json/utf8-scratch.js';

/** The largest piece handed to the stream in one write. */
export const PIECE = 64 * 1024;

/** Thrown by Output.write once the reader has gone away (EPIPE); run() ends quietly on it. */
export class BrokenPipe extends Error {
  constructor() {
    super('broken pipe');
  }
}

/** Thrown by Output once a write failed for another reason (a full disk): run() says it and exits 1. */
export class OutputFailed extends Error {
  constructor(cause: unknown) {
    super(`cannot write the output: ${describeError(cause)}`, { cause });
  }
}

/** The failure a write error stands for: a quiet stop for a reader gone away, else OutputFailed. */
function failureOf(err: NodeJS.ErrnoException): Error {
  return err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED' ? new BrokenPipe() : new OutputFailed(err);
}

/**
 * A descriptor to write with blocking writes, and the stream to fall back on. Node
 * writes a pipe from its event loop, so a stage that works a 1 MB batch at a time hands
 * the next stage nothing until the batch is done, and the two take turns instead of
 * overlapping. A blocking write of each 64 KB piece as it fills keeps the pipe full;
 * when the next stage is slower, the wait is the pipe's own. Node's stream is used
 * from the first write that would block the wrong way: a descriptor made non-blocking
 * (EAGAIN), or a signal handler installed (a blocked write would hold it back).
 */
export interface Descriptor {
  fd: number;
  /** The descriptor is a pipe: made larger (pipe-size.ts) when the first full piece is written. */
  pipe?: boolean;
  /** The stream of the same descriptor (made only when it is needed: making it makes the descriptor non-blocking). */
  stream(): Writable;
}

/**
 * Where a worker's output goes (serve-files.ts): each piece is copied into the
 * batch for the main thread at once, so the piece is filled again instead of a new one
 * being made; `room()` is the wait for the main thread to take batches (null: none).
 */
export interface Copier {
  copy(piece: Buffer): void;
  room(): Promise<void> | null;
}

/** A buffered, backpressure-respecting writer over a Writable, a Descriptor or a Copier. */
export class Output {
  /** Full pieces waiting for the stream. */
  private ready: Buffer[] = [];
  /** The piece being filled, and how much of it is used. */
  private slab: Buffer = Buffer.allocUnsafe(PIECE);
  private used = 0;
  private closed = false;
  private failure: Error | null = null;
  /** The descriptor written with blocking writes, until it falls back on the stream. */
  private fd: number | null = null;
  private sink: Writable | null = null;
  private copier: Copier | null = null;
  /** The descriptor is a pipe (made larger at the first full piece: pipe-size.ts). */
  private pipe = false;

  constructor(private readonly target: Writable | Descriptor | Copier) {
    if (typeof (target as Copier).copy === 'function') this.copier = target as Copier;
    else if (typeof (target as Descriptor).stream === 'function') {
      this.fd = (target as Descriptor).fd;
      this.pipe = (target as Descriptor).pipe === true;
    } else this.listen(target as Writable);
  }

  private get stream(): Writable {
    if (!this.sink) this.listen((this.target as Descriptor).stream());
    return this.sink!;
  }

  private listen(stream: Writable): void {
    this.sink = stream;
    stream.on('error', (err: NodeJS.ErrnoException) => {
      this.closed = true;
      this.failure = failureOf(err);
    });
  }

  /** Bytes appended and not yet handed to the stream. */
  get pending(): number {
    return this.ready.length * PIECE + this.used;
  }

  /** Append bytes without writing; call flushIfFull() soon after. */
  push(buf: Buffer): void {
    let from = 0;
    while (from < buf.length) {
      const n = Math.min(buf.length - from, PIECE - this.used);
      buf.copy(this.slab, this.used, from, from + n);
      this.used += n;
      from += n;
      if (this.used === PIECE) this.seal();
    }
  }

  /** Append text as UTF-8 without writing; call flushIfFull() soon after. */
  pushText(text: string): void {
    // Short text is encoded straight into the piece when it surely fits (3 bytes per UTF-16 unit at most).
    if (text.length * 3 <= PIECE - this.used) {
      this.used += this.slab.write(text, this.used);
      if (this.used === PIECE) this.seal();
      return;
    }
    // Longer text is encoded into the shared scratch buffer and copied: a buffer of its
    // own per text would be fresh memory for every long line.
    this.push(utf8Scratch(text));
  }

  /** Hand the full pieces to the stream when at least one is waiting. */
  async flushIfFull(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.ready.length > 0) await this.writeReady();
    else if (this.copier) {
      // Awaited only when there is a wait: an await of nothing still costs a turn per record.
      const wait = this.copier.room();
      if (wait) await wait;
    }
  }

  /** Queue bytes or text; flushes when 64 KB have gathered. */
  async write(data: Buffer | string): Promise<void> {
    if (this.failure) throw this.failure;
    if (typeof data === 'string') this.pushText(data);
    else this.push(data);
    return this.flushIfFull();
  }

  /** Write one NDJSON line: a JSON value (of any depth) followed by a newline. */
  async writeJson(value: unknown): Promise<void> {
    if (this.failure) throw this.failure;
    // The newline is pushed on its own: `json + '\n'` would be copied whole before it is encoded.
    this.pushText(stringifyJson(value));
    this.pushText('\n');
    return this.flushIfFull();
  }

  /** Push everything queued to the stream, in pieces of at most 64 KB. */
  async flush(): Promise<void> {
    if (this.used > 0) this.seal();
    if (!this.copier) await this.writeReady();
    else await this.copier.room();
  }

  /** Flush and wait until the stream has taken everything. */
  async end(): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
    if (this.sink?.writableNeedDrain) await this.drained();
  }

  private seal(): void {
    const piece = this.slab;
    const filled = this.used === PIECE ? piece : piece.subarray(0, this.used);
    this.used = 0;
    // A piece copied or written already (a blocking write is done with it) is filled
    // again; otherwise a new one is made, as the stream may still hold the last. Memory
    // freed by a thread stays with it until its next collection, which a thread that
    // makes few objects is slow to reach: a new piece per 64 KB had the main thread of a
    // --jobs run hold some 30 MB more.
    if (this.copier) return this.copier.copy(filled);
    this.ready.push(filled);
    // widenPipe acts once per descriptor; later calls return at once.
    if (this.pipe && this.fd !== null && filled.length === PIECE) widenPipe(this.fd, false);
    if (this.fd !== null) this.writeBlocking();
    if (this.fd === null || this.ready.length > 0) this.slab = Buffer.allocUnsafe(PIECE);
  }

  /** Write the waiting pieces to the descriptor, each whole before the next; on a write that must not block, leave the rest to the stream. */
  private writeBlocking(): void {
    while (this.fd !== null && this.ready.length > 0 && !this.failure) {
      if (signalsHandled()) {
        this.fd = null;
        return;
      }
      const piece = this.ready[0];
      let done = 0;
      try {
        while (done < piece.length) done += writeSync(this.fd, piece, done);
        this.ready.shift();
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (done > 0) this.ready[0] = piece.subarray(done);
        if (e.code === 'EAGAIN') this.fd = null;
        else {
          this.closed = true;
          this.failure = failureOf(e);
          // Nothing more can be written: what is pushed until the tool hears of it is dropped.
          this.ready = [];
        }
      }
    }
  }

  private async writeReady(): Promise<void> {
    if (this.fd !== null) this.writeBlocking();
    if (this.failure) this.ready = [];
    while (this.ready.length > 0) {
      if (this.failure) throw this.failure;
      if (this.closed) throw new BrokenPipe();
      const piece = this.ready.shift()!;
      const ok = this.stream.write(piece);
      if (!ok) await this.drained();
    }
    if (this.failure) throw this.failure;
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
