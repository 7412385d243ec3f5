// One large file read on several workers: cut into parts at line boundaries, each
// part read as if it were the file (a tool says it may be, with `parallel.parts`:
// tx-parse, whose records each depend on one line), and the outputs written in order.
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

/** The smallest part worth a worker of its own (8 MiB, or TX_PART_MIN bytes): below it, starting one costs more than it saves. */
export const PART_MIN = partMin();

function partMin(): number {
  const v = Number(process.env.TX_PART_MIN);
  return Number.isInteger(v) && v > 0 ? v : 8 * 1024 * 1024;
}

const LF = 0x0a;
const CHUNK = 1024 * 1024;

/**
 * `file` cut into at most `jobs` parts of about equal size (none smaller than PART_MIN),
 * each ending just past a newline; null when it is not a regular file or too small to
 * cut (it is then read as it always is, and any problem with it reported there). The
 * parts cover the file as it is now: what is appended while they are read is not read.
 */
export function fileParts(file: string, jobs: number): FilePart[] | null {
  let opened: { fd: number; size: number };
  try {
    // Looked at before it is opened: opening a FIFO, even to close it at once, would let
    // its writer in while nobody reads, and it would lose what it writes.
    const st = statSync(file);
    if (!st.isFile() || st.size < 2 * PART_MIN) return null;
    opened = openRegular(file);
  } catch {
    return null;
  }
  const { fd, size } = opened;
  try {
    const count = Math.min(jobs, Math.floor(size / PART_MIN));
    if (count < 2) return null;
    const buf = Buffer.allocUnsafe(CHUNK);
    const parts: FilePart[] = [];
    let start = 0;
    let lines = 0;
    for (let k = 1; k < count; k++) {
      // Count the newlines up to the nominal cut, then go on to the next newline and cut after it.
      const nominal = Math.max(start + 1, Math.floor((size * k) / count));
      let pos = start;
      let cut = -1;
      let linesIn = 0;
      while (pos < size && cut < 0) {
        const got = readSync(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
        if (got === 0) break;
        const chunk = buf.subarray(0, got);
        for (let i = chunk.indexOf(LF); i >= 0; i = chunk.indexOf(LF, i + 1)) {
          linesIn++;
          if (pos + i + 1 >= nominal) {
            cut = pos + i + 1;
            break;
          }
        }
        pos += got;
      }
      // No newline after the nominal cut, or it is the end: what is left is one part.
      if (cut < 0 || cut >= size) break;
      parts.push({ start, end: cut, linesBefore: lines });
      lines += linesIn;
      start = cut;
    }
    parts.push({ start, end: size, linesBefore: lines });
    return parts.length > 1 ? parts : null;
  } finally {
    closeSync(fd);
  }
}
