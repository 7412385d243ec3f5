// Where Common becomes a Gemini CLI chat file: one message in, the lines that carry it
// out, in the shape the client writes a session as it runs (chatRecordingService.ts): a
// metadata line, then message records. An assistant message is a `gemini` record: its
// text as content, its thinking as thought summaries, its tool calls in `toolCalls` with
// their results, so the record waits for the user message that answers it. Results are
// written once, in the calls (the client itself also writes them as a user message, and
// then sends them twice on resume). When text follows a call in one message, the content
// holds every part in order, calls included, as the client's own checkpoints do. A
// message after a compaction is preceded by an empty checkpoint, where the client's
// list starts again (it resumes what follows). Nothing is random: ids and times come from the input, so the same input gives the same bytes.
import type { FromCommonOptions, NativeWriter } from '../codec.js';
import { isModeled, usableBlocks, type Block, type CommonMessage, type CommonSession, type ToolResultBlock, type ToolUseBlock } from '../common.js';
import { blockPart, type Part } from './parts.js';
import { commandOutput, commandText, resultParts, summaryKeepsText, thoughtSummary } from './record-parts.js';
import { projectHash } from './session-context.js';
import { GEMINI_HARNESS } from './to-common.js';
import { tokensOfUsage } from './usage.js';

/** The Gemini CLI version this writer is checked against. */
export const GEMINI_CLI_VERSION = '0.61.0';

const EPOCH = '1970-01-01T00:00:00.000Z';

type GeminiRecord = Record<string, unknown> & { id: string; type: string };

/** A time as the client writes it (ISO 8601 in UTC), or null when the value is not a date. */
export function isoTime(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  const d = new Date(ms);
  return d.getUTCFullYear() >= 0 && d.getUTCFullYear() <= 9999 ? d.toISOString() : null;
}

/** Writes one Common session as the lines of a Gemini CLI chat file. */
export class CommonToGemini implements NativeWriter {
  readonly warnings: string[] = [];
  private started = false;
  private at: string;
  /** The gemini record waiting for the results of its calls, with its calls by id. */
  private held: { record: GeminiRecord; calls: Map<string, Record<string, unknown>> } | null = null;
  private readonly ids = new Set<string>();
  /** Message records written so far. */
  private records = 0;

  constructor(
    private readonly session: CommonSession,
    private readonly options: FromCommonOptions,
  ) {
    this.at = isoTime(session.started_at) ?? EPOCH;
  }

  /** True when thought signatures came from Gemini, so they can go back to it. */
  private get fromGemini(): boolean {
    return this.session.harness === GEMINI_HARNESS;
  }

  /** The lines of one Common message. */
  message(given: CommonMessage): object[] {
    const content = usableBlocks(given, this.warnings);
    if (content === null) return [];
    const lines: object[] = [];
    const stamp = isoTime(given.timestamp);
    if (!this.started) {
      if (this.session.started_at === undefined && stamp !== null) this.at = stamp;
      lines.push(this.metadata());
      this.started = true;
    }
    if (stamp !== null) this.at = stamp;
    if (given.after_compaction === true && this.records > 0) {
      // The client clears its list at a checkpoint: an empty one makes it resume from here.
      lines.push(...this.release(), { $set: { messages: [] } });
    }
    if (given.role === 'assistant') {
      lines.push(...this.release());
      const record = this.geminiRecord(given, content);
      if (record === null) this.warnings.push('an assistant message with no block Gemini can carry, skipped');
      else if (record.calls.size > 0) this.held = record;
      else lines.push(record.record);
      return lines;
    }
    const parts = this.userParts(given, content);
    lines.push(...this.release());
    if (parts.length > 0) lines.push(this.record(given.id, 'user', { content: parts }));
    return lines;
  }

  /** The record still waiting for results, and the session's last update and title. */
  finish(): object[] {
    if (!this.started) return [];
    const lines: object[] = this.release();
    const set: Record<string, unknown> = { lastUpdated: this.at };
    const title = this.session.custom_title ?? this.session.title;
    if (title !== undefined && title.trim() !== '') set.summary = title;
    lines.push({ $set: set });
    return lines;
  }

  private metadata(): object {
    const cwd = this.options.cwd ?? this.session.cwd;
    return { sessionId: this.options.sessionId, projectHash: projectHash(cwd ?? '/'), startTime: this.at, lastUpdated: this.at, kind: this.session.parent ? 'subagent' : 'main' };
  }

