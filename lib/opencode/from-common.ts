// A Common session written as OpenCode lines: the session's info, then its messages with
// their parts, what `opencode import` takes (as an export document, export-document.ts)
// and what db-sql.ts writes into the store. OpenCode keeps a call and its result in one
// tool part of the assistant message that made the call, so an assistant message waits
// until the user message with its results has come (or the next assistant message, or
// the end: a call never answered is written as a call that failed, which the client sends
// as an error result). Every other block has a part of its own: text, reasoning (the
// signature in Anthropic's metadata), files for images and documents. Two things of
// other clients have no OpenCode counterpart and are left out, each with a warning: a
// slash command a person ran (a tool_use in a user message, and its result; the prompt
// it expanded to stays) and a search the API ran on its own side (Codex's
// web_search_call, a call no result answers).
import { usableBlocks, type Block, type CommonMessage, type CommonSession } from '../common.js';
import { IdMaker, isClientId } from './ids.js';
import type { MessageInfo, MessageWithParts, Part, SessionInfo } from './shape.js';

/** What the written session says of itself where Common does not. */
export interface OpencodeFromCommonOptions {
  /** The new session's id (one of the client's shape, `ses_…`); made from the session's when absent. */
  sessionId?: string;
  /** The project directory the session is for (default: the Common session's cwd, else "/"). */
  cwd?: string;
  /** The provider of the messages' model (default: guessed from the model's name). */
  providerID?: string;
  /**
   * The model the session continues with. The client resumes with the model of the last
   * user message, so a session from another harness must name one the user's OpenCode
   * has (default: the model of the assistant messages so far).
   */
  continueWith?: { providerID: string; modelID: string };
  /** The client version the session claims (default 1.18.33, the version this writer was checked against). */
  version?: string;
  /** The time the session is written, for messages without a timestamp. */
  now?: number;
  /** What the ids' tails are made from (default: the Common session's harness and id); another seed, other ids, so a copy never shares one with its source. */
  seed?: string;
}

/** The text written for a call that has no result in the Common session. */
export const UNANSWERED_TEXT = '[Tool execution was interrupted]';

const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The provider a model name belongs to, as the client names providers. */
export function providerOf(model: string | undefined): string {
  if (!model) return 'anthropic';
  if (/^(gpt|o\d|codex)/i.test(model)) return 'openai';
  if (/^gemini/i.test(model)) return 'google';
  return 'anthropic';
}

/** A block's media as a data URL (or its URL). */
function urlOf(source: any): { mime: string; url: string } | null {
  if (!isObject(source)) return null;
  if (source.type === 'base64' && typeof source.data === 'string') {
    const mime = typeof source.media_type === 'string' ? source.media_type : 'application/octet-stream';
    return { mime, url: `data:${mime};base64,${source.data}` };
  }
  if (source.type === 'url' && typeof source.url === 'string') return { mime: typeof source.media_type === 'string' ? source.media_type : 'image/png', url: source.url };
  return null;
}

/** Writes one Common session as OpenCode lines. */
export class OpencodeWriter {
  /** Problems found so far (taken by the caller, who empties the array). */
  warnings: string[] = [];
  private readonly ids: IdMaker;
  private readonly sessionID: string;
  private readonly created: number;
  private readonly cwd: string;
  private clock: number;
  private lastUser: string | null = null;
  /** The assistant message waiting for its results, and its calls not answered yet, by call id. */
  private held: MessageWithParts | null = null;
  private open = new Map<string, Part>();
  private model: string | undefined;

  constructor(
    private readonly session: CommonSession,
    private readonly opts: OpencodeFromCommonOptions = {},
  ) {
    const started = session.started_at ? Date.parse(session.started_at) : NaN;
    this.created = Number.isFinite(started) ? started : (opts.now ?? Date.now());
    this.clock = this.created;
    this.ids = new IdMaker(opts.seed ?? `${session.harness}\0${session.id}`);
    this.sessionID = opts.sessionId ?? this.ids.session(this.created);
    if (!isClientId(this.sessionID, 'session') && !/^ses_[0-9A-Za-z]+$/.test(this.sessionID)) throw new Error(`not an OpenCode session id: ${this.sessionID}`);
    this.cwd = opts.cwd ?? session.cwd ?? '/';
    this.model = session.model;
  }

