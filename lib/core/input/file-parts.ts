// One large file read on several workers: cut into parts at line boundaries, each
// part read as if it were the file (a tool says it may be, with `parallel.parts`:
// tx-parse, whose records each depend on one line), and the outputs written in order.
// Parts are small and handed out in turn, because a worker may run only a little
// ahead of the part being written (memory stays flat): a part whose records fit in
// that lead is done by the time its turn comes, so every worker keeps busy.
// Each part knows how many lines come before it, so line numbers are the file's own.
import { closeSync, readSync, statSync } from 'node:fs';
import { openRegular } from './regular-file.js';

/** A byte range of a file that starts and ends at line boundaries. */
export interface FilePart {
  /** Offset of the part's first byte (0, or just past a newline). */
  start: number;
  /** Offset just past the part's last byte (just past a newline, or the end of the file). */
  end: number;
  /** Lines of the file before the part: the number of its first line, less one. */
  linesBefore: number;
}

/**
 * The size a part is cut at (the next newline after it ends the part): 512 KiB, or
 * TX_PART_SIZE bytes. Its records fit in the 1 MB a worker may run ahead.
 */
export const PART_SIZE = partSize();

/** Files smaller than this many parts are read on one thread: starting workers would cost more than they save. */
export const CUT_PARTS = 32;

function partSize(): number {
  const v = Number(process.env.TX_PART_SIZE);
  return Number.isInteger(v) && v > 0 ? v : 512 * 1024;
}

const LF = 0x0a;
const CHUNK = 1024 * 1024;

/**
 * `file` cut into parts of at least PART_SIZE bytes, each ending just past a newline
 * (or at the end of the file); null when it is not a regular file or smaller than
 * CUT_PARTS parts (it is then read as it always is, and any problem with it reported
 * there). The parts cover the file as it is now: what is appended later is not read.
 */
export function fileParts(file: string): FilePart[] | null {
  let opened: { fd: number; size: number };
  try {
    // Looked at before it is opened: opening a FIFO, even to close it at once, would let
    // its writer in while nobody reads, and it would lose what it writes.
    const st = statSync(file);
    if (!st.isFile() || st.size < CUT_PARTS * PART_SIZE) return null;
    opened = openRegular(file);
  } catch {
    return null;
  }
  const { fd, size } = opened;
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    const parts: FilePart[] = [];
    let start = 0;
    let lines = 0;
    let linesAtStart = 0;
    for (let pos = 0; pos < size; ) {
      const got = readSync(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
      if (got === 0) break;
      const chunk = buf.subarray(0, got);
      for (let i = chunk.indexOf(LF); i >= 0; i = chunk.indexOf(LF, i + 1)) {
        lines++;
        const end = pos + i + 1;
        if (end - start >= PART_SIZE && end < size) {
          parts.push({ start, end, linesBefore: linesAtStart });
          start = end;
          linesAtStart = lines;
        }
      }
      pos += got;
    }
    parts.push({ start, end: size, linesBefore: linesAtStart });
    return parts.length > 1 ? parts : null;
  } finally {
    closeSync(fd);
  }
}
