// The chunks of an input for a reader that is done with each chunk before it asks for
// the next (tx-parse copies every line it keeps; tx-stats, tx-filter's record mode and
// tx-native keep nothing of a line once its batch is done). A regular file is read with
// synchronous reads into one buffer used again and again: a read stream makes a new
// buffer per read, and on worker threads memory freed that way stays with the
// thread's allocator, so the peak grows with the number of workers. Standard input
// that is a pipe is read the same way (pipe-input.ts); anything else (a named FIFO, a
// terminal) is read as the stream it is.
import { fstatSync, readSync, ReadStream } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import type { Readable } from 'node:stream';
import { REUSED_READS, type ReusableStream } from './pipe-input.js';

/** Bytes per read of a regular file on the main thread. */
const CHUNK = 1024 * 1024;
/**
 * Bytes per read on a worker thread (workers.ts). A worker's young generation is small
 * (8 MB), and a batch of 1 MB of lines, with what the tool makes of them, outlived a
 * collection there: it was promoted and waited for full collections of the old
 * generation (tx-filter on a 200 MB file, one worker, young and full collections: 222
 * and 6 with 4 MB and 1 MB reads, 114 and 5 with 8 MB, 114 and 1 with 8 MB and 256 KB
 * reads). tx-common read this way first (on 2,500 store files, --jobs 2: 151-157 ->
 * 138-142 MB).
 */
const WORKER_CHUNK = 256 * 1024;

/** A stream's way to close its descriptor at once, where it has one (run.ts's named files); else the stream closes it when destroyed. */
export const CLOSE_NOW = Symbol('close now');
/**
 * The buffer of the last file read to its end, for the next one: a store of 1,000 files
 * read on one thread peaks at 91 MB instead of 105-111 MB, where a new 1 MB buffer per
 * file left the allocator holding freed ones. A file read while another is open gets its own.
 */
let spare: Buffer | null = null;

/**
 * The input's bytes in chunks; a chunk of a regular file is only valid until the next
 * one is asked for (the caller copies what it keeps).
 */
export function reusedChunks(stream: Readable, readSize = isMainThread ? CHUNK : WORKER_CHUNK): AsyncIterable<Buffer> | Iterable<Buffer> {
  // Standard input that is a pipe, not yet read: blocking reads into one buffer too.
  const piped = (stream as ReusableStream)[REUSED_READS]?.();
  if (piped) return piped;
  const fd = stream instanceof ReadStream ? (stream as ReadStream & { fd?: unknown }).fd : undefined;
  if (typeof fd !== 'number') return stream as AsyncIterable<Buffer>;
  try {
    if (!fstatSync(fd).isFile()) return stream as AsyncIterable<Buffer>;
  } catch {
    return stream as AsyncIterable<Buffer>;
  }
  return fileChunks(stream as ReadStream, fd, readSize);
}

/** The chunks come from a regular file (never a live source: nothing more is written to it while it is read). */
export function readsRegularFile(chunks: unknown): boolean {
  return regularFileReads.has(chunks as object);
}

const regularFileReads = new WeakSet<object>();

function fileChunks(stream: ReadStream, fd: number, readSize: number): Generator<Buffer> {
  const chunks = readFile(stream, fd, readSize);
  regularFileReads.add(chunks);
  return chunks;
}

function* readFile(stream: ReadStream, fd: number, readSize: number): Generator<Buffer> {
  // A stream with a start reads from there (a part of a file; its `end` is inclusive);
  // one without reads on from the descriptor's own offset, as the stream would (stdin
  // redirected from a file may have been read in part already: `(head -1; tx-parse) < f`).
  const s = stream as ReadStream & { start?: number; end?: number };
  let pos: number | null = typeof s.start === 'number' ? s.start : null;
  const end = typeof s.end === 'number' && s.end !== Infinity ? s.end + 1 : Infinity;
  const buf = spare !== null && spare.length === readSize ? spare : Buffer.allocUnsafe(readSize);
  spare = null;
  try {
    for (;;) {
      const want = pos === null ? readSize : Math.min(readSize, end - pos);
      if (want <= 0) break;
      const got = readSync(fd, buf, 0, want, pos);
      if (got === 0) break;
      if (pos !== null) pos += got;
      yield buf.subarray(0, got);
    }
  } finally {
    // A named file's stream closes its descriptor now; destroying the stream closes any
    // other it owns (not stdin's, which it does not own).
    (stream as ReadStream & { [CLOSE_NOW]?: () => void })[CLOSE_NOW]?.();
    stream.destroy();
    spare = buf;
  }
}
