// Counters of one session for tx-stats. Only counters are kept, never lines. Claude
// Code repeats a streamed message's usage on each of its lines and the last one is
// right (see usage.ts); a message's lines are consecutive within its chain (its file,
// and the main conversation or one subagent), so a message is held until the next
// assistant line of its chain has another message.id (or the input ends), and then
// counted: one held message per chain, nothing per message once counted.
import { entry, keyed, tally } from '../core/keyed.js';
import type { RecordHeader } from '../record.js';
import { timeOf, type UsageEvent, type UsageSink } from '../usage/event.js';
import { UsageTally, type TallyData } from '../usage/tally.js';
import { hookEvidence } from './hooks.js';
import { KNOWN_ATTACHMENT_TYPES, KNOWN_FIELDS, KNOWN_LINE_TYPES, KNOWN_SYSTEM_SUBTYPES } from './known.js';
import { messageUsage } from './usage.js';
import { SUBAGENT_TOOLS } from './views.js';

type Counts = Record<string, number>;
type ByVersion = Record<string, Counts>;

const bump = tally;

function bumpByVersion(table: ByVersion, key: string, version: string): void {
  bump(entry(table, key, keyed<number>), version);
}

// Envelope fields every conversational line is expected to carry.
const ENVELOPE_EXPECTED = ['timestamp', 'sessionId', 'uuid', 'version'];
const CONVERSATIONAL = new Set(['user', 'assistant', 'attachment', 'system']);

/** The counters of one session. */
export class SessionStats {
  session: string | null;
  files: string[] = [];
  harness: string | null = null;
  firstTimestamp: string | null = null;
  lastTimestamp: string | null = null;
  private firstMs = Infinity;
  private lastMs = -Infinity;
  lines = 0;
  kinds: Counts = keyed();
  typed = 0;
  queued = 0;
  toolCalls: Counts = keyed();
  toolErrors = 0;
  skills: Counts = keyed();
  subagents: Counts = keyed();
  hooks = { ok: 0, failed: 0, progress: 0, stop_summaries: 0, by_name: keyed<{ ok: number; failed: number; progress: number }>() };
  compactions: Counts = keyed();
  models = new Set<string>();
  versions = new Set<string>();
  /** The message each chain is still reading, by chain (its usage may yet grow). */
  private held = new Map<string, { id: string; event: UsageEvent }>();
  /** The usage of the messages counted. */
  usage = new UsageTally();
  unknownLineTypes: ByVersion = keyed();
  unknownAttachmentTypes: ByVersion = keyed();
  unknownSystemSubtypes: ByVersion = keyed();
  unknownFields: ByVersion = keyed();
  missing: Counts = keyed();
  invalidLines = 0;

  private declare readonly sink: UsageSink | null;

  constructor(session: string | null, sink: UsageSink | null = null) {
    this.session = session;
    // Not enumerable: a worker sends its counters as structured clones, which a function is not.
    Object.defineProperty(this, 'sink', { value: sink, enumerable: false });
  }

  /** Count one record; `line` is its parsed native line (undefined for invalid records). */
  add(header: RecordHeader, line: any): void {
    this.lines++;
    bump(this.kinds, header.kind);
    if (header.src !== undefined && !this.files.includes(header.src)) this.files.push(header.src);
    if (this.harness === null) this.harness = header.harness;
    if (header.kind === 'invalid') {
      this.invalidLines++;
      return;
    }
    if (header.kind === 'prompt') this.typed++;
    if (header.kind === 'queued-prompt') this.queued++;
    if (!line || typeof line !== 'object' || Array.isArray(line)) return;
    this.time(line.timestamp);
    if (header.harness !== 'claude-code') return;
    const version = typeof line.version === 'string' ? line.version : 'unknown';
    if (typeof line.version === 'string') this.versions.add(line.version);
    this.coverage(line, version);
    if (line.type === 'assistant') this.assistant(line, header.src);
    if (header.kind === 'tool-result') this.toolResult(line);
    const hook = hookEvidence(line);
    if (hook) this.hook(hook);
    if (header.kind === 'compact' && typeof line.subtype === 'string') bump(this.compactions, line.subtype);
  }

  private time(ts: unknown): void {
    if (typeof ts !== 'string') return;
    const ms = Date.parse(ts);
    if (Number.isNaN(ms)) return;
    if (ms < this.firstMs) [this.firstMs, this.firstTimestamp] = [ms, ts];
    if (ms > this.lastMs) [this.lastMs, this.lastTimestamp] = [ms, ts];
  }

