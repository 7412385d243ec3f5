// Where a Codex rollout becomes Common: the conversation `codex exec resume` rebuilds from
// the file. Only `response_item` lines are conversation (and `compacted` lines that carry a
// `replacement_history`, which replaces all before it); event, context and bookkeeping
// lines give the session line and usage. Messages wait in a spool (memory up to 1 MB,
// then a temporary file) because the session line, written first, is known only at the
// end, and because a rollback (`thread_rolled_back`) takes back messages already made.
import { isModeled, type Block, type CommonMessage, type CommonSession, type Usage } from '../common.js';
import { Spool } from '../core/output/spool.js';
import { abortedResult, compactionBlock, contentBlocks, isContextualUserMessage, itemSide, outputCallId, thinkingBlock, toolResultBlock, toolUseBlock } from './blocks.js';

/** How the conversion runs. */
export interface CodexToCommonOptions {
  /** The file the lines come from (undefined on stdin). */
  src?: string;
  /** Only the conversation the client resumes: from the last compaction on, rollbacks applied. */
  active: boolean;
}

/** What the session line is made of. */
interface Facts {
  id?: string;
  cwd?: string;
  version?: string;
  model?: string;
  startedAt?: string;
  gitBranch?: string;
}

/** One message held in the spool, and what a rollback needs to know of it. */
interface Entry {
  start: number;
  end: number;
  /** A user message that starts a turn (a prompt, not context the client wrote). */
  boundary: boolean;
  /** A developer message or a contextual user message: trimmed with the turn it precedes. */
  contextual: boolean;
}

/** Converts one Codex session's rollout lines to Common. */
export class CodexToCommon {
  private readonly spool = new Spool();
  private entries: Entry[] = [];
  private readonly facts: Facts = {};
  /** The model-generated items of the response being read, as one assistant message. */
  private assistant: CommonMessage | null = null;
  /** The tool results that answer it. */
  private results: CommonMessage | null = null;
  /** Calls not answered yet, in order, with the message that made them. */
  private openCalls = new Map<string, CommonMessage>();
  /** Every call id of the conversation so far (an output of none is an orphan the client drops). */
  private calls = new Set<string>();
  private model: string | undefined;
  private restart = false;
  private sawSessionMeta = false;

  constructor(private readonly opts: CodexToCommonOptions) {}

  /** On stdin: a session_meta line of another session that names no parent begins a new session. */
  startsNewSession(line: any): boolean {
    if (line?.type !== 'session_meta' || !this.sawSessionMeta) return false;
    const p = line.payload;
    if (!p || typeof p !== 'object' || p.forked_from_id || p.parent_thread_id) return false;
    return typeof p.id === 'string' && this.facts.id !== undefined && p.id !== this.facts.id;
  }

  /** Every kind of line can hold a part of the conversation. */
  reads(): boolean {
    return true;
  }

  /** Take one parsed rollout line (`n`: its line number). */
  push(line: any, n: number): void {
    if (!line || typeof line !== 'object') return;
    const p = line.payload;
    const ts = typeof line.timestamp === 'string' ? line.timestamp : undefined;
    if (ts !== undefined) this.facts.startedAt ??= ts;
    switch (line.type) {
      case 'session_meta':
        this.sessionMeta(p);
        return;
      case 'turn_context':
        if (p && typeof p.model === 'string') {
          this.model = p.model;
          this.facts.model ??= p.model;
        }
        if (p && typeof p.cwd === 'string') this.facts.cwd ??= p.cwd;
        return;
      case 'response_item':
        if (p && typeof p === 'object') this.item(p, `line-${n}`, ts);
        return;
      case 'compacted':
        if (p && Array.isArray(p.replacement_history)) this.compacted(p.replacement_history, n, ts);
        return;
      case 'event_msg':
        if (p?.type === 'token_count') this.usage(p.info?.last_token_usage);
        else if (p?.type === 'thread_rolled_back' && typeof p.num_turns === 'number') this.rollback(p.num_turns);
        return;
      default:
        // Early rollouts: a header object ({id, timestamp, instructions}), then bare response items.
        if (line.type === undefined && typeof line.id === 'string' && 'instructions' in line) {
          this.facts.id ??= line.id;
          this.sawSessionMeta = true;
        } else if (line.payload === undefined && typeof line.type === 'string' && itemSide(line) !== 'none') this.item(line, `line-${n}`, ts);
    }
  }

