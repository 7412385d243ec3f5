// The counters of one OpenCode session for tx-stats. A line is the session's info or a
// message with its parts, each written once; a message seen again (two exports of one
// session read together) is not counted twice, by its id. An API request is a step of
// an assistant message (a step-finish part with its tokens; the client's `input` is
// already without cached input). The client keeps no hooks: the summary says so.
import type { SessionCounter } from '../codec.js';
import { keyed, tally } from '../core/keyed.js';
import type { RecordHeader } from '../record.js';
import { type UsageSink } from '../usage/event.js';
import { UsageTally, type TallyData } from '../usage/tally.js';
import { isMessageWithParts, isSessionInfo } from './detect.js';
import { modelOf, reasoningTexts, stepUsages, toolUses } from './parts.js';

type Counts = Record<string, number>;

/** What tx-stats does not count for OpenCode, and says so in every OpenCode summary. */
export const NOT_COUNTED = ['hooks'];

/** The counters of one OpenCode session. */
export class OpencodeSessionStats implements SessionCounter {
  private files: string[] = [];
  private firstMs = Infinity;
  private lastMs = -Infinity;
  private lines = 0;
  private kinds = keyed<number>();
  private typed = 0;
  private toolCalls = keyed<number>();
  private toolErrors = 0;
  private skills = keyed<number>();
  private subagents = keyed<number>();
  private reasoning = 0;
  private compactions = keyed<number>();
  private reasoningTokens = 0;
  private models = new Set<string>();
  private versions = new Set<string>();
  private invalidLines = 0;
  private otherLines = 0;
  private cwd: string | null = null;
  /** Message ids counted (a Set: structured clones carry it to the main thread). */
  private seen = new Set<string>();
  private priced = new UsageTally();
  private declare readonly sink: UsageSink | null;

  constructor(
    private readonly session: string | null,
    sink: UsageSink | null = null,
  ) {
    // Not enumerable: a worker sends its counters as structured clones, which a function is not.
    Object.defineProperty(this, 'sink', { value: sink, enumerable: false });
  }

  /** Count one record; `line` is its parsed native line (undefined for invalid records). */
  add(header: RecordHeader, line: unknown): void {
    this.lines++;
    tally(this.kinds, header.kind);
    if (header.src !== undefined && !this.files.includes(header.src)) this.files.push(header.src);
    if (header.kind === 'invalid') {
      this.invalidLines++;
      return;
    }
    if (isSessionInfo(line)) {
      this.time(line.time.created);
      this.time(line.time.updated);
      if (typeof line.version === 'string') this.versions.add(line.version);
      if (typeof line.directory === 'string') this.cwd ??= line.directory;
      return;
    }
    if (!isMessageWithParts(line)) {
      this.otherLines++;
      return;
    }
    if (this.seen.has(line.info.id)) return;
    this.seen.add(line.info.id);
    this.time(line.info.time?.created);
    this.time(line.info.time?.completed);
    if (header.kind === 'prompt') this.typed++;
    if (header.kind === 'compact') tally(this.compactions, line.info.role === 'user' ? 'compaction' : 'summary');
    for (const u of toolUses(line)) {
      tally(this.toolCalls, u.name ?? '(none)');
      if (u.failed) this.toolErrors++;
      const input = u.input && typeof u.input === 'object' ? (u.input as Record<string, unknown>) : {};
      if (u.name === 'skill') tally(this.skills, typeof input.name === 'string' ? input.name : '(none)');
      if (u.name === 'task') tally(this.subagents, typeof input.subagent_type === 'string' ? input.subagent_type : '(none)');
    }
    this.reasoning += reasoningTexts(line).length;
    const model = modelOf(line);
    if (line.info.role === 'assistant' && model !== null) this.models.add(model);
    for (const u of stepUsages(line)) {
      const n = (v: unknown) => (typeof v === 'number' ? v : 0);
      this.reasoningTokens += n(u.reasoning_output_tokens);
      const tokens = { input_tokens: n(u.input_tokens), output_tokens: n(u.output_tokens), cache_read_input_tokens: n(u.cache_read_input_tokens), cache_creation_input_tokens: n(u.cache_creation_input_tokens) };
      const created = line.info.time?.created;
      const event = { model: model ?? 'unknown', time: typeof created === 'number' ? created : NaN, tokens, cache_1h: 0, project: this.cwd };
      const nanos = this.priced.add(event);
      this.sink?.(event, nanos);
    }
  }

