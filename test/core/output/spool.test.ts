// The spool: bytes held back in memory, then in a temporary file, read back exactly.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Spool } from '../../../lib/core/output/spool.js';
import { buffersFromText } from '../../helpers.js';

/** The pieces of a read, each copied as it comes (a piece is valid until the next is asked for). */
const copied = (it: Iterable<Buffer>) => Array.from(it, (p) => Buffer.from(p));
const all = (it: Iterable<Buffer>) => Buffer.concat(copied(it)).toString();

t.test('bytes read back the same from any offset, in memory and after spilling to a file', async (t) => {
  for (const limit of [1 << 20, 8]) {
    const spool = new Spool(limit);
    const parts = ['alpha\n', 'beta\n', 'gamma\n', 'x'.repeat(200_000) + '\n'];
    for (const p of parts) spool.write(p);
    const text = parts.join('');
    t.equal(spool.size, Buffer.byteLength(text), `size (limit ${limit})`);
    for (const from of [0, 1, 6, 7, 15, text.length - 1, text.length]) t.equal(all(spool.read(from)), text.slice(from), `read from ${from} (limit ${limit})`);
    t.equal(all(spool.range(6, 11)), 'beta\n', `range (limit ${limit})`);
    t.equal(all(spool.range(0, 6)), 'alpha\n', `range (limit ${limit})`);
    for (const [a, b] of [[0, text.length], [3, 9], [11, 17], [17, 70_000], [16, text.length - 1], [5, 5], [9, 3], [0, text.length + 10]]) {
      const read = copied(spool.range(a, b));
      t.equal(Buffer.concat(read).toString(), text.slice(a, Math.max(a, b)), `range ${a}..${b} (limit ${limit})`);
      t.ok(read.every((p) => p.length > 0 && p.length <= 64 * 1024), `range ${a}..${b} comes in pieces of at most 64 KB (limit ${limit})`);
    }
    spool.clear();
    t.equal(spool.size, 0);
    t.equal(all(spool.read()), '');
  }
});

t.test('the temporary file is nameless once open: nothing is on disk while it is used or after', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-spool-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  t.teardown(() => (before === undefined ? delete process.env.TMPDIR : (process.env.TMPDIR = before)));
  const spool = new Spool(4);
  spool.write('more than four bytes');
  t.ok((spool as any).fd !== null, 'spilled to a file');
  t.same(readdirSync(dir), [], 'no folder or file left in the temporary directory while spilled');
  t.equal(all(spool.read()), 'more than four bytes', 'read back from the open file');
  spool.clear();
  spool.write('again, more than four');
  t.equal(all(spool.read()), 'again, more than four', 'usable after clear');
  spool.clear();
  t.same(readdirSync(dir), []);
});

t.test('many small writes of strings and buffers, between large ones: sizes and ranges exact, memory within its limit', async (t) => {
  for (const limit of [1 << 30, 100_000, 1000, 0]) {
    const spool = new Spool(limit);
    const pieces: string[] = [];
    const offsets: number[] = [];
    let most = 0;
    for (let i = 0; i < 3000; i++) {
      const text = i % 500 === 7 ? `big ${i} ${'é😀x'.repeat(9000)}\n` : `{"n":${i},"s":"${'€'.repeat(i % 40)}"}\n`;
      offsets.push(spool.size);
      spool.write(i % 3 === 0 ? Buffer.from(text) : text);
      pieces.push(text);
      const s = spool as any;
      if (s.fd === null) most = Math.max(most, s.memory + s.fill - s.from);
    }
    t.ok(most <= limit, `bytes in memory never passed the limit (limit ${limit}, most ${most})`);
    const whole = Buffer.from(pieces.join(''));
    t.equal(spool.size, whole.length, `size (limit ${limit})`);
    offsets.push(whole.length);
    for (const i of [0, 1, 7, 8, 499, 1507, 2998]) t.equal(all(spool.range(offsets[i], offsets[i + 1])), pieces[i], `write ${i} reads back alone (limit ${limit})`);
    t.ok(Buffer.concat(copied(spool.read())).equals(whole), `everything reads back (limit ${limit})`);
    spool.write('after reading\n');
    t.equal(all(spool.read(whole.length)), 'after reading\n', `writes after a read (limit ${limit})`);
    spool.clear();
  }
});

t.test('once spilled, neither long strings nor reads back make a buffer each: the shared scratch and the read buffer are used again', async (t) => {
  const spool = new Spool(0);
  // With no memory allowed, the first write goes to the file at once.
  const texts = ['spilled\n', 'é😀'.repeat(20_000), 'x'.repeat(300_000), '€'.repeat(50_000) + '\n'];
  spool.write(texts[0]);
  const fromText = await buffersFromText(() => {
    for (const text of texts.slice(1)) spool.write(text);
    spool.write('ü'.repeat(30_000));
  });
  t.equal(fromText, 0, 'no long string got a buffer of its own: each went through the scratch buffer');
  const whole = texts.join('') + 'ü'.repeat(30_000);
  const buffers = new Set<ArrayBuffer>();
  const copies: Buffer[] = [];
  for (const p of spool.read()) {
    buffers.add(p.buffer as ArrayBuffer);
    copies.push(Buffer.from(p));
  }
  t.ok(copies.length > 5, `read back in ${copies.length} pieces`);
  t.equal(buffers.size, 1, 'every piece read back from the file lies in one buffer');
  t.equal(Buffer.concat(copies).toString(), whole, 'and the bytes are exact');
  // A string too long for the scratch buffer gets a buffer of its own, and is exact too.
  const huge = 'ä'.repeat(400_000);
  spool.write(huge);
  t.equal(all(spool.read(Buffer.byteLength(whole))), huge, 'a string longer than the scratch buffer reads back exactly');
  spool.clear();
});
