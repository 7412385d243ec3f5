// Where an OpenCode session becomes Common: the conversation `opencode run --session ID`
// rebuilds from the store. Lines are the session's info and its messages, oldest first
// (the order of `opencode export`). Each message becomes the API messages the client
// sends for it (blocks.ts); they wait in a spool (memory up to 1 MB, then a temporary
// file) because the session line goes first and because, under --active, which messages
// count is known only once the last compaction has been seen (active.ts).
import type { CommonSession } from '../common.js';
import { Spool } from '../core/output/spool.js';
import { activeIndexes, type MessageFacts } from './active.js';
import { commonMessages } from './blocks.js';
import { isMessageWithParts, isSessionInfo } from './detect.js';
import type { MessageWithParts, SessionInfo } from './shape.js';

/** How the conversion runs. */
export interface OpencodeToCommonOptions {
  /** The file the lines come from (undefined on stdin). */
  src?: string;
  /** Only the conversation the client resumes: from the last completed compaction on, a kept tail after its summary, pruned outputs cleared. */
  active: boolean;
}

/** One message held in the spool. */
interface Entry extends MessageFacts {
  start: number;
  end: number;
}

/** Converts one OpenCode session's lines to Common. */
export class OpencodeToCommon {
  private readonly spool = new Spool();
  private readonly entries: Entry[] = [];
  private info: SessionInfo | null = null;
  private firstModel: string | undefined;
  private firstTime: number | undefined;

  constructor(private readonly opts: OpencodeToCommonOptions) {}

  /** On stdin: a session info of another session than the one being converted begins a new session. */
  startsNewSession(line: unknown): boolean {
    return isSessionInfo(line) && this.info !== null && line.id !== this.info.id;
  }

  /** Every kind of line can hold a part of the conversation. */
  reads(): boolean {
    return true;
  }

  /** Take one parsed line. */
  push(line: unknown): void {
    if (isSessionInfo(line)) {
      this.info ??= line;
      return;
    }
    if (!isMessageWithParts(line)) return;
    this.message(line);
  }

  /** The session line, then its messages, each one line of text. */
  *finish(): Generator<string | Buffer> {
    yield JSON.stringify(this.sessionLine()) + '\n';
    const order = this.opts.active ? activeIndexes(this.entries) : this.entries.map((_, i) => i);
    for (const i of order) {
      const e = this.entries[i]!;
      yield* this.spool.range(e.start, e.end);
    }
  }

  /** OpenCode keeps a subagent's conversation in a session of its own (a child, by parentID), not beside a file. */
  followers(): string[] {
    return [];
  }

  /** Remove the temporary file, whatever happened. */
  dispose(): void {
    this.spool.clear();
  }

  private message(m: MessageWithParts): void {
    const info = m.info;
    if (info.role === 'assistant' && this.firstModel === undefined && typeof info.modelID === 'string') this.firstModel = info.modelID;
    if (typeof info.time?.created === 'number') this.firstTime ??= info.time.created;
    const start = this.spool.size;
    for (const c of commonMessages(m, { active: this.opts.active })) {
      this.spool.write(JSON.stringify(c));
      this.spool.write('\n');
    }
    const compaction = m.parts.find((p) => p && typeof p === 'object' && p.type === 'compaction');
    const facts: Entry = {
      start,
      end: this.spool.size,
      id: info.id,
      role: info.role,
      summary: info.summary === true,
      finished: typeof info.finish === 'string' && info.finish !== '',
      errored: info.error !== undefined && info.error !== null,
    };
    if (typeof info.parentID === 'string') facts.parentID = info.parentID;
    if (info.role === 'user' && compaction) facts.compaction = typeof compaction.tail_start_id === 'string' ? { tail_start_id: compaction.tail_start_id } : {};
    this.entries.push(facts);
  }

  private sessionLine(): CommonSession {
    const info = this.info;
    const stem = this.opts.src?.split('/').pop()?.replace(/\.json$/, '');
    const s: CommonSession = { type: 'session', harness: 'opencode', id: info?.id ?? stem ?? '' };
    if (info) {
      if (typeof info.title === 'string' && info.title !== '') s.title = info.title;
      if (typeof info.directory === 'string') s.cwd = info.directory;
      if (typeof info.version === 'string') s.version = info.version;
    }
    const model = this.firstModel ?? (typeof info?.model?.id === 'string' ? info.model.id : undefined);
    if (model !== undefined) s.model = model;
    const created = typeof info?.time?.created === 'number' ? info.time.created : this.firstTime;
    if (created !== undefined) s.started_at = new Date(created).toISOString();
    if (typeof info?.parentID === 'string') s.parent = { session: info.parentID };
    if (this.opts.src !== undefined) s.src = this.opts.src;
    return s;
  }
}
