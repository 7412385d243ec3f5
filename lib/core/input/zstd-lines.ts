// Physical lines of a zstd-compressed file (Codex keeps old rollouts as
// `.jsonl.zst`), decompressed a chunk at a time so a scan that stops early reads
// only the head. fzstd is a small pure-JavaScript decoder: Node 20 has no zstd.
import { closeSync, readSync } from 'node:fs';
import { Decompress } from 'fzstd';
import type { ReadCounter } from './file-lines.js';
import { openRegular } from './regular-file.js';

const CHUNK = 64 * 1024;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Every line of a zstd file in order (LF split, CR and a first-line BOM dropped); the file
 * closes when the loop ends. Throws NotRegularFile for a FIFO or a device (which would hang or never end).
 */
export function* zstdFileLines(file: string, counter?: ReadCounter): Generator<Buffer> {
  const { fd } = openRegular(file);
  if (counter) counter.files++;
  let out: Buffer[] = [];
  const decoder = new Decompress((data) => {
    out.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  });
  let pending: Buffer = Buffer.alloc(0);
  let first = true;
  const trim = (line: Buffer): Buffer => {
    if (first && line.length >= 3 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    first = false;
    return line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, line.length - 1) : line;
  };
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (counter) counter.bytes += n;
      // push copies what it keeps; the last push (n = 0) flushes the decoder.
      decoder.push(n > 0 ? Uint8Array.prototype.slice.call(buf, 0, n) : new Uint8Array(0), n === 0);
      const produced = out;
      out = [];
      for (const piece of produced) {
        let data = pending.length > 0 ? Buffer.concat([pending, piece]) : piece;
        let start = 0;
        for (let nl = data.indexOf(LF); nl >= 0; nl = data.indexOf(LF, start)) {
          yield trim(data.subarray(start, nl));
          start = nl + 1;
        }
        pending = Buffer.from(data.subarray(start));
        data = pending;
      }
      if (n === 0) break;
    }
    if (pending.length > 0) yield trim(pending);
  } finally {
    closeSync(fd);
  }
}
