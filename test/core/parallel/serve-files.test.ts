// serveFiles(): one worker of a run, driven here through a LocalPort as the main thread
// drives its own share: its credit counts the bytes of output not yet written.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { LocalPort } from '../../../lib/core/parallel/local-channel.js';
import { serveFiles } from '../../../lib/core/parallel/serve-files.js';
import type { FromWorker, ToWorker } from '../../../lib/core/parallel/messages.js';
import { piecesOf } from './pieces-tool.js';

const PIECES = { url: new URL('./pieces-tool.js', import.meta.url).href, name: 'tx-pieces' };

/** A worker on this thread (of `ref`'s tool; `shared`: as the main thread's share), what it said, and a way to wait for it to say something. */
function worker(ref = PIECES, shared = false): { port: LocalPort; heard: FromWorker[]; until(what: string, test: () => boolean): Promise<void> } {
  const [port, theirs] = LocalPort.pair();
  serveFiles(theirs, { ref, args: { _: [] } }, shared);
  const heard: FromWorker[] = [];
  port.on('message', (ms: FromWorker[]) => heard.push(...ms));
  const until = async (what: string, test: () => boolean) => {
    const end = Date.now() + 10_000;
    while (!test()) {
      if (Date.now() > end) throw new Error(`not in 10 s: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return { port, heard, until };
}

const done = (heard: FromWorker[]) => heard.filter((m) => m.type === 'done').length;
const bytesOut = (heard: FromWorker[]) => heard.reduce((n, m) => n + (m.type === 'out' ? m.chunk.byteLength : 0), 0);

t.test('a worker whose files give a line each runs on through them, none of their output written yet (the credit counts bytes, not batches)', async (t) => {
  const { port, heard, until } = worker();
  t.teardown(() => port.close());
  for (let i = 0; i < 12; i++) port.postMessage({ type: 'file', index: i, file: `f${i}:1:100` } satisfies ToWorker);
  // With a credit of four batches, each file's last part-batch took one: it waited after the fourth file.
  await until('12 files done without an ack', () => done(heard) === 12);
  t.equal(done(heard), 12, 'every file done');
  for (const m of heard) if (m.type === 'out') t.equal(m.chunk.byteLength, m.chunk.buffer.byteLength, `file ${m.index + 1}: its output comes in a buffer of its own size (${m.chunk.byteLength} bytes), not a batch's`);
  t.equal(Buffer.concat(heard.flatMap((m) => (m.type === 'out' ? [m.chunk] : []))).toString('utf8'), Array.from({ length: 12 }, (_, i) => piecesOf(`f${i}:1:100`).join('')).join(''), 'the lines, in order');
});

t.test('a worker whose file gives more than its credit waits for the main thread to write it: 1 MB unwritten at most, then the rest as it is written', async (t) => {
  const { port, heard, until } = worker();
  t.teardown(() => port.close());
  const spec = 'a:40:65536';
  const total = piecesOf(spec).join('').length;
  port.postMessage({ type: 'file', index: 0, file: spec } satisfies ToWorker);
  await until('1 MB sent', () => bytesOut(heard) >= 1024 * 1024);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(bytesOut(heard), 1024 * 1024, 'four full batches sent, then it waits');
  t.equal(done(heard), 0, 'the file is not done');
  // The main thread writes what it was sent and says so.
  let acked = 0;
  while (done(heard) === 0) {
    const next = heard.filter((m) => m.type === 'out').slice(acked);
    for (const m of next) if (m.type === 'out') port.postMessage({ type: 'ack', bytes: m.chunk.byteLength } satisfies ToWorker);
    acked += next.length;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  t.equal(bytesOut(heard), total, 'every byte of the file, once written');
});

t.test("a shared thread (the main thread's share) lets its event loop turn within a file, after a chunk of input: what the other threads say is heard before the file ends", async (t) => {
  // A native session of 8 MB, read 1 MB at a time on this (the main) thread.
  const dir = mkdtempSync(join(tmpdir(), 'tx-serve-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 's.jsonl');
  const line = JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(4000) } });
  writeFileSync(file, `${line}\n`.repeat(2000));
  const { port, heard, until } = worker({ url: new URL('../../../lib/commands/parse.js', import.meta.url).href, name: 'tx-parse' }, true);
  t.teardown(() => port.close());
  const order: string[] = [];
  let outs = 0;
  port.on('message', (ms: FromWorker[]) => {
    for (const m of ms) {
      if (m.type === 'out') {
        // The main thread writes it at once; at the first, something else waits for the loop (a worker thread's message would).
        port.postMessage({ type: 'ack', bytes: m.chunk.byteLength } satisfies ToWorker);
        if (outs++ === 0) setImmediate(() => order.push('heard'));
      } else if (m.type === 'done') order.push('done');
    }
  });
  port.postMessage({ type: 'file', index: 0, file } satisfies ToWorker);
  await until('the file done', () => done(heard) === 1);
  t.ok(outs > 4, `the file gave ${outs} batches of output`);
  t.same(order, ['heard', 'done'], 'the loop turned before the file was done (between files only, it turned after)');
});
