// Where a pi session file becomes Common. The conversation is the tree's `message`,
// `custom_message`, `branch_summary` and `compaction` entries; the header, the session
// name and the models give the session line. Each conversational entry waits in a spool
// (memory up to 1 MB, then a temporary file) as the pi message it stands for, because the
// order is known only at the end: under --active it is the path the client resumes
// (tree.ts), without it the file's order. Then the messages are made in that order
// (assemble.ts).
import type { SessionConverter } from '../codec.js';
import type { CommonSession } from '../common.js';
import { Spool } from '../core/output/spool.js';
import { ContextAssembler, type Piece } from './assemble.js';
import { SessionTree } from './tree.js';

/** How the conversion runs. */
export interface PiToCommonOptions {
  /** The file the lines come from (undefined on stdin). */
  src?: string;
  /** Only the conversation the client resumes: the path to the file's last entry, from its latest compaction. */
  active: boolean;
}

/** What the session line is made of. */
interface Facts {
  id?: string;
  cwd?: string;
  startedAt?: string;
  title?: string;
  model?: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The message an entry stands for in the conversation, or null for an entry that is not conversation. */
function entryMessage(line: any): unknown {
  switch (line.type) {
    case 'message':
      return line.message && typeof line.message === 'object' ? line.message : null;
    case 'custom_message':
      return { role: 'custom', content: line.content };
    case 'branch_summary':
      // The client gives the model a branch's summary only when it has one.
      return typeof line.summary === 'string' && line.summary !== '' ? { role: 'branchSummary', summary: line.summary } : null;
    case 'compaction':
      return { role: 'compactionSummary', summary: line.summary };
    default:
      return null;
  }
}

/** Converts one pi session's lines to Common. */
export class PiToCommon implements SessionConverter {
  private readonly spool = new Spool();
  /** Where each converted entry lies in the spool. */
  private readonly pieces: { start: number; end: number }[] = [];
  private readonly tree = new SessionTree();
  private readonly facts: Facts = {};
  private sawHeader = false;
  /** The header's version (a file without a header is read as the current one). */
  private version = 3;

  constructor(private readonly opts: PiToCommonOptions) {}

  /** On stdin: a second `session` header with another id begins another session. */
  startsNewSession(line: any): boolean {
    return this.sawHeader && line?.type === 'session' && typeof line.id === 'string' && line.id !== this.facts.id;
  }

  /** Every kind of line can be a link of the tree. */
  reads(): boolean {
    return true;
  }

  /** Take one parsed session line (`n`: its line number). */
  push(line: any, n: number): void {
    if (!line || typeof line !== 'object' || Array.isArray(line) || typeof line.type !== 'string') return;
    if (line.type === 'session') {
      this.header(line);
      return;
    }
    const id = this.tree.entry(line, n);
    if (id === null) return;
    if (line.type === 'session_info') {
      // The latest name wins; an empty one takes the name away.
      const name = typeof line.name === 'string' ? line.name.trim() : '';
      this.facts.title = name === '' ? undefined : name;
      return;
    }
    let message: any = entryMessage(line);
    if (message === null) return;
    // The client renames a version 2 file's `hookMessage` to `custom` when it loads it; in a later file the role is unknown to it.
    if (message.role === 'hookMessage' && this.version < 3) message = { ...message, role: 'custom' };
    if (line.type === 'compaction') this.tree.compaction(id, line.firstKeptEntryId ?? line.firstKeptEntryIndex);
    if (message.role === 'assistant' && typeof message.model === 'string') this.facts.model ??= message.model;
    const piece: Piece = { id, message };
    if (typeof line.timestamp === 'string') piece.ts = line.timestamp;
    const start = this.spool.size;
    this.spool.write(JSON.stringify(piece));
    this.tree.piece(id, this.pieces.length);
    this.pieces.push({ start, end: this.spool.size });
  }

  /** The session line, then its messages, each one line of text. */
  *finish(): Generator<string> {
    yield JSON.stringify(this.sessionLine()) + '\n';
    const order = this.opts.active ? this.tree.resumed() : this.pieces.map((_, i) => i);
    const assembler = new ContextAssembler(this.opts.active);
    for (const i of order) {
      for (const m of assembler.push(this.piece(i))) yield JSON.stringify(m) + '\n';
    }
    for (const m of assembler.end()) yield JSON.stringify(m) + '\n';
  }

  /** pi keeps no subagent transcripts. */
  followers(): string[] {
    return [];
  }

  /** Remove the temporary file, whatever happened. */
  dispose(): void {
    this.spool.clear();
  }

  private header(line: any): void {
    const first = !this.sawHeader;
    this.sawHeader = true;
    this.tree.header(line.version);
    if (!first) return;
    this.version = typeof line.version === 'number' ? line.version : 1;
    if (typeof line.id === 'string' && line.id !== '') this.facts.id = line.id;
    if (typeof line.cwd === 'string' && line.cwd !== '') this.facts.cwd = line.cwd;
    if (typeof line.timestamp === 'string') this.facts.startedAt = line.timestamp;
  }

  private piece(i: number): Piece {
    const { start, end } = this.pieces[i]!;
    const parts: Buffer[] = [];
    // Pieces read back share one buffer: copied before the next is asked for.
    for (const part of this.spool.range(start, end)) parts.push(Buffer.from(part));
    return JSON.parse(Buffer.concat(parts).toString('utf8')) as Piece;
  }

  private sessionLine(): CommonSession {
    const f = this.facts;
    const stem = this.opts.src ? UUID.exec(this.opts.src.split('/').pop() ?? '')?.[0] : undefined;
    const s: CommonSession = { type: 'session', harness: 'pi', id: f.id ?? stem ?? '' };
    if (f.title !== undefined) {
      s.title = f.title;
      s.custom_title = f.title;
    }
    if (f.cwd !== undefined) s.cwd = f.cwd;
    if (f.model !== undefined) s.model = f.model;
    if (f.startedAt !== undefined) s.started_at = f.startedAt;
    if (this.opts.src !== undefined) s.src = this.opts.src;
    return s;
  }
}
