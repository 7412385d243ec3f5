// Where Common becomes a Codex rollout: one message in, the rollout lines that carry it
// out. The conversation is `response_item` lines, as `codex exec resume` reads them; the
// `event_msg` lines beside them are what the client lists and shows a session by (its
// first prompt, the replies). Nothing is random: timestamps come from the input, so the
// same input always gives the same bytes.
import type { FromCommonOptions, NativeWriter } from '../codec.js';
import { blockProblem, isModeled, usableBlocks, type Block, type CommonMessage, type CommonSession, type ImageBlock, type ToolResultBlock, type ToolUseBlock, type Usage } from '../common.js';
import { stringifyJson } from '../core/json/json-text.js';
import { isContextualUserMessage, RAW_ARGUMENTS } from './blocks.js';

/** The Codex CLI version written in session_meta when the session does not come from Codex: the version this writer is checked against. */
export const CODEX_CLI_VERSION = '0.169.0';

/** Who wrote the rollout (session_meta `originator`). */
export const ORIGINATOR = 'txcript';

const EPOCH = '1970-01-01T00:00:00.000Z';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A timestamp as RFC 3339: kept when it is one, converted when it parses as another form of date, else null (so is a date that does not exist). */
export function rfc3339(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  const date = new Date(ms);
  // Date.parse rolls some impossible dates over (February 30th); a kept date must be the one written.
  if (RFC3339.test(value)) return value.slice(0, 10) === date.toISOString().slice(0, 10) || !value.endsWith('Z') ? value : null;
  return date.getUTCFullYear() >= 0 && date.getUTCFullYear() <= 9999 ? date.toISOString() : null;
}

type Item = Record<string, unknown>;

/** Writes one Common session as the lines of a Codex rollout. */
export class CommonToCodex implements NativeWriter {
  readonly warnings: string[] = [];
  private started = false;
  private at: string;
  private model: string | undefined;
  /** The native type of each call written (`custom_tool_call`, ...), so its output takes the matching type. */
  private readonly calls = new Map<string, string>();
  private readonly total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  /** The last message's timestamp: when the session was last updated (session_index). */
  lastTimestamp: string | null = null;
  /** True when a line was written. */
  get wrote(): boolean {
    return this.started;
  }

  constructor(
    private readonly session: CommonSession,
    private readonly options: FromCommonOptions,
  ) {
    this.at = rfc3339(session.started_at) ?? EPOCH;
  }

  /** True when signatures and native types came from Codex, so they can go back to it. */
  private get fromCodex(): boolean {
    return this.session.harness === 'codex';
  }

  /** The rollout lines of one Common message. */
  message(given: CommonMessage): object[] {
    const content = usableBlocks(given, this.warnings);
    if (content === null) return [];
    const stamp = rfc3339(given.timestamp);
    const lines: object[] = [];
    const items: { item: Item; events: Item[] }[] = given.role === 'assistant' ? this.assistantItems(content) : this.userItems(given, content);
    if (items.length === 0) {
      this.warnings.push('a message with no block Codex can carry, skipped');
      return [];
    }
    if (!this.started) {
      if (this.session.started_at === undefined && stamp !== null) this.at = stamp;
      lines.push(this.sessionMeta());
      this.started = true;
    }
    if (stamp !== null) this.at = stamp;
    this.lastTimestamp = this.at;
    const model = given.model ?? this.session.model;
    if (this.fromCodex && given.role === 'assistant' && model !== undefined && model !== this.model) {
      this.model = model;
      lines.push(this.turnContext(model));
    }
    if (given.after_compaction) {
      // The client rebuilds the conversation from a compacted line's replacement history and
      // appends what follows: the first message after the compaction is that history, the
      // rest follow it as they would any other message.
      lines.push(this.line('compacted', { message: '', replacement_history: items.map((i) => i.item) }));
      for (const { events } of items) for (const e of events) lines.push(this.line('event_msg', e));
    } else {
      for (const { item, events } of items) {
        lines.push(this.line('response_item', item));
        for (const e of events) lines.push(this.line('event_msg', e));
      }
    }
    if (given.role === 'assistant' && given.usage) lines.push(this.line('event_msg', this.tokenCount(given.usage)));
    return lines;
  }

