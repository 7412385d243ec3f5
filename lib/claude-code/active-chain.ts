// What `--active` keeps: the conversation the client rebuilds on resume. Claude Code
// does not read a file top to bottom: it takes the last message and follows parentUuid
// back until a line with no parent (the session's first line, or a compact boundary).
// Lines off that chain (a rewound branch, an old-style compaction's pre-history) are not
// in the conversation it sends. Following the chain needs every line's parent, so this
// holds one parent link per line and one entry per message: the memory --active costs,
// kept in typed arrays of numbers (uuids as ids, line-ids.ts), some 60 bytes a line, so
// a session of a million lines stays within tens of MB.
//
// A compaction that keeps messages (its preserved segment) puts them back after its
// summary. That is a reference to the converted messages, never a copy of their bytes:
// a later compaction keeping the same history again cannot copy copies, and a message
// comes out at most once, at the last place the chain puts it (the client relinks the
// kept messages; it does not duplicate them).
import { Chunked, LineIds } from './line-ids.js';

/** A compaction's preserved segment: held messages from..to (indices), put back after the summary line `follows` (an id), after the first `after` messages. */
interface Kept {
  follows: number;
  from: number;
  to: number;
  after: number;
}

/** A byte range of the held-back output. */
export interface HeldRange {
  start: number;
  end: number;
}

const NO_PARENT = -1;
/** A uuid named (as a parent, or by a message) whose own line was never seen. */
const UNSEEN = -2;

/** Collects the parent links of a session and the messages converted from it, then picks those on the resumed chain. */
export class ActiveChain {
  private readonly ids = new LineIds();
  /** The parent of each id: an id, NO_PARENT or UNSEEN. */
  private readonly parents = new Chunked((n) => new Int32Array(n), UNSEEN);
  /** Each message's byte range in the held output, and where its lines' ids begin in `uuids`. */
  private readonly starts = new Chunked((n) => new Float64Array(n));
  private readonly ends = new Chunked((n) => new Float64Array(n));
  private readonly firstUuid = new Chunked((n) => new Int32Array(n));
  private readonly uuids = new Chunked((n) => new Int32Array(n));
  private messages = 0;
  private readonly kept: Kept[] = [];
  private leaf = -1;

  /** Note one native line (`main`: it belongs to the session's own chain, not a sidechain). */
  line(line: any, main: boolean): void {
    if (!line || typeof line.uuid !== 'string' || line.uuid === '') return;
    const id = this.ids.id(line.uuid);
    const parent = typeof line.parentUuid === 'string' && line.parentUuid !== '' ? this.ids.id(line.parentUuid) : NO_PARENT;
    this.parents.set(id, parent);
    if (main && (line.type === 'user' || line.type === 'assistant')) this.leaf = id;
  }

  /** Note a message written to bytes start..end of the held output. */
  message(start: number, end: number, uuids: string[]): void {
    const m = this.messages;
    let at = this.firstUuid.get(m);
    for (const u of uuids) this.uuids.set(at++, this.ids.id(u));
    this.starts.set(m, start);
    this.ends.set(m, end);
    this.firstUuid.set(m + 1, at);
    this.messages = m + 1;
  }

  /**
   * Put back after summary line `anchor` the segment of held messages (written before
   * byte `before`) from the first that the given uuids name to the last: the segment is
   * contiguous, and the compaction may name only its head and tail.
   */
  preserve(uuids: Set<string>, anchor: string, before: number): void {
    const named = new Set<number>();
    for (const u of uuids) {
      const id = this.ids.find(u);
      if (id >= 0) named.add(id);
    }
    let from = -1;
    let to = -1;
    for (let i = 0; i < this.messages && this.starts.get(i) < before; i++) {
      if (!this.names(i, (id) => named.has(id))) continue;
      if (from < 0) from = i;
      to = i;
    }
    if (from >= 0) this.kept.push({ follows: this.ids.id(anchor), from, to, after: this.messages });
  }

  /** The byte ranges of the messages on the chain that ends at the session's last message, in order; null when the lines carry no uuids. */
  select(): Iterable<HeldRange> | null {
    if (this.leaf < 0) return null;
    const chain = new Uint8Array(this.ids.size);
    for (let u = this.leaf; u >= 0 && chain[u] === 0; u = this.parents.get(u)) chain[u] = 1;
    const on = (id: number) => chain[id] === 1;
    // From the end backwards, so that a message is placed where the chain last puts it; a
    // kept segment comes after the first `after` messages.
    const placed = new Skip(this.messages);
    const picked = new Int32Array(this.messages);
    let count = 0;
    let k = this.kept.length - 1;
    for (let i = this.messages; i >= 0; i--) {
      for (; k >= 0 && this.kept[k].after === i; k--) {
        const entry = this.kept[k];
        if (!on(entry.follows)) continue;
        const first = count;
        for (let m = placed.next(entry.from); m <= entry.to; m = placed.next(m + 1)) picked[count++] = placed.take(m);
        // The segment in its own order, read backwards like the rest.
        picked.subarray(first, count).reverse();
      }
      // A message is on the chain when any of its lines is: the client gathers the
      // parallel tool calls and results of one API message even where the chain runs
      // through only one of them.
      if (i > 0 && !placed.has(i - 1) && this.names(i - 1, on)) picked[count++] = placed.take(i - 1);
    }
    return this.ranges(picked, count);
  }

  /** The picked messages (held backwards) as byte ranges, neighbours in the held output read back as one. */
  private *ranges(picked: Int32Array, count: number): Generator<HeldRange> {
    let range: HeldRange | null = null;
    for (let j = count - 1; j >= 0; j--) {
      const m = picked[j];
      if (range && range.end === this.starts.get(m)) range.end = this.ends.get(m);
      else {
        if (range) yield range;
        range = { start: this.starts.get(m), end: this.ends.get(m) };
      }
    }
    if (range) yield range;
  }

  /** Whether any line of message `m` has an id `test` accepts. */
  private names(m: number, test: (id: number) => boolean): boolean {
    for (let j = this.firstUuid.get(m); j < this.firstUuid.get(m + 1); j++) if (test(this.uuids.get(j))) return true;
    return false;
  }
}

/** Indices 0..n-1, each taken at most once; finds the next one not taken in near-constant time (path halving, no recursion). */
class Skip {
  private readonly nextFree: Int32Array;

  constructor(n: number) {
    this.nextFree = new Int32Array(n + 1);
    for (let i = 0; i <= n; i++) this.nextFree[i] = i;
  }

  /** The first index ≥ i not taken (n when none). */
  next(i: number): number {
    const p = this.nextFree;
    while (p[i] !== i) {
      p[i] = p[p[i]];
      i = p[i];
    }
    return i;
  }

  has(i: number): boolean {
    return this.nextFree[i] !== i;
  }

  /** Take index i; returns it. */
  take(i: number): number {
    this.nextFree[i] = i + 1;
    return i;
  }
}