  /** A record id: the message's own when not used yet (the client keys records by id), else one made from it. */
  private idFor(id: string): string {
    let out = id === '' ? 'message' : id;
    for (let n = 2; this.ids.has(out); n++) out = `${id}#${n}`;
    this.ids.add(out);
    return out;
  }

  private record(id: string, type: string, fields: Record<string, unknown>): GeminiRecord {
    this.records++;
    return { id: this.idFor(id), timestamp: this.at, type, ...fields };
  }

  private release(): object[] {
    if (this.held === null) return [];
    const { record } = this.held;
    this.held = null;
    return [record];
  }

  /** A gemini record of an assistant message, or null when nothing in it has a Gemini form. */
  private geminiRecord(m: CommonMessage, content: Block[]): { record: GeminiRecord; calls: Map<string, Record<string, unknown>> } | null {
    const parts: Part[] = [];
    const thoughts: object[] = [];
    const calls = new Map<string, Record<string, unknown>>();
    let afterCall = false;
    let inOrder = false;
    for (const b of content) {
      if (b.type === 'tool_use' && isModeled(b)) {
        const use = b as ToolUseBlock;
        const call: Record<string, unknown> = { id: use.id, name: use.name, args: use.input ?? {}, result: null, status: 'cancelled', timestamp: this.at };
        calls.set(use.id, call);
        parts.push({ functionCall: { id: use.id, name: use.name, args: use.input ?? {} } });
        afterCall = true;
        continue;
      }
      if (b.type === 'thinking' && isModeled(b)) {
        const text = (b as { thinking: string }).thinking;
        const p: Part = { text, thought: true };
        if (this.fromGemini && typeof (b as { signature?: unknown }).signature === 'string') p.thoughtSignature = (b as { signature: string }).signature;
        parts.push(p);
        thoughts.push(thoughtSummary(text, this.at));
        // A summary the client would rebuild differently keeps the thought in the content.
        if (!summaryKeepsText(text) || p.thoughtSignature !== undefined) inOrder = true;
        if (afterCall) inOrder = true;
        continue;
      }
      const p = blockPart(b);
      if (p === null) {
        this.warnings.push(`a ${b.type} block has no Gemini form, left out`);
        continue;
      }
      parts.push(p);
      if (afterCall) inOrder = true;
    }
    if (parts.length === 0) return null;
    const fields: Record<string, unknown> = {};
    if (inOrder) fields.content = parts;
    else {
      // As the client writes a streamed answer: its text as one string ("" for calls alone).
      const rest = parts.filter((p) => !p.functionCall && !p.thought);
      const lone = rest.length === 1 && Object.keys(rest[0]!).length === 1 && typeof rest[0]!.text === 'string';
      fields.content = rest.length === 0 ? '' : lone ? rest[0]!.text : rest;
      fields.thoughts = thoughts;
    }
    if (m.usage) fields.tokens = tokensOfUsage(m.usage);
    if (m.model !== undefined) fields.model = m.model;
    if (calls.size > 0) fields.toolCalls = [...calls.values()];
    return { record: this.record(m.id, 'gemini', fields), calls };
  }

  /** The parts of a user message's own record; the results of the held calls go into them instead. */
  private userParts(m: CommonMessage, content: Block[]): Part[] {
    const parts: Part[] = [];
    const commands = new Set(content.filter((b): b is ToolUseBlock => b.type === 'tool_use').map((b) => b.id));
    for (const b of content) {
      if (b.type === 'tool_result' && isModeled(b)) {
        const r = b as ToolResultBlock;
        const call = this.held?.calls.get(r.tool_use_id);
        if (call) {
          call.result = resultParts(r, String(call.name), this.warnings);
          call.status = r.is_error ? 'error' : 'success';
        } else if (commands.has(r.tool_use_id)) parts.push({ text: commandOutput(r) });
        else {
          // A result whose call is not the message before: the client sends a user content as it is.
          parts.push(...resultParts(r, callName(r.tool_use_id), this.warnings));
        }
        continue;
      }
      if (b.type === 'tool_use' && isModeled(b)) {
        parts.push({ text: commandText(b as ToolUseBlock) });
        continue;
      }
      const p = blockPart(b);
      if (p === null || p.thought) this.warnings.push(`a ${b.type} block on a user message has no Gemini form, left out`);
      else parts.push(p);
    }
    return parts;
  }
}

/** The tool a result answers, by its id's `<tool>__` prefix (the client's own naming), else unknown. */
function callName(id: string): string {
  const at = id.indexOf('__');
  return at > 0 ? id.slice(0, at) : 'unknown';
}