  /** Nothing is held back: the session ends with its last message. */
  finish(): object[] {
    return [];
  }

  /** The session_index.jsonl entry that names the session, or null when it has no name. */
  indexEntry(): object | null {
    const name = this.session.custom_title ?? this.session.title;
    if (!this.started || name === undefined || name.trim() === '') return null;
    return { id: this.options.sessionId, thread_name: name, updated_at: this.lastTimestamp ?? this.at };
  }

  private line(type: string, payload: unknown): object {
    return { timestamp: this.at, type, payload };
  }

  private sessionMeta(): object {
    const s = this.session;
    const meta: Item = {
      id: this.options.sessionId,
      timestamp: this.at,
      cwd: this.options.cwd ?? s.cwd ?? '/',
      originator: ORIGINATOR,
      cli_version: this.fromCodex && s.version !== undefined ? s.version : CODEX_CLI_VERSION,
      source: 'cli',
      model_provider: 'openai',
    };
    if (s.git_branch !== undefined) meta.git = { branch: s.git_branch };
    return this.line('session_meta', meta);
  }

  /** The turn settings the client keeps per turn; Common holds only the model, the rest is the most restrictive. */
  private turnContext(model: string): object {
    return this.line('turn_context', { cwd: this.options.cwd ?? this.session.cwd ?? '/', approval_policy: 'on-request', sandbox_policy: { type: 'read-only' }, model, summary: 'auto' });
  }

  private tokenCount(u: Usage): Item {
    const last = {
      input_tokens: num(u.input_tokens),
      cached_input_tokens: num(u.cache_read_input_tokens),
      output_tokens: num(u.output_tokens),
      reasoning_output_tokens: num(u.reasoning_output_tokens),
      total_tokens: typeof u.total_tokens === 'number' ? u.total_tokens : num(u.input_tokens) + num(u.output_tokens),
    };
    for (const k of Object.keys(this.total) as (keyof typeof last)[]) this.total[k] += last[k];
    return { type: 'token_count', info: { total_token_usage: { ...this.total }, last_token_usage: last, model_context_window: null }, rate_limits: null };
  }

  private assistantItems(content: Block[]): { item: Item; events: Item[] }[] {
    const out: { item: Item; events: Item[] }[] = [];
    let texts: string[] = [];
    const flush = () => {
      if (texts.length === 0) return;
      out.push({ item: { type: 'message', role: 'assistant', content: texts.map((text) => ({ type: 'output_text', text })) }, events: [{ type: 'agent_message', message: texts.join('\n\n') }] });
      texts = [];
    };
    for (const b of content) {
      if (isModeled(b) && b.type === 'text') {
        texts.push(b.text);
        continue;
      }
      flush();
      const item = this.assistantItem(b);
      if (item) out.push(item);
    }
    flush();
    return out;
  }

  private assistantItem(b: Block): { item: Item; events: Item[] } | null {
    if (!isModeled(b)) {
      this.warnings.push(`a ${b.type} block has no Codex form, left out`);
      return null;
    }
    switch (b.type) {
      case 'thinking': {
        const item: Item = { type: 'reasoning', summary: b.thinking === '' ? [] : [{ type: 'summary_text', text: b.thinking }] };
        // A signature only Claude can read is no Codex encrypted_content.
        if (this.fromCodex && b.signature !== undefined) item.encrypted_content = b.signature;
        return { item, events: b.thinking === '' ? [] : [{ type: 'agent_reasoning', text: b.thinking }] };
      }
      case 'redacted_thinking':
        if (b.native_type === 'compaction' || b.native_type === 'context_compaction') return { item: { type: b.native_type, encrypted_content: b.data }, events: [] };
        this.warnings.push('a redacted_thinking block (reasoning only Claude can read) has no Codex form, left out');
        return null;
      case 'tool_use':
        return { item: this.callItem(b), events: [] };
      case 'artifact':
        if (b.source.type === 'path') {
          const input: Item = { file_path: b.source.path };
          if (b.description !== undefined) input.description = b.description;
          this.calls.set(b.id, 'function_call');
          return { item: { type: 'function_call', name: 'Artifact', arguments: stringifyJson(input), call_id: b.id }, events: [] };
        }
        this.warnings.push(`artifact ${JSON.stringify(b.name)} has inline bytes, which a rollout cannot carry, left out`);
        return null;
      default:
        this.warnings.push(`a ${b.type} block on an assistant message has no Codex form, left out`);
        return null;
    }
  }

