// Line uuids as small numbers, for --active's chain of a long session. A Map of uuid
// strings costs some 150 bytes an entry (two strings of 36 characters, the entry, the
// Map's growth): 800,000 lines took over 400 MB. A uuid in its canonical form is 16
// bytes, so it is kept as four 32-bit words in typed arrays and found through an open
// hash table of numbers (about 30 bytes an entry, none of it objects the collector
// walks). Any other string (a uuid is data: it can be anything) goes to a Map, exactly.
import { randomInt } from 'node:crypto';

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const EMPTY = -1;

/**
 * Numbers by index in typed arrays of 64 Ki entries each, allocated as they fill: growing
 * never copies (a doubled array would hold the old and the new at once) and leaves at
 * most one chunk unused.
 */
export class Chunked<T extends Int32Array | Uint32Array | Float64Array | Uint8Array> {
  private readonly chunks: T[] = [];

  constructor(
    private readonly make: (n: number) => T,
    private readonly initial = 0,
  ) {}

  /** The value at `i` (the initial value where nothing was set). */
  get(i: number): number {
    const chunk = this.chunks[i >>> CHUNK_BITS];
    return chunk === undefined ? this.initial : chunk[i & (CHUNK - 1)];
  }

  /** Set the value at `i`. */
  set(i: number, v: number): void {
    const c = i >>> CHUNK_BITS;
    while (this.chunks.length <= c) {
      const chunk = this.make(CHUNK);
      if (this.initial !== 0) chunk.fill(this.initial);
      this.chunks.push(chunk);
    }
    this.chunks[c][i & (CHUNK - 1)] = v;
  }
}

/** Strings interned as dense ids 0, 1, 2…: canonical uuids compactly, anything else in a Map. */
export class LineIds {
  /** A uuid's four words at 4 × its id (a hole where the id is another string's). */
  private readonly words = new Chunked((n) => new Uint32Array(n));
  /** 1 where the id is a uuid's, held in `words`. */
  private readonly compact = new Chunked((n) => new Uint8Array(n));
  /** Open addressing, half full at most: each slot holds an id, or EMPTY. */
  private slots = new Int32Array(2048).fill(EMPTY);
  private uuids = 0;
  private readonly others = new Map<string, number>();
  private count = 0;
  private readonly scratch = new Uint32Array(4);
  // A seed of this run: a crafted set of uuids cannot be made to collide in every run.
  private readonly seed = randomInt(0x7fffffff);

  /** How many strings have ids. */
  get size(): number {
    return this.count;
  }

  /** The id of a string, given it one when it has none. */
  id(s: string): number {
    return this.lookup(s, true);
  }

  /** The id of a string, or -1 when it has none. */
  find(s: string): number {
    return this.lookup(s, false);
  }

  private lookup(s: string, add: boolean): number {
    const w = this.scratch;
    if (!parseUuid(s, w)) {
      let id = this.others.get(s);
      if (id === undefined) {
        if (!add) return -1;
        this.others.set(s, (id = this.count++));
      }
      return id;
    }
    const mask = this.slots.length - 1;
    let slot = this.hash(w[0], w[1], w[2], w[3]) & mask;
    for (; this.slots[slot] !== EMPTY; slot = (slot + 1) & mask) {
      const k = 4 * this.slots[slot];
      if (this.words.get(k) === w[0] && this.words.get(k + 1) === w[1] && this.words.get(k + 2) === w[2] && this.words.get(k + 3) === w[3]) return this.slots[slot];
    }
    if (!add) return -1;
    const id = this.count++;
    for (let i = 0; i < 4; i++) this.words.set(4 * id + i, w[i]);
    this.compact.set(id, 1);
    this.uuids++;
    if (2 * this.uuids > this.slots.length) this.rehash();
    else this.slots[slot] = id;
    return id;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    const mask = this.slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      if (this.compact.get(id) === 0) continue;
      const k = 4 * id;
      let slot = this.hash(this.words.get(k), this.words.get(k + 1), this.words.get(k + 2), this.words.get(k + 3)) & mask;
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.slots[slot] = id;
    }
  }

  private hash(a: number, b: number, c: number, d: number): number {
    let h = this.seed;
    h = Math.imul(h ^ a, 0x9e3779b1);
    h = Math.imul(h ^ (h >>> 15) ^ b, 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13) ^ c, 0xc2b2ae35);
    h = Math.imul(h ^ (h >>> 16) ^ d, 0x9e3779b1);
    return (h ^ (h >>> 15)) >>> 0;
  }
}

/** Read `s` into four words when it is a uuid in canonical form (lower-case hex, 8-4-4-4-12). */
function parseUuid(s: string, w: Uint32Array): boolean {
  if (s.length !== 36) return false;
  let word = 0;
  let digits = 0;
  for (let i = 0; i < 36; i++) {
    const c = s.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return false;
      continue;
    }
    let v: number;
    if (c >= 0x30 && c <= 0x39) v = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) v = c - 0x57;
    else return false;
    word = (word << 4) | v;
    if (++digits % 8 === 0) {
      w[digits / 8 - 1] = word >>> 0;
      word = 0;
    }
  }
  return true;
}
