// A chat file replayed the way the client loads it (chatRecordingService.ts
// loadConversationRecord): a message record replaces the record of the same id where it
// stands, or joins the end; `{"$rewindTo": id}` removes that message and all after it
// (all of them when the id is unknown); a `$set` of `messages` replaces the whole list (a
// checkpoint: after a resume, a rewind, a compression; an empty one, which txcript writes
// at a compaction, starts the conversation again); any other `$set`, and the metadata
// lines, update the session's metadata. Records wait in a spool (memory flat);
// only their ids and places are held.
import { Spool } from '../core/output/spool.js';
import { isMetadataLine, isRewindLine, isSetLine } from './detect.js';
import { contentText, partList } from './parts.js';
import { SESSION_CONTEXT, workspaceDirectories } from './session-context.js';

/** The opening of the message a compression puts first in its checkpoint. */
export const SNAPSHOT_OPENING = '<state_snapshot>';

/** Where a record's latest version lies in the spool. */
interface Held {
  start: number;
  end: number;
}

/** The session's metadata as the lines set it. */
export interface ChatMetadata {
  sessionId?: string;
  projectHash?: string;
  /** The first metadata line's start (a resume in the same minute writes another). */
  startTime?: string;
  lastUpdated?: string;
  /** The session summary the client generated (its title). */
  summary?: string;
  kind?: string;
}

/** True for a user record whose text is a compression's snapshot. */
export function isSnapshotRecord(m: any): boolean {
  return m?.type === 'user' && contentText(partList(m.content).filter((p) => typeof p.text === 'string')).trimStart().startsWith(SNAPSHOT_OPENING);
}

/** One chat file's records, replayed. */
export class ChatLog {
  private readonly spool = new Spool();
  private readonly latest = new Map<string, Held>();
  /** The conversation the client loads, in order. */
  private active: string[] = [];
  private readonly inActive = new Set<string>();
  /** Every message ever recorded, in the order first seen. */
  private readonly all: string[] = [];
  /** Snapshot messages a checkpoint brought in: the conversation restarts at each. */
  readonly restarts = new Set<string>();
  readonly metadata: ChatMetadata = {};
  /** The model of the first gemini record. */
  model: string | undefined;
  /** An empty checkpoint came last: the next new message starts the conversation again. */
  private cleared = false;
  /** The workspace directories of the first session context seen, or null before one. */
  contextDirs: string[] | null = null;

  /** Take one parsed line; the tests come in the client's order (a line with a string `id` is a message). */
  push(line: any): void {
    if (!line || typeof line !== 'object' || Array.isArray(line)) return;
    if (isRewindLine(line)) this.rewind(line.$rewindTo);
    else if (typeof line.id === 'string') this.record(line);
    else if (isSetLine(line)) {
      const set = line.$set;
      if (Array.isArray(set.messages)) this.checkpoint(set.messages);
      this.meta(set);
    } else if (isMetadataLine(line)) {
      this.meta(line);
      // A whole old-format document kept on one line: its messages join the list.
      if (Array.isArray(line.messages)) for (const m of line.messages) if (m && typeof m === 'object' && typeof m.id === 'string') this.record(m);
    }
  }

  /** The conversation the client resumes (`active`), or every message the file recorded in first-seen order; each at its latest version. */
  *messages(active: boolean): Generator<Record<string, any>> {
    for (const id of active ? this.active : this.all) {
      const held = this.latest.get(id);
      if (!held) continue;
      const text = Buffer.concat([...this.spool.range(held.start, held.end)]).toString('utf8');
      yield JSON.parse(text) as Record<string, any>;
    }
  }

  /** Forget everything held and remove the spool's file. */
  clear(): void {
    this.spool.clear();
  }

  private meta(fields: Record<string, unknown>): void {
    const m = this.metadata;
    for (const key of ['sessionId', 'projectHash', 'lastUpdated', 'summary', 'kind'] as const) {
      if (typeof fields[key] === 'string') m[key] = fields[key] as string;
    }
    if (typeof fields.startTime === 'string') m.startTime ??= fields.startTime;
  }

  private keep(m: Record<string, any>): void {
    if (this.model === undefined && m.type === 'gemini' && typeof m.model === 'string') this.model = m.model;
    if (this.contextDirs === null && m.type === 'user') {
      const text = contentText(m.content).trimStart();
      if (text.startsWith(SESSION_CONTEXT)) this.contextDirs = workspaceDirectories(text);
    }
    const start = this.spool.size;
    this.spool.write(JSON.stringify(m));
    this.latest.set(m.id as string, { start, end: this.spool.size });
  }

  private record(m: Record<string, any>): void {
    const id = m.id as string;
    const known = this.latest.has(id);
    this.keep(m);
    if (!known) this.all.push(id);
    // The first message after an empty checkpoint (what txcript writes at a compaction) starts the conversation again.
    if (this.cleared && !known) this.restarts.add(id);
    this.cleared = false;
    if (!this.inActive.has(id)) {
      this.active.push(id);
      this.inActive.add(id);
    }
  }

  private rewind(id: string): void {
    const at = this.active.indexOf(id);
    const removed = at < 0 ? this.active : this.active.slice(at);
    for (const r of removed) this.inActive.delete(r);
    this.active = at < 0 ? [] : this.active.slice(0, at);
  }

  private checkpoint(list: unknown[]): void {
    this.active = [];
    this.inActive.clear();
    this.cleared = list.length === 0 && this.all.length > 0;
    for (const m of list) {
      if (!m || typeof m !== 'object' || typeof (m as any).id !== 'string') continue;
      const rec = m as Record<string, any>;
      const known = this.latest.has(rec.id);
      this.keep(rec);
      if (!known) {
        this.all.push(rec.id);
        if (isSnapshotRecord(rec)) this.restarts.add(rec.id);
      }
      if (!this.inActive.has(rec.id)) {
        this.active.push(rec.id);
        this.inActive.add(rec.id);
      }
    }
  }
}