  /** A tool_use as the call item it came from (Codex), or as a function call (custom for freeform input). */
  private callItem(b: ToolUseBlock): Item {
    const input = b.input && typeof b.input === 'object' && !Array.isArray(b.input) ? b.input : { input: b.input };
    const native = this.fromCodex ? b.native_type : freeform(input) ? 'custom_tool_call' : undefined;
    switch (native) {
      case 'custom_tool_call':
        this.calls.set(b.id, native);
        return { type: 'custom_tool_call', status: 'completed', call_id: b.id, name: b.name, input: typeof input.input === 'string' ? input.input : stringifyJson(input.input ?? '') };
      case 'local_shell_call':
        this.calls.set(b.id, native);
        return { type: 'local_shell_call', call_id: b.id, status: 'completed', action: input };
      case 'web_search_call':
        // A web search runs on the server: no output answers it. One the rollout gave no action (an empty input) gets none.
        return Object.keys(input).length === 0 ? { type: 'web_search_call', id: b.id, status: 'completed' } : { type: 'web_search_call', id: b.id, status: 'completed', action: input };
      case 'tool_search_call':
        this.calls.set(b.id, native);
        return { type: 'tool_search_call', call_id: b.id, status: 'completed', arguments: input };
      default:
        this.calls.set(b.id, 'function_call');
        return { type: 'function_call', name: b.name, arguments: argumentsText(input), call_id: b.id };
    }
  }

  private userItems(m: CommonMessage, content: Block[]): { item: Item; events: Item[] }[] {
    const out: { item: Item; events: Item[] }[] = [];
    const role = m.developer ? 'developer' : 'user';
    let pieces: Item[] = [];
    const flush = () => {
      if (pieces.length === 0) return;
      const item: Item = { type: 'message', role, content: pieces };
      pieces = [];
      out.push({ item, events: role === 'user' && !isContextualUserMessage(item) ? [userMessageEvent(item.content as Item[])] : [] });
    };
    for (const b of content) {
      if (!isModeled(b)) {
        this.warnings.push(`a ${b.type} block has no Codex form, left out`);
        continue;
      }
      switch (b.type) {
        case 'text':
          pieces.push({ type: 'input_text', text: b.text });
          break;
        case 'image':
          pieces.push(imagePiece(b));
          break;
        case 'tool_use':
          // A command the person ran in the client (a Claude Code slash command): what they typed.
          pieces.push({ type: 'input_text', text: commandText(b) });
          break;
        case 'tool_result':
          if (this.calls.has(b.tool_use_id) || !this.isCommandResult(m, b)) {
            flush();
            out.push({ item: this.outputItem(b), events: [] });
          } else pieces.push({ type: 'input_text', text: resultText(b) });
          break;
        default:
          this.warnings.push(`a ${b.type} block on a user message has no Codex form, left out`);
      }
    }
    flush();
    return out;
  }

  /** True for the output of a command run in the same message (no call of the model answers it). */
  private isCommandResult(m: CommonMessage, r: ToolResultBlock): boolean {
    return m.content.some((b) => isModeled(b) && b.type === 'tool_use' && b.id === r.tool_use_id);
  }

