// What `--active` keeps: the conversation the client rebuilds on resume. Claude Code
// does not read a file top to bottom: it takes the last message and follows parentUuid
// back until a line with no parent (the session's first line, or a compact boundary).
// Lines off that chain (a rewound branch, an old-style compaction's pre-history) are not
// in the conversation it sends. Following the chain needs every line's parent, so this
// holds one uuid pair per line and one entry per message: the memory --active costs.
//
// A compaction that keeps messages (its preserved segment) puts them back after its
// summary. That is a reference to the converted messages, never a copy of their bytes:
// a later compaction keeping the same history again cannot copy copies, and a message
// comes out at most once, at the last place the chain puts it (the client relinks the
// kept messages; it does not duplicate them).

/** Where a converted message lies in the held-back output, and the lines it was made of. */
interface HeldMessage {
  start: number;
  end: number;
  uuids: string[];
}

/** A compaction's preserved segment: held messages from..to (indices), put back after the summary line `follows`. */
interface Kept {
  follows: string;
  from: number;
  to: number;
}

/** A byte range of the held-back output. */
export interface HeldRange {
  start: number;
  end: number;
}

/** Collects the parent links of a session and the messages converted from it, then picks those on the resumed chain. */
export class ActiveChain {
  private readonly parents = new Map<string, string | null>();
  private readonly messages: HeldMessage[] = [];
  /** The output order: a held message (its index) or a preserved segment put back. */
  private readonly order: (number | Kept)[] = [];
  private leaf: string | null = null;

  /** Note one native line (`main`: it belongs to the session's own chain, not a sidechain). */
  line(line: any, main: boolean): void {
    if (!line || typeof line.uuid !== 'string' || line.uuid === '') return;
    this.parents.set(line.uuid, typeof line.parentUuid === 'string' && line.parentUuid !== '' ? line.parentUuid : null);
    if (main && (line.type === 'user' || line.type === 'assistant')) this.leaf = line.uuid;
  }

  /** Note a message written to bytes start..end of the held output. */
  message(start: number, end: number, uuids: string[]): void {
    this.order.push(this.messages.length);
    this.messages.push({ start, end, uuids });
  }

  /**
   * Put back after summary line `anchor` the segment of held messages (written before
   * byte `before`) from the first that the given uuids name to the last: the segment is
   * contiguous, and the compaction may name only its head and tail.
   */
  preserve(uuids: Set<string>, anchor: string, before: number): void {
    let from = -1;
    let to = -1;
    for (let i = 0; i < this.messages.length && this.messages[i].start < before; i++) {
      if (!this.messages[i].uuids.some((u) => uuids.has(u))) continue;
      if (from < 0) from = i;
      to = i;
    }
    if (from >= 0) this.order.push({ follows: anchor, from, to });
  }

  /** The byte ranges of the messages on the chain that ends at the session's last message, in order; null when the lines carry no uuids. */
  select(): HeldRange[] | null {
    if (this.leaf === null) return null;
    const chain = new Set<string>();
    for (let u: string | null | undefined = this.leaf; u && !chain.has(u); u = this.parents.get(u)) chain.add(u);
    // From the end backwards, so that a message is placed where the chain last puts it.
    const placed = new Skip(this.messages.length);
    const picked: number[] = [];
    for (let k = this.order.length - 1; k >= 0; k--) {
      const entry = this.order[k];
      if (typeof entry === 'number') {
        // A message is on the chain when any of its lines is: the client gathers the
        // parallel tool calls and results of one API message even where the chain runs
        // through only one of them.
        if (!placed.has(entry) && this.messages[entry].uuids.some((u) => chain.has(u))) picked.push(placed.take(entry));
      } else if (chain.has(entry.follows)) {
        const segment: number[] = [];
        for (let i = placed.next(entry.from); i <= entry.to; i = placed.next(i + 1)) segment.push(placed.take(i));
        for (let j = segment.length - 1; j >= 0; j--) picked.push(segment[j]);
      }
    }
    const ranges: HeldRange[] = [];
    for (let j = picked.length - 1; j >= 0; j--) {
      const m = this.messages[picked[j]];
      const last = ranges[ranges.length - 1];
      // Neighbours in the held output are read back as one range.
      if (last && last.end === m.start) last.end = m.end;
      else ranges.push({ start: m.start, end: m.end });
    }
    return ranges;
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
