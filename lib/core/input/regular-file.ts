// The one way a tool opens a file it found itself (a subagent transcript, a .meta.json,
// a session of a store, the plugin registry): as a regular file, bounded. A FIFO, a
// device or a symbolic link to one (/dev/zero) would hang a read or never end, so the
// file is opened without blocking (O_NONBLOCK: opening a FIFO with no writer returns
// at once), checked with fstat on the open descriptor (no race with a swap after a
// stat), and refused unless it is a regular file.
import { closeSync, constants, createReadStream, fstatSync, openSync, readSync, type ReadStream, type Stats } from 'node:fs';

/** A file that is there but is not a regular file (a FIFO, a device, a socket, a directory). */
export class NotRegularFile extends Error {
  readonly code = 'ENOTREG';
}

/** A file larger than its reader allows. */
export class FileTooLarge extends Error {
  readonly code = 'EFBIG';
}

/** What a file that is not a regular file is, for a message. */
export function fileKind(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'something else';
}

/** Open `file` for reading if it is a regular file (symbolic links followed); returns the descriptor and its size. */
export function openRegular(file: string): { fd: number; size: number } {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NotRegularFile(`${fileKind(st)}, not a regular file`);
    return { fd, size: st.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** The whole of a small regular file, refused when larger than `limit` bytes. */
export function readSmallFile(file: string, limit: number): Buffer {
  const { fd, size } = openRegular(file);
  try {
    if (size > limit) throw new FileTooLarge(`larger than ${limit} bytes`);
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** A read stream of a regular file (throws NotRegularFile, or the open's own error, at once). */
export function regularReadStream(file: string, highWaterMark = 1 << 20): ReadStream {
  const { fd } = openRegular(file);
  return createReadStream('', { fd, highWaterMark });
}