  private coverage(line: any, version: string): void {
    const type = typeof line.type === 'string' ? line.type : '(none)';
    if (!KNOWN_LINE_TYPES.has(type)) bumpByVersion(this.unknownLineTypes, type, version);
    if (type === 'attachment') {
      const a = typeof line.attachment?.type === 'string' ? line.attachment.type : '(none)';
      if (!KNOWN_ATTACHMENT_TYPES.has(a) && !a.startsWith('hook_')) bumpByVersion(this.unknownAttachmentTypes, a, version);
    }
    if (type === 'system') {
      const s = typeof line.subtype === 'string' ? line.subtype : '(none)';
      if (!KNOWN_SYSTEM_SUBTYPES.has(s)) bumpByVersion(this.unknownSystemSubtypes, s, version);
    }
    for (const key of Object.keys(line)) if (!KNOWN_FIELDS.has(key)) bumpByVersion(this.unknownFields, key, version);
    if (CONVERSATIONAL.has(type)) {
      for (const f of ENVELOPE_EXPECTED) if (line[f] === undefined) bump(this.missing, `${type}.${f}`);
    }
    if (type === 'assistant') {
      const m = line.message;
      if (!m || typeof m !== 'object') bump(this.missing, 'assistant.message');
      else {
        if (!m.usage || typeof m.usage !== 'object') bump(this.missing, 'assistant.message.usage');
        if (typeof m.id !== 'string') bump(this.missing, 'assistant.message.id');
        if (typeof m.model !== 'string') bump(this.missing, 'assistant.message.model');
      }
    }
    if (type === 'user' && (!line.message || line.message.content === undefined)) bump(this.missing, 'user.message.content');
  }

  private assistant(line: any, src: string | undefined): void {
    const content = Array.isArray(line.message?.content) ? line.message.content : [];
    for (const b of content) {
      if (!b || b.type !== 'tool_use') continue;
      const name = typeof b.name === 'string' ? b.name : '(none)';
      bump(this.toolCalls, name);
      if (name === 'Skill') bump(this.skills, typeof b.input?.skill === 'string' ? b.input.skill : '(none)');
      if (SUBAGENT_TOOLS.has(name)) bump(this.subagents, typeof b.input?.subagent_type === 'string' ? b.input.subagent_type : '(none)');
    }
    if (typeof line.message?.model === 'string') this.models.add(line.message.model);
    const u = messageUsage(line);
    if (!u) return;
    const chain = `${src ?? ''}\0${typeof line.agentId === 'string' ? line.agentId : ''}\0${line.isSidechain === true}`;
    const held = this.held.get(chain);
    // The last line of a message carries its final usage: later lines replace earlier ones.
    if (held && u.id !== null && held.id === u.id) {
      held.event.tokens = u.tokens;
      held.event.cache_1h = u.cache1h;
      return;
    }
    if (held) this.count(held.event);
    // The message's time is its first line's, when it was asked for.
    const event: UsageEvent = { model: u.model ?? 'unknown', time: timeOf(line.timestamp), tokens: u.tokens, cache_1h: u.cache1h, project: typeof line.cwd === 'string' ? line.cwd : null };
    if (u.id === null) {
      this.held.delete(chain);
      this.count(event);
    } else this.held.set(chain, { id: u.id, event });
  }

  private count(event: UsageEvent): void {
    const nanos = this.usage.add(event);
    this.sink?.(event, nanos);
  }

  /** Count the messages still held: the input (or this part of it) has ended. */
  flush(): void {
    for (const { event } of this.held.values()) this.count(event);
    this.held.clear();
  }

  private toolResult(line: any): void {
    const content = Array.isArray(line.message?.content) ? line.message.content : [];
    for (const b of content) if (b && b.type === 'tool_result' && b.is_error === true) this.toolErrors++;
  }

  private hook(h: NonNullable<ReturnType<typeof hookEvidence>>): void {
    if (h.type === 'stop_hook_summary') {
      this.hooks.stop_summaries++;
      return;
    }
    const name = h.hookName ?? h.hookEvent ?? '(none)';
    const hook = entry(this.hooks.by_name, name, () => ({ ok: 0, failed: 0, progress: 0 }));
    if (h.type === 'hook_progress') {
      this.hooks.progress++;
      hook.progress++;
    } else if (h.failed) {
      this.hooks.failed++;
      hook.failed++;
    } else if (h.run) {
      this.hooks.ok++;
      hook.ok++;
    }
  }