  /** The session's info: the first line. */
  info(): SessionInfo {
    const title = this.session.title ?? this.session.custom_title ?? this.session.ai_title ?? `Session ${this.session.id}`;
    const info: SessionInfo = {
      id: this.sessionID,
      slug: this.sessionID.slice(-8).toLowerCase(),
      projectID: 'global',
      directory: this.cwd,
      title,
      version: this.opts.version ?? '1.18.33',
      time: { created: this.created, updated: this.created },
    };
    return info;
  }

  /** The lines one Common message completes (an assistant message may wait for its results). */
  message(m: CommonMessage): MessageWithParts[] {
    const blocks = usableBlocks(m, this.warnings);
    if (blocks === null) return [];
    const time = this.tick(m.timestamp);
    if (m.model) this.model = m.model;
    if (m.role === 'assistant') {
      const out = this.flush();
      this.held = this.assistant(m, blocks, time);
      return out;
    }
    const rest: Block[] = [];
    const commands = new Set<string>();
    for (const b of blocks as any[]) {
      if (b.type === 'tool_use') {
        commands.add(b.id);
        this.warnings.push(`a slash command (${String(b.name)}) has no OpenCode part, left out`);
      } else if (b.type === 'tool_result' && commands.has(b.tool_use_id)) continue;
      else if (b.type === 'tool_result') this.answer(b, time);
      else rest.push(b);
    }
    if (rest.length === 0) return this.open.size === 0 ? this.flush() : [];
    const out = this.flush();
    const user = this.user(rest, time);
    if (user) out.push(user);
    return out;
  }

  /** The lines still held at the end. */
  finish(): MessageWithParts[] {
    return this.flush();
  }

  /** A time for the next message: its own when it does not go back, else just after the last. */
  private tick(timestamp: string | undefined): number {
    const t = timestamp ? Date.parse(timestamp) : NaN;
    this.clock = Number.isFinite(t) && t >= this.clock ? t : this.clock + 1;
    return this.clock;
  }

  private part(messageID: string, time: number, fields: Record<string, unknown>): Part {
    return { ...fields, id: this.ids.ascending('part', time), sessionID: this.sessionID, messageID } as Part;
  }

  private user(blocks: Block[], time: number): MessageWithParts | null {
    const id = this.ids.ascending('message', time);
    const parts: Part[] = [];
    for (const b of blocks as any[]) {
      if (b.type === 'text') parts.push(this.part(id, time, { type: 'text', text: b.text }));
      else if (b.type === 'image' || b.type === 'document') {
        const media = urlOf(b.source);
        if (media) parts.push(this.part(id, time, { type: 'file', mime: media.mime, url: media.url, ...(typeof b.title === 'string' ? { filename: b.title } : {}) }));
        else this.warnings.push(`a ${b.type} block without a usable source, left out`);
      } else if (b.type === 'artifact') {
        const text = b.source?.type === 'text' ? b.source.text : b.source?.type === 'path' ? b.source.path : null;
        if (typeof text === 'string') parts.push(this.part(id, time, { type: 'text', text }));
        else this.warnings.push('an artifact block written as nothing (OpenCode has no artifacts), left out');
      } else this.warnings.push(`a ${String(b.type)} block in a user message (OpenCode has no such part), left out`);
    }
    if (parts.length === 0) return null;
    this.lastUser = id;
    const model = this.model ?? 'unknown';
    const continueWith = this.opts.continueWith ?? { providerID: this.opts.providerID ?? providerOf(model), modelID: model };
    const info = { role: 'user', time: { created: time }, agent: 'build', model: { providerID: continueWith.providerID, modelID: continueWith.modelID }, id, sessionID: this.sessionID } as MessageInfo;
    return { info, parts };
  }

