// The chunks of an input for a reader that is done with each chunk before it asks for
// the next (tx-parse copies every line it keeps). A regular file is read with
// synchronous reads into one buffer used again and again: a read stream makes a new
// 1 MB buffer per read, and on worker threads memory freed that way stays with the
// thread's allocator, so the peak grows with the number of workers. Anything else (a
// pipe, a FIFO, a terminal) is read as the stream it is.
import { fstatSync, readSync, ReadStream } from 'node:fs';
import type { Readable } from 'node:stream';

const CHUNK = 1024 * 1024;

/**
 * The input's bytes in chunks; a chunk of a regular file is only valid until the next
 * one is asked for (the caller copies what it keeps).
 */
export function reusedChunks(stream: Readable): AsyncIterable<Buffer> | Iterable<Buffer> {
  const fd = stream instanceof ReadStream ? (stream as ReadStream & { fd?: unknown }).fd : undefined;
  if (typeof fd !== 'number') return stream as AsyncIterable<Buffer>;
  try {
    if (!fstatSync(fd).isFile()) return stream as AsyncIterable<Buffer>;
  } catch {
    return stream as AsyncIterable<Buffer>;
  }
  return fileChunks(stream as ReadStream, fd);
}

function* fileChunks(stream: ReadStream, fd: number): Generator<Buffer> {
  // A read stream's `end` is inclusive; none means to the end of the file.
  const s = stream as ReadStream & { start?: number; end?: number };
  let pos = s.start ?? 0;
  const end = s.end === undefined || s.end === Infinity ? Infinity : s.end + 1;
  const buf = Buffer.allocUnsafe(CHUNK);
  try {
    while (pos < end) {
      const got = readSync(fd, buf, 0, Math.min(CHUNK, end - pos), pos);
      if (got === 0) break;
      pos += got;
      yield buf.subarray(0, got);
    }
  } finally {
    // The stream owns the descriptor: destroying it closes it.
    stream.destroy();
  }
}