  /** Fold another group's counters into this one (lines of a file seen before its session id). */
  absorb(other: SessionStats): void {
    other.flush();
    this.fold(other);
  }

  /**
   * Fold in a later part of the session (another file, counted and flushed on a
   * worker). A message's chain is within one file, so no message spans two parts;
   * every counter here is a count, a set or a first/last, so this is exact.
   */
  merge(later: unknown): boolean {
    this.fold(later as SessionStats);
    return true;
  }

  // `other` may be a structured clone (its tables then plain objects): only its own entries are read.
  private fold(other: SessionStats): void {
    if (this.harness === null) this.harness = other.harness;
    this.lines += other.lines;
    for (const [k, v] of Object.entries(other.kinds)) bump(this.kinds, k, v);
    for (const f of other.files) if (!this.files.includes(f)) this.files.push(f);
    this.typed += other.typed;
    this.queued += other.queued;
    for (const [k, v] of Object.entries(other.toolCalls)) bump(this.toolCalls, k, v);
    this.toolErrors += other.toolErrors;
    for (const [k, v] of Object.entries(other.skills)) bump(this.skills, k, v);
    for (const [k, v] of Object.entries(other.subagents)) bump(this.subagents, k, v);
    for (const key of ['ok', 'failed', 'progress', 'stop_summaries'] as const) this.hooks[key] += other.hooks[key];
    for (const [name, e] of Object.entries(other.hooks.by_name)) {
      const mine = entry(this.hooks.by_name, name, () => ({ ok: 0, failed: 0, progress: 0 }));
      mine.ok += e.ok;
      mine.failed += e.failed;
      mine.progress += e.progress;
    }
    for (const [k, v] of Object.entries(other.compactions)) bump(this.compactions, k, v);
    for (const m of other.models) this.models.add(m);
    for (const v of other.versions) this.versions.add(v);
    this.usage.fold(other.usage as TallyData);
    for (const [table, from] of [
      [this.unknownLineTypes, other.unknownLineTypes],
      [this.unknownAttachmentTypes, other.unknownAttachmentTypes],
      [this.unknownSystemSubtypes, other.unknownSystemSubtypes],
      [this.unknownFields, other.unknownFields],
    ] as const) {
      for (const [k, byVersion] of Object.entries(from)) for (const [v, n] of Object.entries(byVersion)) bump(entry(table, k, keyed<number>), v, n);
    }
    for (const [k, v] of Object.entries(other.missing)) bump(this.missing, k, v);
    this.invalidLines += other.invalidLines;
    this.time(other.firstTimestamp);
    this.time(other.lastTimestamp);
  }

  /** The summary object tx-stats writes (tx-stats(1) documents each field). */
  summary(): Record<string, unknown> {
    this.flush();
    const sum = (c: Counts) => Object.values(c).reduce((a, b) => a + b, 0);
    return {
      session: this.session,
      files: this.files,
      harness: this.harness,
      first_timestamp: this.firstTimestamp,
      last_timestamp: this.lastTimestamp,
      lines: this.lines,
      kinds: this.kinds,
      human_turns: { typed: this.typed, queued: this.queued, total: this.typed + this.queued },
      tool_calls: { total: sum(this.toolCalls), by_name: this.toolCalls },
      tool_errors: this.toolErrors,
      skills: this.skills,
      subagents: { total: sum(this.subagents), by_type: this.subagents },
      hooks: this.hooks,
      compactions: { total: sum(this.compactions), by_subtype: this.compactions },
      api_messages: this.usage.messages,
      tokens: { ...this.usage.tokens, by_model: this.usage.byModelOutput('messages') },
      cost_usd: this.usage.cost(),
      models: [...this.models],
      versions: [...this.versions],
      coverage: {
        unknown_line_types: this.unknownLineTypes,
        unknown_attachment_types: this.unknownAttachmentTypes,
        unknown_system_subtypes: this.unknownSystemSubtypes,
        unknown_fields: this.unknownFields,
        missing: this.missing,
        invalid_lines: this.invalidLines,
        unpriced_models: this.usage.unpriced(),
      },
    };
  }
}