  /** The session line, then its messages, each one line of text. */
  *finish(): Generator<string | Buffer> {
    this.endTurn(true);
    yield JSON.stringify(this.sessionLine()) + '\n';
    for (const e of this.entries) yield* this.spool.range(e.start, e.end);
  }

  /** Codex keeps no subagent transcripts beside a rollout. */
  followers(): string[] {
    return [];
  }

  /** Remove the temporary file, whatever happened. */
  dispose(): void {
    this.spool.clear();
  }

  private sessionMeta(p: any): void {
    if (!p || typeof p !== 'object') return;
    const first = !this.sawSessionMeta;
    this.sawSessionMeta = true;
    if (!first) return;
    if (typeof p.id === 'string') this.facts.id = p.id;
    if (typeof p.cwd === 'string') this.facts.cwd = p.cwd;
    if (typeof p.cli_version === 'string') this.facts.version = p.cli_version;
    if (typeof p.timestamp === 'string') this.facts.startedAt = p.timestamp;
    if (typeof p.git?.branch === 'string') this.facts.gitBranch = p.git.branch;
  }

  private sessionLine(): CommonSession {
    const f = this.facts;
    const stem = this.opts.src?.split('/').pop()?.replace(/\.jsonl$/, '');
    const s: CommonSession = { type: 'session', harness: 'codex', id: f.id ?? stem ?? '' };
    if (f.cwd !== undefined) s.cwd = f.cwd;
    if (f.gitBranch !== undefined) s.git_branch = f.gitBranch;
    if (f.version !== undefined) s.version = f.version;
    if (f.model !== undefined) s.model = f.model;
    if (f.startedAt !== undefined) s.started_at = f.startedAt;
    if (this.opts.src !== undefined) s.src = this.opts.src;
    return s;
  }

  /** One response item, in conversation order. */
  private item(item: any, id: string, ts: string | undefined): void {
    const side = itemSide(item);
    if (side === 'none') return;
    if (side === 'assistant') {
      // A new response: the last one's calls that got no output by now never will.
      if (this.results || (!this.assistant && this.openCalls.size > 0)) this.endTurn(true);
      const blocks = this.assistantBlocks(item, id);
      if (blocks.length === 0) return;
      if (!this.assistant) {
        this.assistant = this.message('assistant', typeof item.id === 'string' ? item.id : id, ts);
        if (this.model !== undefined) this.assistant.model = this.model;
      }
      this.assistant.content.push(...blocks);
      // A web search runs on the server: it has no output to wait for.
      for (const b of blocks) {
        if (!isModeled(b) || b.type !== 'tool_use' || b.native_type === 'web_search_call') continue;
        this.openCalls.set(b.id, this.assistant);
        this.calls.add(b.id);
      }
      return;
    }
    if (side === 'result') {
      const callId = outputCallId(item);
      // The client drops an output whose call is not in the conversation.
      if (callId === null || !this.calls.has(callId)) {
        if (this.opts.active) return;
      }
      this.results ??= this.message('user', typeof item.id === 'string' ? item.id : id, ts);
      this.results.content.push(toolResultBlock(item));
      if (callId !== null) this.openCalls.delete(callId);
      return;
    }
    // A user or developer message: a message of its own. A prompt ends the turn; an output
    // may still follow a developer or context message (the client writes some between a
    // call and its output).
    const contextual = side === 'developer' || isContextualUserMessage(item);
    this.endTurn(!contextual);
    const m = this.message('user', typeof item.id === 'string' ? item.id : id, ts);
    m.content = contentBlocks(item.content);
    if (side === 'developer') m.developer = true;
    this.emit(m, !contextual, contextual);
  }

