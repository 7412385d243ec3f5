// What `--active` keeps: the conversation the client rebuilds on resume. Claude Code
// does not read a file top to bottom: it takes the last message and follows parentUuid
// back until a line with no parent (the session's first line, or a compact boundary).
// Lines off that chain (a rewound branch, an old-style compaction's pre-history) are not
// in the conversation it sends. Following the chain needs every line's parent, so this
// holds one uuid pair per line and one entry per message: the memory --active costs.

/** Where a converted message lies in the held-back output, and the lines it was made of. */
interface HeldMessage {
  start: number;
  end: number;
  uuids: string[];
  /** A copy put back after a compact summary: kept when that summary is. */
  follows?: string;
}

/** Collects the parent links of a session and the messages converted from it, then picks those on the resumed chain. */
export class ActiveChain {
  private readonly parents = new Map<string, string | null>();
  private readonly messages: HeldMessage[] = [];
  private leaf: string | null = null;

  /** Note one native line (`main`: it belongs to the session's own chain, not a sidechain). */
  line(line: any, main: boolean): void {
    if (!line || typeof line.uuid !== 'string' || line.uuid === '') return;
    this.parents.set(line.uuid, typeof line.parentUuid === 'string' && line.parentUuid !== '' ? line.parentUuid : null);
    if (main && (line.type === 'user' || line.type === 'assistant')) this.leaf = line.uuid;
  }

  /** Note a message written to bytes start..end of the held output. */
  message(start: number, end: number, uuids: string[], follows?: string): void {
    this.messages.push(follows === undefined ? { start, end, uuids } : { start, end, uuids, follows });
  }

  /** The held messages made of lines the given uuids name, earliest first (for a compaction's preserved segment). */
  find(uuids: Set<string>, before: number): { start: number; end: number }[] {
    return this.messages.filter((m) => m.start < before && m.follows === undefined && m.uuids.some((u) => uuids.has(u)));
  }

  /** The byte ranges of the messages on the chain that ends at the session's last message, in order; null when the lines carry no uuids. */
  select(): { start: number; end: number }[] | null {
    if (this.leaf === null) return null;
    const chain = new Set<string>();
    for (let u: string | null | undefined = this.leaf; u && !chain.has(u); u = this.parents.get(u)) chain.add(u);
    // A message is on the chain when any of its lines is: the client gathers the
    // parallel tool calls and results of one API message even where the chain runs
    // through only one of them.
    return this.messages.filter((m) => (m.follows !== undefined ? chain.has(m.follows) : m.uuids.some((u) => chain.has(u))));
  }
}
