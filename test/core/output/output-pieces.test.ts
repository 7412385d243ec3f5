// Output fills one 64 KB piece again and again when nothing else holds it: a piece
// written with a blocking write (a Descriptor) or copied (a worker's Copier) is done
// with. A piece handed to a stream is new each time, as the stream may hold it. Memory
// a thread frees stays with it until its next collection, so a new piece per 64 KB
// made the peak of a --jobs run tens of MB higher. The bytes come out whole and in order
// every way.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import t from 'tap';
import { Output, PIECE, type Copier } from '../../../lib/core/output/output.js';
import { buffersFromText, prng } from '../../helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'tx-output-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

/** Lines of uneven length (some longer than a piece), 1.5 MB in all. */
const random = prng(5);
const lines: Buffer[] = [];
for (let size = 0, i = 0; size < 1_500_000; i++) {
  const line = Buffer.from(`${i} ${'z'.repeat(Math.floor(random() * 3 * PIECE))}\n`);
  lines.push(line);
  size += line.length;
}
const all = Buffer.concat(lines);

/** Push every line through `out` as a records tool does (push, then flushIfFull), then end it; returns the pieces Output made. */
async function feed(out: () => Output): Promise<number> {
  const original = Buffer.allocUnsafe;
  let made = 0;
  Buffer.allocUnsafe = ((size: number) => {
    if (size === PIECE) made++;
    return original.call(Buffer, size);
  }) as typeof Buffer.allocUnsafe;
  try {
    const o = out();
    for (const line of lines) {
      o.push(line);
      await o.flushIfFull();
    }
    await o.end();
  } finally {
    Buffer.allocUnsafe = original;
  }
  return made;
}

/** Run `fn` with no handler for SIGINT, SIGTERM or SIGHUP (tap's preload installs some; with them, a Descriptor goes to the stream at once). */
async function withoutSignalHandlers<T>(fn: () => Promise<T>): Promise<T> {
  const saved = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => [signal, process.rawListeners(signal)] as const);
  for (const [signal] of saved) process.removeAllListeners(signal);
  try {
    return await fn();
  } finally {
    for (const [signal, listeners] of saved) for (const l of listeners) process.on(signal, l as () => void);
  }
}

t.test('a descriptor written with blocking writes: one piece filled again for the whole output, and the file holds every byte in order', async (t) => {
  const path = join(scratch, 'out');
  const fd = openSync(path, 'w');
  let made = 0;
  try {
    made = await withoutSignalHandlers(() =>
      feed(
        () =>
          new Output({
            fd,
            stream: () => {
              throw new Error('no stream wanted: every write is a blocking one');
            },
          }),
      ),
    );
  } finally {
    closeSync(fd);
  }
  t.ok(readFileSync(path).equals(all), 'the file holds the output');
  t.equal(made, 1, `one piece made for ${Math.ceil(all.length / PIECE)} pieces written`);
});

t.test('a stream that keeps what it is given: a new piece each time, and what it kept is unchanged', async (t) => {
  const kept: Buffer[] = [];
  const made = await feed(
    () =>
      new Output(
        new Writable({
          write(chunk: Buffer, _enc, cb) {
            kept.push(chunk); // not copied: a piece filled again would change it
            cb();
          },
        }),
      ),
  );
  t.ok(Buffer.concat(kept).equals(all), 'the pieces kept are the output');
  t.ok(made >= Math.floor(all.length / PIECE), `a piece per 64 KB (${made})`);
});

t.test("a worker's Copier: each piece copied as it fills, the same piece filled again, and the writer waits while the Copier has no room", async (t) => {
  const copies: Buffer[] = [];
  const seen = new Set<ArrayBufferLike>();
  let full = false;
  let waits = 0;
  let release: (() => void) | null = null;
  const copier: Copier = {
    copy(piece) {
      t.ok(piece.length <= PIECE, 'a piece at most 64 KB');
      copies.push(Buffer.from(piece));
      seen.add(piece.buffer);
      // Every fourth piece leaves the Copier full until the next turn of the loop.
      full = copies.length % 4 === 0;
    },
    room() {
      if (!full) return null;
      waits++;
      return new Promise<void>((resolve) => {
        release = resolve;
        setImmediate(() => {
          full = false;
          release = null;
          resolve();
        });
      });
    },
  };
  const made = await feed(() => new Output(copier));
  t.ok(Buffer.concat(copies).equals(all), 'the copies are the output, in order');
  t.equal(made, 1, 'one piece made');
  t.equal(seen.size, 1, 'the pieces copied are views of one buffer');
  t.ok(waits >= Math.floor(copies.length / 4) - 1, `the writer waited each time the Copier was full (${waits} waits, ${copies.length} pieces)`);
  t.equal(release, null, 'no wait left pending');

  // flushIfFull does not resolve while the Copier has no room.
  let open: () => void = () => {};
  const held = new Output({ copy: () => {}, room: () => new Promise<void>((resolve) => (open = resolve)) });
  held.push(Buffer.alloc(PIECE));
  let settled = false;
  const waiting = held.flushIfFull().then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  t.notOk(settled, 'still waiting for room');
  open();
  await waiting;
  t.ok(settled, 'done once there is room');
});

t.test('long text (a JSON line of a long message) is encoded through one scratch buffer, not a buffer of its own, and comes out exact', async (t) => {
  const random = prng(11);
  const texts: string[] = [];
  for (let i = 0; i < 40; i++) texts.push(`${i} ${'é😀x€'.repeat(Math.floor(random() * PIECE))}`);
  // Longer than the scratch buffer holds (3 bytes per UTF-16 unit at most): a buffer of its own.
  texts.push('ü'.repeat(400_000));
  const kept: Buffer[] = [];
  const fromText = await buffersFromText(async () => {
    const out = new Output(
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          kept.push(chunk);
          cb();
        },
      }),
    );
    for (const text of texts) await out.writeJson(text);
    await out.end();
  });
  t.equal(Buffer.concat(kept).toString(), texts.map((s) => JSON.stringify(s) + '\n').join(''), 'every line comes out whole and in order');
  t.equal(fromText, 1, 'a buffer of its own only for the text longer than the scratch buffer');
});
