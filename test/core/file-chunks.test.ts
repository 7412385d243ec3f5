// reusedChunks: a regular file read in place of its read stream gives the same bytes
// (a range too), in chunks of one reused buffer, and closes the file; anything else is
// the stream itself.
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import t from 'tap';
import { reusedChunks } from '../../lib/core/file-chunks.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tx-chunks-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'f');
const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
writeFileSync(file, bytes);

async function collect(source: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<{ all: Buffer; buffers: Set<ArrayBufferLike> }> {
  const parts: Buffer[] = [];
  const buffers = new Set<ArrayBufferLike>();
  for await (const c of source) {
    buffers.add(c.buffer);
    parts.push(Buffer.from(c));
  }
  return { all: Buffer.concat(parts), buffers };
}

t.test('a whole file: the same bytes, one buffer reused, the stream destroyed', async (t) => {
  const stream = createReadStream('', { fd: (await import('node:fs')).openSync(file, 'r') });
  const source = reusedChunks(stream);
  t.not(source, stream, 'read in place of the stream');
  const { all, buffers } = await collect(source);
  t.ok(all.equals(bytes), 'every byte, in order');
  t.equal(buffers.size, 1, 'all chunks in one buffer');
  t.ok(stream.destroyed, 'the stream (and its descriptor) closed');
});

t.test('a range (a part of a file): from start to end inclusive, as the stream would read it', async (t) => {
  const { openSync } = await import('node:fs');
  const stream = createReadStream('', { fd: openSync(file, 'r'), start: 1000, end: 2 * 1024 * 1024 + 4 });
  const { all } = await collect(reusedChunks(stream));
  t.ok(all.equals(bytes.subarray(1000, 2 * 1024 * 1024 + 5)));
});

t.test('a stream that is not of a file is given back as it is', async (t) => {
  const p = new PassThrough();
  t.equal(reusedChunks(p), p);
});
