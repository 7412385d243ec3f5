// The session tree, and the order in which the client rebuilds a conversation from it
// (buildSessionContext of src/core/session-manager.ts). The leaf is the file's last entry;
// the conversation is the path from the root down to it. When that path holds a
// compaction, the latest one's summary comes first, then the entries it kept (from
// firstKeptEntryId up to the compaction), then those after it. A version 1 file has no
// ids: the client links its entries one after the other, as this does.
//
// What the order costs: one parent link per entry and one number per converted entry,
// until the session ends; the converted messages themselves wait elsewhere (a spool).

/** The made-up id of an entry that has none (a version 1 file): its line. */
export function lineId(n: number): string {
  return `line-${n}`;
}

/** The links of one session's entries, and where each converted entry waits. */
export class SessionTree {
  private readonly parents = new Map<string, string | null>();
  /** The converted entry (its index) of an entry id. */
  private readonly pieces = new Map<string, number>();
  /** The entry a compaction kept from, by the compaction's id. */
  private readonly kept = new Map<string, string>();
  /** Entry ids by their index among the file's lines (the header is 0), for a version 1 compaction's firstKeptEntryIndex. */
  private readonly byIndex: string[] = [];
  private leaf: string | null = null;
  private previous: string | null = null;
  /** Entries are linked in file order (a version 1 file), whatever ids they carry. */
  private linear = false;

  /** The header's version: below 2 the client links entries in file order. */
  header(version: unknown): void {
    this.linear = typeof version !== 'number' || version < 2;
    this.byIndex.push('');
  }

  /** Note one entry (`n`: its line number); returns the id it goes by, or null for an entry off the tree (no id in a tree file). */
  entry(line: any, n: number): string | null {
    let id: string;
    let parent: string | null;
    if (this.linear || line.id === undefined) {
      if (!this.linear && this.parents.size > 0) return null;
      // A file without a header, or of version 1: linked one after the other.
      this.linear = true;
      id = lineId(n);
      parent = this.previous;
    } else {
      if (typeof line.id !== 'string') return null;
      id = line.id;
      parent = typeof line.parentId === 'string' ? line.parentId : null;
    }
    // A later entry with the same id takes its place, as in the client's index.
    this.parents.set(id, parent);
    this.byIndex.push(id);
    this.previous = id;
    this.leaf = id;
    return id;
  }

  /** Note that entry `id` was converted, as piece `index`. */
  piece(id: string, index: number): void {
    this.pieces.set(id, index);
  }

  /** Note a compaction and the entry it kept from (an id, or a version 1 index among the file's lines). */
  compaction(id: string, firstKept: unknown): void {
    const from = typeof firstKept === 'string' ? firstKept : typeof firstKept === 'number' ? this.byIndex[firstKept] : undefined;
    this.kept.set(id, from ?? '');
  }

  /** The entry ids from the root down to the leaf (the file's last entry); a cycle ends the walk. */
  path(): string[] {
    const up: string[] = [];
    const seen = new Set<string>();
    for (let id: string | null = this.leaf; id !== null && this.parents.has(id) && !seen.has(id); id = this.parents.get(id) ?? null) {
      seen.add(id);
      up.push(id);
    }
    return up.reverse();
  }

  /** The converted entries the client resumes, in the order it sends them. */
  resumed(): number[] {
    const path = this.path();
    let c = -1;
    for (let i = path.length - 1; i >= 0 && c < 0; i--) if (this.kept.has(path[i]!)) c = i;
    const ids = c < 0 ? path : [path[c]!, ...this.keptBefore(path, c), ...path.slice(c + 1)];
    const out: number[] = [];
    for (const id of ids) {
      const p = this.pieces.get(id);
      if (p !== undefined) out.push(p);
    }
    return out;
  }

  /** The entries before compaction `c` of the path, from the one it kept on (none when that one is not on the path before it). */
  private keptBefore(path: string[], c: number): string[] {
    const from = path.indexOf(this.kept.get(path[c]!)!);
    return from >= 0 && from < c ? path.slice(from, c) : [];
  }
}
