// The streams a tool reads: stdin (a file read in large chunks, a pipe with blocking
// reads) and the files named on the command line, each closed as soon as it is read.
import { closeSync, createReadStream, fstatSync, open, openSync, read } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Proc } from '../tool.js';
import { CLOSE_NOW } from './file-chunks.js';
import type { FilePart } from './file-parts.js';
import { blockingReadStream } from './pipe-input.js';

/**
 * Bytes per read of a file. A line a tool holds (a record being converted, a line being
 * scanned) keeps its whole read buffer alive: with 1 MB reads tx-redact peaked at
 * 147-152 MB on the 50 MB corpus, tx-common at 143 MB and with two workers 172 MB; with
 * 256 KB reads at 101-109, 125 and 137 MB, no slower. tx-parse reads a file into a
 * buffer of its own (file-chunks.ts).
 */
const READ_SIZE = 256 * 1024;

/**
 * The stream of stdin. When the process's stdin is a regular file (`tx-parse < f`) it is
 * read in chunks of READ_SIZE, as a named file is, from where its offset stands: node's
 * own stdin stream reads a file 64 KB at a time, and each chunk costs a turn of the loop.
 * A pipe or a socket is read with blocking reads (pipe-input.ts), and a pipe made larger
 * once it shows much data passing (pipe-size.ts).
 */
export function stdinStream(proc: Proc): Readable {
  if (proc !== (process as unknown)) return proc.stdin;
  try {
    const stat = fstatSync(0);
    if (stat.isFile()) return createReadStream('', { fd: 0, highWaterMark: READ_SIZE, autoClose: false });
    // Not made until it is needed: making node's stream makes the descriptor non-blocking.
    if (stat.isFIFO() || stat.isSocket()) return blockingReadStream(0, () => proc.stdin, stat.isFIFO());
  } catch {
    // No descriptor 0 to look at: node's stream says what is wrong when read.
  }
  return proc.stdin;
}

/**
 * A named file's stream, whose descriptor is closed at once, once: when the last chunk is
 * read (CLOSE_NOW, before the stream has even finished being made), or when the stream is
 * destroyed. A read stream closes it on the thread pool, and waking a pool thread for each
 * file of a --jobs run took a busy core from a worker: 0.12-0.17 ms a file there, against
 * 0.015 ms on one thread.
 */
function closingAtOnce(fd: number, options: { start?: number; end?: number }): Readable {
  let closed = false;
  const closeNow = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  const close = (_fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
    try {
      closeNow();
    } catch (err) {
      return done(err as NodeJS.ErrnoException);
    }
    done(null);
  };
  const stream = createReadStream('', { ...options, fd, highWaterMark: READ_SIZE, fs: { open, read, close } });
  return Object.assign(stream, { [CLOSE_NOW]: closeNow });
}

/** A read stream of a file named on the command line; throws, with a message to show, when it cannot be opened or is a directory. */
export function namedFileStream(name: string, part?: FilePart): Readable {
  const fd = openSync(name, 'r');
  if (fstatSync(fd).isDirectory()) {
    closeSync(fd);
    throw new Error('a directory, not a file');
  }
  // A part's end is exclusive, a read stream's inclusive.
  return closingAtOnce(fd, part ? { start: part.start, end: part.end - 1 } : {});
}