  private time(ms: unknown): void {
    if (typeof ms !== 'number' || !Number.isFinite(ms)) return;
    if (ms < this.firstMs) this.firstMs = ms;
    if (ms > this.lastMs) this.lastMs = ms;
  }

  /** Fold in the counts of lines read before the session's id was known. */
  absorb(other: SessionCounter): void {
    if (other instanceof OpencodeSessionStats && this.disjoint(other)) this.fold(other);
  }

  /** Take in the lines of another file of the session counted on a worker: exact when no message was counted in both. */
  merge(later: unknown): boolean {
    const other = later as OpencodeSessionStats;
    if (!this.disjoint(other)) return false;
    this.fold(other);
    return true;
  }

  private disjoint(other: OpencodeSessionStats): boolean {
    for (const id of other.seen) if (this.seen.has(id)) return false;
    return true;
  }

  // `other` may be a structured clone (its tables then plain objects): only its own entries are read.
  private fold(other: OpencodeSessionStats): void {
    this.lines += other.lines;
    for (const [k, v] of Object.entries(other.kinds)) tally(this.kinds, k, v);
    for (const f of other.files) if (!this.files.includes(f)) this.files.push(f);
    this.typed += other.typed;
    for (const [k, v] of Object.entries(other.toolCalls)) tally(this.toolCalls, k, v);
    for (const [k, v] of Object.entries(other.skills)) tally(this.skills, k, v);
    for (const [k, v] of Object.entries(other.subagents)) tally(this.subagents, k, v);
    for (const [k, v] of Object.entries(other.compactions)) tally(this.compactions, k, v);
    this.toolErrors += other.toolErrors;
    this.reasoning += other.reasoning;
    this.reasoningTokens += other.reasoningTokens;
    for (const m of other.models) this.models.add(m);
    for (const v of other.versions) this.versions.add(v);
    for (const id of other.seen) this.seen.add(id);
    this.priced.fold(other.priced as TallyData);
    this.invalidLines += other.invalidLines;
    this.otherLines += other.otherLines;
    this.cwd ??= other.cwd;
    this.time(other.firstMs);
    this.time(other.lastMs);
  }

  /** The summary object tx-stats writes (tx-stats(1) documents each field). */
  summary(): Record<string, unknown> {
    const sum = (c: Counts) => Object.values(c).reduce((a, b) => a + b, 0);
    const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : null);
    return {
      session: this.session,
      files: this.files,
      harness: 'opencode',
      first_timestamp: iso(this.firstMs),
      last_timestamp: iso(this.lastMs),
      lines: this.lines,
      kinds: this.kinds,
      human_turns: { typed: this.typed, queued: 0, total: this.typed },
      tool_calls: { total: sum(this.toolCalls), by_name: this.toolCalls },
      tool_errors: this.toolErrors,
      skills: this.skills,
      subagents: { total: sum(this.subagents), by_type: this.subagents },
      reasoning_items: this.reasoning,
      compactions: { total: sum(this.compactions), by_subtype: this.compactions },
      api_messages: this.priced.messages,
      tokens: { ...this.priced.tokens, reasoning_output_tokens: this.reasoningTokens, by_model: this.priced.byModelOutput('messages') },
      cost_usd: this.priced.cost(),
      models: [...this.models],
      versions: [...this.versions],
      not_counted: NOT_COUNTED,
      coverage: { unknown_message_types: this.otherLines > 0 ? { '(not an OpenCode line)': this.otherLines } : keyed<number>(), invalid_lines: this.invalidLines, unpriced_models: this.priced.unpriced() },
    };
  }
}
