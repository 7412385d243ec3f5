// Where Common becomes a pi session file: a `session` header, then one entry per message
// (tool results one entry each, as pi writes them), linked one after the other by
// `parentId`, so the file's last entry is the leaf and the whole file is the path the
// client resumes. The first message after a compaction becomes a `compaction` entry that
// keeps nothing before it, so `pi --session FILE` sends what Common holds from there on.
// Nothing is random: entry ids derive from the session id, timestamps from the input.
import type { FromCommonOptions, NativeWriter } from '../codec.js';
import { usableBlocks, type Block, type CommonMessage, type CommonSession, type ToolResultBlock, type ToolUseBlock } from '../common.js';
import { TXCRIPT_NAMESPACE, uuidV5 } from '../core/uuid.js';
import { piUserContent } from './blocks.js';
import { COMPACTION_SUMMARY_PREFIX, COMPACTION_SUMMARY_SUFFIX, SESSION_VERSION, type PiAssistantBlock } from './format.js';
import { replySource, type ReplySource } from './provider.js';
import { piStopReason, piUsage } from './usage.js';

/** How a Common session is written for pi: `modelProvider` and `config` choose the provider the replies name (provider.ts). */
export type PiWriterOptions = FromCommonOptions;

const EPOCH = '1970-01-01T00:00:00.000Z';

/** A compaction summary as pi stores it: the client's own wording around it taken away, when it is there. */
export function unwrapCompaction(text: string): string {
  return text.startsWith(COMPACTION_SUMMARY_PREFIX) && text.endsWith(COMPACTION_SUMMARY_SUFFIX) ? text.slice(COMPACTION_SUMMARY_PREFIX.length, text.length - COMPACTION_SUMMARY_SUFFIX.length) : text;
}