  private assistant(m: CommonMessage, blocks: Block[], time: number): MessageWithParts {
    const id = this.ids.ascending('message', time);
    const model = m.model ?? this.model ?? 'unknown';
    const parts: Part[] = [this.part(id, time, { type: 'step-start' })];
    for (const b of blocks as any[]) {
      switch (b.type) {
        case 'text':
          parts.push(this.part(id, time, { type: 'text', text: b.text, time: { start: time, end: time } }));
          break;
        case 'thinking':
          parts.push(this.part(id, time, { type: 'reasoning', text: b.thinking, ...(b.signature ? { metadata: { anthropic: { signature: b.signature } } } : {}), time: { start: time, end: time } }));
          break;
        case 'redacted_thinking':
          parts.push(this.part(id, time, { type: 'reasoning', text: '', metadata: { anthropic: { redactedData: b.data } }, time: { start: time, end: time } }));
          break;
        case 'tool_use': {
          if (b.native_type === 'web_search_call') {
            this.warnings.push('a web search the API ran itself (no result to give back), left out');
            break;
          }
          const input = isObject(b.input) ? b.input : {};
          const p = this.part(id, time, { type: 'tool', tool: b.name, callID: b.id, state: { status: 'pending', input, raw: JSON.stringify(input) } });
          parts.push(p);
          this.open.set(b.id, p);
          break;
        }
        default:
          this.warnings.push(`a ${String(b.type)} block in an assistant message (OpenCode has no such part), left out`);
      }
    }
    const tokens = this.tokens(m);
    const finish = m.stop_reason === 'tool_use' ? 'tool-calls' : m.stop_reason === 'max_tokens' ? 'length' : 'stop';
    parts.push(this.part(id, time, { reason: finish, type: 'step-finish', tokens, cost: 0 }));
    const info = {
      parentID: this.lastUser ?? this.ids.ascending('message', time),
      role: 'assistant',
      mode: 'build',
      agent: 'build',
      path: { cwd: this.cwd, root: '/' },
      cost: 0,
      tokens,
      modelID: model,
      providerID: this.opts.providerID ?? providerOf(model),
      time: { created: time, completed: time },
      finish,
      id,
      sessionID: this.sessionID,
    } as MessageInfo;
    return { info, parts };
  }

  private tokens(m: CommonMessage): { total: number; input: number; output: number; reasoning: number; cache: { read: number; write: number } } {
    const u = isObject(m.usage) ? m.usage : {};
    const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
    const reasoning = n(u.reasoning_output_tokens);
    const t = { input: n(u.input_tokens), output: Math.max(0, n(u.output_tokens) - reasoning), reasoning, cache: { read: n(u.cache_read_input_tokens), write: n(u.cache_creation_input_tokens) } };
    return { total: t.input + t.output + t.reasoning + t.cache.read + t.cache.write, ...t };
  }

  /** Give a call its result. */
  private answer(b: { tool_use_id: string; content: unknown; is_error?: boolean }, time: number): void {
    const p = this.open.get(b.tool_use_id);
    if (!p) {
      this.warnings.push(`a tool_result for ${b.tool_use_id}, which no call before it made, left out`);
      return;
    }
    this.open.delete(b.tool_use_id);
    const input = p.state.input;
    let text = '';
    const attachments: Part[] = [];
    if (typeof b.content === 'string') text = b.content;
    else if (Array.isArray(b.content)) {
      const texts: string[] = [];
      for (const c of b.content) {
        if (c?.type === 'text' && typeof c.text === 'string') texts.push(c.text);
        else if (c?.type === 'image' || c?.type === 'document') {
          const media = urlOf(c.source);
          if (media) attachments.push(this.part(p.messageID, time, { type: 'file', mime: media.mime, url: media.url }));
        } else this.warnings.push(`a ${String(c?.type)} block in a tool result, left out`);
      }
      text = texts.join('\n');
    }
    const start = this.held?.info.time.created ?? time;
    p.state = b.is_error
      ? { status: 'error', input, error: text, time: { start, end: time } }
      : { status: 'completed', input, output: text, title: '', metadata: {}, time: { start, end: time }, ...(attachments.length ? { attachments } : {}) };
  }

  /** The held assistant message, its unanswered calls marked failed. */
  private flush(): MessageWithParts[] {
    if (!this.held) return [];
    const start = this.held.info.time.created;
    for (const p of this.open.values()) p.state = { status: 'error', input: p.state.input, error: UNANSWERED_TEXT, time: { start, end: start } };
    this.open.clear();
    const out = [this.held];
    this.held = null;
    return out;
  }
}