  private assistantBlocks(item: any, id: string): Block[] {
    if (item.type === 'message') return contentBlocks(item.content);
    if (item.type === 'reasoning') return [thinkingBlock(item)];
    if (item.type === 'compaction' || item.type === 'context_compaction') return [compactionBlock(item)];
    const use = toolUseBlock(item, id);
    if (!use) return [];
    return [use];
  }

  private message(role: 'user' | 'assistant', id: string, ts: string | undefined): CommonMessage {
    const m: CommonMessage = { type: 'message', id, role, content: [] };
    if (ts !== undefined) m.timestamp = ts;
    return m;
  }

  /**
   * Emit the open response and its results. With `settle`, calls still without output get
   * the client's "aborted" output (with the results, or in a message of their own).
   */
  private endTurn(settle: boolean): void {
    if (settle && this.openCalls.size > 0) {
      const caller = this.openCalls.values().next().value as CommonMessage;
      this.results ??= this.message('user', `${caller.id}:aborted`, caller.timestamp);
      this.results.content.push(...[...this.openCalls.keys()].map(abortedResult));
      this.openCalls.clear();
    }
    if (this.assistant) this.emit(this.assistant, false, false);
    if (this.results) this.emit(this.results, false, false);
    this.assistant = null;
    this.results = null;
  }

  private emit(m: CommonMessage, boundary: boolean, contextual: boolean): void {
    if (this.restart) {
      m.after_compaction = true;
      this.restart = false;
    }
    const start = this.spool.size;
    this.spool.write(JSON.stringify(m));
    this.spool.write('\n');
    this.entries.push({ start, end: this.spool.size, boundary, contextual });
  }

  /** A compaction: its replacement history is the conversation from here on (under --active, all of it). */
  private compacted(history: unknown[], n: number, ts: string | undefined): void {
    this.endTurn(true);
    if (this.opts.active) this.entries = [];
    this.calls = new Set();
    this.restart = true;
    history.forEach((item, i) => {
      if (item && typeof item === 'object') this.item(item, `line-${n}.${i}`, ts);
    });
    this.endTurn(true);
    this.restart = false;
  }

  /** Usage of the response just read (the CLI reports it after the response's items). */
  private usage(u: any): void {
    if (!this.assistant || this.assistant.usage || !u || typeof u !== 'object') return;
    const usage: Usage = {};
    if (typeof u.input_tokens === 'number') usage.input_tokens = u.input_tokens;
    if (typeof u.output_tokens === 'number') usage.output_tokens = u.output_tokens;
    if (typeof u.cached_input_tokens === 'number') usage.cache_read_input_tokens = u.cached_input_tokens;
    if (typeof u.reasoning_output_tokens === 'number') usage.reasoning_output_tokens = u.reasoning_output_tokens;
    if (typeof u.total_tokens === 'number') usage.total_tokens = u.total_tokens;
    this.assistant.usage = usage;
  }

  /**
   * Undo the last `turns` user turns, as the client does (under --active only): cut at the
   * turn's prompt, and with it the context messages just above it; never above the first
   * prompt, and nothing when there is no prompt.
   */
  private rollback(turns: number): void {
    if (!this.opts.active || turns <= 0) return;
    this.endTurn(true);
    const boundaries: number[] = [];
    this.entries.forEach((e, i) => e.boundary && boundaries.push(i));
    if (boundaries.length === 0) return;
    const first = boundaries[0]!;
    let cut = turns >= boundaries.length ? first : boundaries[boundaries.length - turns]!;
    while (cut > first && this.entries[cut - 1]!.contextual) cut--;
    this.entries = this.entries.slice(0, cut);
  }
}