/** An ISO timestamp as the client writes one, or null for one that is not a date. */
function iso(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

const str = (v: unknown): v is string => typeof v === 'string';

type Entry = Record<string, unknown>;

/** Writes one Common session as the lines of a pi session file. */
export class CommonToPi implements NativeWriter {
  readonly warnings: string[] = [];
  private started = false;
  private parent: string | null = null;
  private readonly ids = new Set<string>();
  private count = 0;
  private at: string;
  /** The provider and model of the last model_change written. */
  private current = '';
  /** Tool names by call id, for the results (pi's toolResult names its tool). */
  private readonly calls = new Map<string, string>();
  private readonly sources = new Map<string, ReplySource>();
  /** Calls of the last reply that no result has answered yet. */
  private unanswered = new Set<string>();
  /** What the user's side said while calls of the last reply were unanswered, written after their results (each with its own time). */
  private held: { at: string; write: (out: Entry[]) => void }[] = [];

  constructor(
    private readonly session: CommonSession,
    private readonly options: PiWriterOptions,
  ) {
    this.at = iso(session.started_at) ?? EPOCH;
  }

  /** The entries of one Common message. */
  message(given: CommonMessage): object[] {
    const content = usableBlocks(given, this.warnings);
    if (content === null) return [];
    const entries: Entry[] = [];
    const stamp = iso(given.timestamp);
    if (!this.started && this.session.started_at === undefined && stamp !== null) this.at = stamp;
    const head = this.started ? [] : [this.header()];
    if (stamp !== null) this.at = stamp;
    if (given.role === 'assistant') this.assistant(given, content, entries);
    else this.user(given, content, entries);
    if (entries.length === 0) return [];
    this.started = true;
    return [...head, ...entries];
  }

  /** The session's name, as pi keeps it (a session_info entry, the latest of which wins). */
  finish(): object[] {
    const out: Entry[] = [];
    this.release(out);
    const name = this.session.custom_title ?? this.session.title;
    if (this.started && name !== undefined && name.trim() !== '') out.push(this.entry('session_info', { name: name.trim() }));
    return out;
  }

  private header(): Entry {
    const h: Entry = { type: 'session', version: SESSION_VERSION, id: this.options.sessionId, timestamp: this.at };
    // Without a cwd the client takes the directory it runs in.
    const cwd = this.options.cwd ?? this.session.cwd;
    if (cwd !== undefined) h.cwd = cwd;
    return h;
  }

  /** The next entry, a child of the last one. */
  private entry(type: string, fields: Entry): Entry {
    let id: string;
    do id = uuidV5(TXCRIPT_NAMESPACE, `${this.options.sessionId}/${this.count++}`).slice(0, 8);
    while (this.ids.has(id));
    this.ids.add(id);
    const e: Entry = { type, id, parentId: this.parent, timestamp: this.at, ...fields };
    this.parent = id;
    return e;
  }

  private messageEntry(message: Entry): Entry {
    return this.entry('message', { message: { ...message, timestamp: Date.parse(this.at) } });
  }

  private assistant(m: CommonMessage, content: Block[], out: Entry[]): void {
    const blocks: PiAssistantBlock[] = [];
    for (const b of content as any[]) {
      if (b.type === 'text') blocks.push({ type: 'text', text: b.text });
      else if (b.type === 'thinking') blocks.push(str(b.signature) ? { type: 'thinking', thinking: b.thinking, thinkingSignature: b.signature } : { type: 'thinking', thinking: b.thinking });
      else if (b.type === 'redacted_thinking') blocks.push({ type: 'thinking', thinking: '[Reasoning redacted]', thinkingSignature: b.data, redacted: true });
      else if (b.type === 'tool_use') {
        this.calls.set(b.id, b.name);
        blocks.push({ type: 'toolCall', id: b.id, name: b.name, arguments: b.input && typeof b.input === 'object' && !Array.isArray(b.input) ? b.input : { input: b.input } });
      } else this.warnings.push(`a ${b.type} block on an assistant message has no pi form, left out`);
    }
    // An aborted or failed reply may be empty; the client keeps it and leaves it out when it sends.
    if (blocks.length === 0 && m.stop_reason !== 'aborted' && m.stop_reason !== 'error') {
      this.warnings.push('an assistant message with no block pi can carry, skipped');
      return;
    }
    this.release(out);
    this.unanswered = new Set(blocks.filter((b) => b.type === 'toolCall').map((b) => (b as { id: string }).id));
    const model = m.model ?? this.session.model ?? 'unknown';
    const { provider, api } = this.sourceOf(model);
    if (`${provider}/${model}` !== this.current) {
      this.current = `${provider}/${model}`;
      out.push(this.entry('model_change', { provider, modelId: model }));
    }
    const message: Entry = { role: 'assistant', content: blocks, api, provider, model, usage: piUsage(m.usage), stopReason: piStopReason(m.stop_reason, blocks.some((b) => b.type === 'toolCall')) };
    out.push(this.messageEntry(message));
  }

  /** The provider and API of a model's replies, worked out once per model. */
  private sourceOf(model: string): ReplySource {
    let source = this.sources.get(model);
    if (!source) this.sources.set(model, (source = replySource(model, this.options.modelProvider, this.options.config)));
    return source;
  }

  /**
   * A user message: its tool results first, each an entry, then the rest. pi answers a
   * call that has no result before the next user entry with "No result provided", so
   * what the user's side said while calls were still unanswered (a prompt queued
   * meanwhile) waits until their results are written, as Claude Code sends it.
   */
  private user(m: CommonMessage, content: Block[], out: Entry[]): void {
    const results = content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
    const commands = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    const commandIds = new Set(commands.map((c) => c.id));
    let rest = content.filter((b) => b.type !== 'tool_result' && b.type !== 'tool_use');
    if (m.after_compaction) {
      // The model's conversation restarts here: a compaction that keeps nothing before it.
      this.release(out);
      this.unanswered.clear();
      const summary = rest.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text);
      rest = rest.filter((b) => b.type !== 'text');
      const e = this.entry('compaction', { summary: unwrapCompaction(summary.join('\n')), firstKeptEntryId: '', tokensBefore: 0 });
      e.firstKeptEntryId = e.id;
      out.push(e);
    }
    for (const r of results) {
      if (commandIds.has(r.tool_use_id)) continue;
      out.push(this.toolResult(r));
      this.unanswered.delete(r.tool_use_id);
    }
    if (this.unanswered.size === 0) this.release(out);
    const write = (into: Entry[]) => {
      const texts: Block[] = [];
      for (const c of commands) {
        const result = results.find((r) => r.tool_use_id === c.id);
        if (c.name === '!') into.push(this.shellCommand(c, result));
        else texts.push(...typedCommand(c, result));
      }
      const dropped: string[] = [];
      const blocks = piUserContent([...texts, ...rest], dropped);
      for (const d of dropped) this.warnings.push(`${d} on a user message has no pi form, left out`);
      if (blocks.length > 0) into.push(this.messageEntry({ role: 'user', content: blocks }));
    };
    if (commands.length === 0 && rest.length === 0) return;
    if (this.unanswered.size > 0) this.held.push({ at: this.at, write });
    else write(out);
  }

  /** Write what was held back, each at its own time. */
  private release(out: Entry[]): void {
    const now = this.at;
    for (const h of this.held.splice(0)) {
      this.at = h.at;
      h.write(out);
    }
    this.at = now;
  }

  private toolResult(r: ToolResultBlock): Entry {
    const dropped: string[] = [];
    const content = typeof r.content === 'string' ? [{ type: 'text', text: r.content }] : piUserContent(r.content, dropped);
    for (const d of dropped) this.warnings.push(`${d} in a tool result has no pi form, left out`);
    return this.messageEntry({ role: 'toolResult', toolCallId: r.tool_use_id, toolName: this.calls.get(r.tool_use_id) ?? 'unknown', content, isError: r.is_error === true });
  }

  /** A `!` command a person ran, and its output, as the bashExecution message pi writes for one. */
  private shellCommand(c: ToolUseBlock, result: ToolResultBlock | undefined): Entry {
    const input = c.input ?? {};
    const output = result === undefined ? '' : resultText(result);
    const cancelled = input.cancelled === true;
    // A cancelled command has no exit code; one without a recorded code exited as its result says.
    const exitCode = typeof input.exit_code === 'number' ? input.exit_code : cancelled ? undefined : result?.is_error ? 1 : 0;
    const message: Entry = { role: 'bashExecution', command: str(input.args) ? input.args : '', output };
    if (exitCode !== undefined) message.exitCode = exitCode;
    Object.assign(message, { cancelled, truncated: input.truncated === true });
    if (str(input.full_output_path)) message.fullOutputPath = input.full_output_path;
    if (input.exclude_from_context === true) message.excludeFromContext = true;
    return this.messageEntry(message);
  }
}

/** The text of a tool result (its text blocks, joined). */
function resultText(r: ToolResultBlock): string {
  if (typeof r.content === 'string') return r.content;
  return r.content
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('\n');
}

/** A slash command another client ran, as pi has none: the command line as typed, then what it printed, as the user's text. */
function typedCommand(c: ToolUseBlock, result: ToolResultBlock | undefined): Block[] {
  const input = c.input ?? {};
  const args = str(input.args) ? input.args : '';
  const out: Block[] = [{ type: 'text', text: args === '' ? c.name : `${c.name} ${args}` }];
  if (str(input.contents) && input.contents !== '') out.push({ type: 'text', text: input.contents });
  if (result !== undefined && resultText(result) !== '') out.push({ type: 'text', text: resultText(result) });
  return out;
}
