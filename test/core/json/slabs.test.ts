// Copies in slabs: each copy keeps its bytes until it is freed, however many copies come
// after it; a slab whose copies are all freed is used again rather than a new one made.
import t from 'tap';
import { Slabs } from '../../../lib/core/json/slabs.js';
import { prng } from '../../helpers.js';

t.test('property: every live copy keeps its bytes while others are made and freed', async (t) => {
  const rand = prng(7);
  const slabs = new Slabs();
  const live: { copy: ReturnType<Slabs['copy']>; want: Buffer }[] = [];
  let checked = 0;
  for (let round = 0; round < 3000; round++) {
    if (live.length > 0 && rand() < 0.45) {
      const [gone] = live.splice(Math.floor(rand() * live.length), 1);
      slabs.free(gone.copy);
    } else {
      // Mostly short copies, now and then one too long for a slab.
      const size = rand() < 0.02 ? 300_000 + Math.floor(rand() * 100_000) : 1 + Math.floor(rand() * 40_000);
      const want = Buffer.alloc(size, round % 251);
      // The source is written over at once, as a reused read buffer would be.
      const source = Buffer.from(want);
      live.push({ copy: slabs.copy(source), want });
      source.fill(0xff);
    }
    const changed = live.findIndex(({ copy, want }) => !copy.bytes.equals(want));
    if (changed >= 0) {
      t.fail(`round ${round}: live copy ${changed} changed`);
      return;
    }
    checked += live.length;
  }
  t.ok(checked > 10_000, `${checked} live copies checked, none changed`);
});

t.test('a slab whose copies are freed is used again; a long copy has a buffer of its own', async (t) => {
  const slabs = new Slabs();
  const a = slabs.copy(Buffer.alloc(600_000 / 3, 1));
  const first = a.bytes.buffer;
  const b = slabs.copy(Buffer.alloc(200_000, 2));
  t.equal(b.bytes.buffer, first, 'the next copy goes in the same slab');
  slabs.free(a);
  slabs.free(b);
  const c = slabs.copy(Buffer.alloc(10, 3));
  t.equal(c.bytes.buffer, first, 'an emptied slab is used again');
  const long = slabs.copy(Buffer.alloc(500_000, 4));
  t.equal(long.slab, null, 'a long copy is its own buffer');
  t.equal(long.bytes.length, long.bytes.buffer.byteLength);
});
