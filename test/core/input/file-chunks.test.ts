// reusedChunks: a regular file read in place of its read stream gives the same bytes
// (a range too), in chunks of one reused buffer, and closes the file; anything else is
// the stream itself.
import { createReadStream, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import t from 'tap';
import { reusedChunks } from '../../../lib/core/input/file-chunks.js';

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

t.test('files read one after another share one buffer; a file read while another is open gets its own', async (t) => {
  const { openSync } = await import('node:fs');
  const open = () => reusedChunks(createReadStream('', { fd: openSync(file, 'r') }));
  const first = await collect(open());
  const second = await collect(open());
  t.ok(second.all.equals(bytes), 'the second file is read whole');
  t.equal(second.buffers.size, 1);
  t.ok(second.buffers.has([...first.buffers][0]), 'the second file is read into the first one\'s buffer');
  const outer = (open() as Iterable<Buffer>)[Symbol.iterator]();
  const a = outer.next().value as Buffer;
  const mark = Buffer.from(a.subarray(0, 64));
  const inner = await collect(open());
  t.ok(inner.all.equals(bytes), 'the inner file is read whole');
  t.notOk(inner.buffers.has(a.buffer), 'the inner file has a buffer of its own');
  t.ok(a.subarray(0, 64).equals(mark), 'the outer file\'s chunk is untouched by the inner read');
  const rest = await collect({ [Symbol.iterator]: () => outer });
  t.ok(Buffer.concat([mark, a.subarray(64), rest.all]).equals(bytes), 'the outer file goes on where it was');
});

t.test('a range (a part of a file): from start to end inclusive, as the stream would read it', async (t) => {
  const { openSync } = await import('node:fs');
  const stream = createReadStream('', { fd: openSync(file, 'r'), start: 1000, end: 2 * 1024 * 1024 + 4 });
  const { all } = await collect(reusedChunks(stream));
  t.ok(all.equals(bytes.subarray(1000, 2 * 1024 * 1024 + 5)));
});

t.test('a read size: chunks of at most that many bytes in a buffer of that size; the next file of another size gets its own', async (t) => {
  const { openSync } = await import('node:fs');
  const open = (size?: number) => reusedChunks(createReadStream('', { fd: openSync(file, 'r') }), size);
  const sizes: number[] = [];
  const small = await collect(
    (function* () {
      for (const c of open(256 * 1024) as Iterable<Buffer>) {
        sizes.push(c.length);
        yield c;
      }
    })(),
  );
  t.ok(small.all.equals(bytes), 'every byte, in order');
  t.equal(Math.max(...sizes), 256 * 1024, 'no chunk larger than the read size');
  t.equal(sizes.length, Math.ceil(bytes.length / (256 * 1024)), 'as many reads as the size takes');
  const whole = await collect(open());
  t.ok(whole.all.equals(bytes), 'the next file, at the default size, is read whole');
  t.notOk(whole.buffers.has([...small.buffers][0]), 'into a buffer of its own size, not the smaller one');
});

t.test('a stream that is not of a file is given back as it is', async (t) => {
  const p = new PassThrough();
  t.equal(reusedChunks(p), p);
});

t.test('without a start, reading goes on from the descriptor\'s offset, as the stream would (stdin from a file read in part)', async (t) => {
  const { openSync, readSync } = await import('node:fs');
  const fd = openSync(file, 'r');
  readSync(fd, Buffer.alloc(12345), 0, 12345, null);
  const { all } = await collect(reusedChunks(createReadStream('', { fd })));
  t.ok(all.equals(bytes.subarray(12345)), 'the bytes after what was read already');
});

t.test('tx-parse with stdin a file another program read in part reads the rest', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const two = path.join(dir, 'two.jsonl');
  writeFileSync(two, '{"type":"summary","summary":"one"}\n{"type":"summary","summary":"two"}\n');
  const { repo } = await import('../../helpers.js');
  const r = spawnSync('sh', ['-c', `(head -c 35 > /dev/null; "${process.execPath}" "${repo('build', 'bin', 'tx-parse.js')}") < "${two}"`], { encoding: 'utf8' });
  t.equal(r.stdout, '{"harness":"claude-code","n":1,"kind":"summary","line":{"type":"summary","summary":"two"}}\n');
});

t.test('a named file (whole or a part) is closed as its last chunk is read, not later on the thread pool (each such close woke a pool thread in --jobs runs)', async (t) => {
  const { fstatSync } = await import('node:fs');
  const { namedFileStream } = await import('../../../lib/core/input/input-streams.js');
  for (const part of [undefined, { start: 100, end: 5000 }]) {
    const stream = namedFileStream(file, part as never);
    const fd = (stream as unknown as { fd: number }).fd;
    t.ok(fstatSync(fd).isFile(), 'open while it is read');
    const source = reusedChunks(stream) as Iterable<Buffer>;
    let n = 0;
    // Read without awaiting: nothing of the event loop or the thread pool runs before the check.
    for (const c of source) n += c.length;
    t.equal(n, part ? 4900 : bytes.length, 'every byte read');
    t.throws(() => fstatSync(fd), { code: 'EBADF' }, `${part ? 'a part' : 'the whole file'}: the descriptor is closed at once`);
  }
});

t.test('the main thread reads 1 MB at a time; a worker 256 KB (what it made of 1 MB of lines outlived its young generation)', async (t) => {
  const sizes = (chunks: Iterable<Buffer> | AsyncIterable<Buffer>) => {
    const seen: number[] = [];
    for (const c of chunks as Iterable<Buffer>) seen.push(c.length);
    return seen;
  };
  t.same(sizes(reusedChunks(createReadStream('', { fd: openSync(file, 'r') }))), [1048576, 1048576, 1048576, 17], 'main thread: 1 MB reads');
  const { Worker } = await import('node:worker_threads');
  const url = new URL('../../../lib/core/input/file-chunks.js', import.meta.url).href;
  const code = `import { parentPort, workerData } from 'node:worker_threads';
    import { createReadStream, openSync } from 'node:fs';
    const { reusedChunks } = await import(workerData.url);
    const seen = [];
    for (const c of reusedChunks(createReadStream('', { fd: openSync(workerData.file, 'r') }))) seen.push(c.length);
    parentPort.postMessage(seen);`;
  const onWorker = await new Promise<number[]>((resolve, reject) => {
    const w = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { workerData: { url, file } });
    w.once('message', resolve);
    w.once('error', reject);
  });
  t.equal(onWorker.length, 13, 'a worker: 12 full reads and the rest');
  t.same(new Set(onWorker.slice(0, 12)), new Set([262144]), 'each 256 KB');
  t.equal(onWorker[12], 17);
});
