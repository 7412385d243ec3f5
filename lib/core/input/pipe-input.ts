// Standard input that is a pipe or a socket, read with blocking reads as cat reads it.
// Node reads a pipe from its event loop, a turn for every 64 KB, and each turn costs
// more than the read; a blocking read costs the read. Nothing is read ahead: a read
// happens when the reader asks for the next chunk, after it has written out what the
// last one gave, so a live pipeline (tx-parse -f | tx-filter) shows each line as it
// comes. Node's own stream takes over from the first read that would block the wrong
// way: a descriptor made non-blocking (EAGAIN), or a signal handler installed (a
// blocked read would hold it back until input came).
import { readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { signalsHandled } from '../install/interrupt.js';
import { widenPipe } from '../output/pipe-size.js';

/**
 * Chunks are read into slabs of 256 KB, at most 64 KB a read (a pipe's size unless it is
 * made larger); a new slab when less than that is left. A larger pipe read whole would
 * give chunks of 256 KB, and a tool's batch of records per chunk grows with them:
 * `tx-parse f | tx-common` peaked at 126 MB that way against 107 MB.
 */
const SLAB = 256 * 1024;
/** What a pipe holds unless it is made larger. */
const PIPEFUL = 64 * 1024;

/**
 * A stream of descriptor `fd` read with blocking reads, one per chunk asked for;
 * `fallback()` gives node's stream of the same descriptor. With `pipe`, the first read
 * that finds the pipe full (64 KB) makes it larger (pipe-size.ts).
 */
export function blockingReadStream(fd: number, fallback: () => Readable, pipe = false): Readable {
  let slab: Buffer | null = null;
  let used = 0;
  let stream: Readable | null = null;
  let started = false;
  const readable = new Readable({
    highWaterMark: 0,
    read() {
      started = true;
      if (stream) {
        stream.resume();
        return;
      }
      if (!signalsHandled()) {
        if (slab === null || slab.length - used < PIPEFUL) {
          slab = Buffer.allocUnsafe(SLAB);
          used = 0;
        }
        try {
          const got = readSync(fd, slab, used, Math.min(slab.length - used, PIPEFUL), null);
          if (got === 0) this.push(null);
          else {
            // A chunk is the reader's until it asks for the next: the slab's later bytes are never read into it again.
            this.push(slab.subarray(used, used + got));
            used += got;
            // widenPipe acts once per descriptor; later calls return at once.
            if (pipe && got >= PIPEFUL) widenPipe(fd, true);
          }
          return;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') {
            this.destroy(err as Error);
            return;
          }
        }
      }
      stream = fallback();
      stream.on('data', (chunk: Buffer) => {
        if (!this.push(chunk)) stream!.pause();
      });
      stream.on('end', () => this.push(null));
      stream.on('error', (err) => this.destroy(err));
    },
  });
  (readable as ReusableStream)[REUSED_READS] = () => {
    if (started) return null;
    started = true;
    return reusedReads(fd, fallback, pipe);
  };
  return readable;
}

/** A stream that can be read with blocking reads into one buffer used again (for a reader done with each chunk before the next). */
export interface ReusableStream extends Readable {
  /** The chunks read that way, or null once the stream has been read as a stream. */
  [REUSED_READS]?: () => AsyncIterable<Buffer> | null;
}

/** The key under which blockingReadStream offers reusedReads. */
export const REUSED_READS = Symbol('reused reads');

/**
 * The chunks of a pipe read with blocking reads into one buffer, each valid until the next
 * is asked for, where blockingReadStream makes a new slab per 256 KB: memory the process
 * must be given again, page by page, until a collection frees the old slabs. Node's
 * stream takes over as in blockingReadStream.
 */
async function* reusedReads(fd: number, fallback: () => Readable, pipe: boolean): AsyncGenerator<Buffer> {
  // A pipeful a read, as blockingReadStream reads: larger reads made larger batches, and
  // tx-stats' peak grew with them (cat f | tx-stats on 50 MB: 99 MB with 256 KB reads, 81 MB with 64 KB).
  const buf = Buffer.allocUnsafe(PIPEFUL);
  while (!signalsHandled()) {
    let got: number;
    try {
      got = readSync(fd, buf, 0, buf.length, null);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      break;
    }
    if (got === 0) return;
    // widenPipe acts once per descriptor; later calls return at once.
    if (pipe && got >= PIPEFUL) widenPipe(fd, true);
    yield buf.subarray(0, got);
  }
  for await (const chunk of fallback()) yield chunk as Buffer;
}