  private outputItem(b: ToolResultBlock): Item {
    const call = this.calls.get(b.tool_use_id);
    // A search's tools are a JSON list; any other answer (the "aborted" a call without output gets) is plain output.
    const tools = call === 'tool_search_call' ? searchTools(b.content) : null;
    if (tools !== null) return { type: 'tool_search_output', call_id: b.tool_use_id, status: 'completed', tools };
    const type = call === 'custom_tool_call' ? 'custom_tool_call_output' : 'function_call_output';
    return { type, call_id: b.tool_use_id, output: this.outputOf(b.content) };
  }

  /** Tool output as Codex sends it: a string, or content items (text and images). */
  private outputOf(content: unknown): unknown {
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) return content === undefined || content === null ? '' : stringifyJson(content);
    const items: Item[] = [];
    for (const b of content as Block[]) {
      if (b && b.type === 'text' && typeof (b as { text?: unknown }).text === 'string') items.push({ type: 'input_text', text: (b as { text: string }).text });
      else if (b && b.type === 'image' && blockProblem(b) === null) items.push(imagePiece(b as ImageBlock));
      else this.warnings.push(`a ${typeof b?.type === 'string' ? b.type : 'typeless'} block in a tool result has no Codex form, left out`);
    }
    return items;
  }
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** True for an input that is freeform text wrapped as an object (`{"input": text}`), as a custom tool takes it. */
function freeform(input: Record<string, unknown>): boolean {
  const keys = Object.keys(input);
  return keys.length === 1 && keys[0] === 'input' && typeof input.input === 'string';
}

/** A call's arguments as the JSON text Codex keeps; arguments that were not a JSON object go back as they were. */
function argumentsText(input: Record<string, unknown>): string {
  const keys = Object.keys(input);
  if (keys.length === 1 && keys[0] === RAW_ARGUMENTS && typeof input[RAW_ARGUMENTS] === 'string') return input[RAW_ARGUMENTS] as string;
  return stringifyJson(input);
}

/** An image as a message content piece: base64 data as a data URL, a URL as it is. */
function imagePiece(b: ImageBlock): Item {
  const src = b.source as { type: string; media_type?: string; data?: string; url?: string };
  const url = src.type === 'base64' ? `data:${src.media_type ?? 'application/octet-stream'};base64,${src.data ?? ''}` : String(src.url ?? '');
  return b.detail === undefined ? { type: 'input_image', image_url: url } : { type: 'input_image', image_url: url, detail: b.detail };
}

/** The event a prompt leaves: its text, and its images as URLs (what the session list shows). */
function userMessageEvent(pieces: Item[]): Item {
  const text = pieces.filter((p) => p.type === 'input_text').map((p) => p.text as string);
  const images = pieces.filter((p) => p.type === 'input_image').map((p) => p.image_url as string);
  return { type: 'user_message', message: text.join('\n'), images };
}

/** A command a person ran, as they typed it: its name and arguments, then the text it expanded to. */
function commandText(b: ToolUseBlock): string {
  const input = b.input && typeof b.input === 'object' ? b.input : {};
  const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : stringifyJson(v));
  const typed = b.name === '!' ? `!${str(input.args)}` : [b.name, str(input.args)].filter((s) => s !== '').join(' ');
  return input.contents === undefined ? typed : `${typed}\n\n${str(input.contents)}`;
}

/** A command's printed output as text. */
function resultText(b: ToolResultBlock): string {
  if (typeof b.content === 'string') return b.content;
  if (Array.isArray(b.content)) return b.content.map((x) => (x.type === 'text' && typeof (x as { text?: unknown }).text === 'string' ? (x as { text: string }).text : '')).join('\n');
  return stringifyJson(b.content);
}

/** A tool search's tools, from the JSON text Common keeps them as; null when the text is not a JSON list. */
function searchTools(content: unknown): unknown[] | null {
  if (typeof content !== 'string') return null;
  try {
    const v: unknown = JSON.parse(content);
    return Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}
