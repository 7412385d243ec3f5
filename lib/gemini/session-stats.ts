// The counters of one Gemini CLI session for tx-stats. The client writes a gemini record
// again once its calls have run, each result twice, and checkpoints that repeat the
// conversation, so each prompt, call, result, thought and API message is counted once,
// by its id: the ids seen are kept (a set per kind, as Codex keeps its response ids), and
// checkpoints are counted only as the compactions they are. An API message is a gemini
// record with `tokens`, counted at the first version that has them. Hooks are not
// recorded by the client (only the context one added): the summary says so.
import type { SessionCounter } from '../codec.js';
import { keyed, tally } from '../core/keyed.js';
import type { RecordHeader } from '../record.js';
import { timeOf, type UsageSink } from '../usage/event.js';
import { UsageTally, type TallyData } from '../usage/tally.js';
import { isSnapshotRecord } from './chat-log.js';
import { isMessageRecord, isMetadataLine, isSetLine, MESSAGE_TYPES } from './detect.js';
import { callsOf, resultsOf, snapshotOf, thoughtsOf } from './items.js';
import { projectRoot, SESSION_CONTEXT, workspaceDirectories } from './session-context.js';
import { contentText } from './parts.js';
import { usageOfTokens } from './usage.js';

type Counts = Record<string, number>;

/** What tx-stats does not count for Gemini CLI, and says so in every Gemini summary. */
export const NOT_COUNTED = ['hooks'];

/** The kinds of id a session's counts are kept once by. */
const ID_KINDS = ['prompt', 'call', 'result', 'thought', 'message', 'compaction'] as const;

/** The counters of one Gemini CLI session. */
export class GeminiSessionStats implements SessionCounter {
  private files: string[] = [];
  private firstTimestamp: string | null = null;
  private lastTimestamp: string | null = null;
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
  private compactions = 0;
  private reasoningTokens = 0;
  private models = new Set<string>();
  private unknownTypes = keyed<number>();
  private invalidLines = 0;
  private projectHash: string | null = null;
  private cwd: string | null = null;
  /** Ids counted, by kind (each a Set: structured clones carry them to the main thread). */
  private seen: Record<(typeof ID_KINDS)[number], Set<string>> = { prompt: new Set(), call: new Set(), result: new Set(), thought: new Set(), message: new Set(), compaction: new Set() };
  private priced = new UsageTally();
  private declare readonly sink: UsageSink | null;

  constructor(
    private readonly session: string | null,
    sink: UsageSink | null = null,
  ) {
    // Not enumerable: a worker sends its counters as structured clones, which a function is not.
    Object.defineProperty(this, 'sink', { value: sink, enumerable: false });
  }

  /** True the first time an id of this kind comes by. */
  private first(kind: (typeof ID_KINDS)[number], id: unknown): boolean {
    if (typeof id !== 'string') return true;
    const set = this.seen[kind];
    if (set.has(id)) return false;
    set.add(id);
    return true;
  }

  /** Count one record; `line` is its parsed native line (undefined for invalid records). */
  add(header: RecordHeader, line: any): void {
    this.lines++;
    tally(this.kinds, header.kind);
    if (header.src !== undefined && !this.files.includes(header.src)) this.files.push(header.src);
    if (header.kind === 'invalid') {
      this.invalidLines++;
      return;
    }
    if (!line || typeof line !== 'object' || Array.isArray(line)) return;
    if (isMetadataLine(line)) {
      this.time(line.startTime);
      if (typeof line.projectHash === 'string') this.projectHash = line.projectHash;
      return;
    }
    if (isSetLine(line)) {
      this.time(line.$set.lastUpdated);
      if (header.kind === 'compact') {
        const s = snapshotOf(line.$set, isSnapshotRecord);
        if (s && this.first('compaction', s.id)) this.compactions++;
      }
      return;
    }
    if (!isMessageRecord(line)) {
      if (header.kind === 'other') tally(this.unknownTypes, typeof line.type === 'string' ? line.type : '(none)');
      return;
    }
    this.time(line.timestamp);
    if (!MESSAGE_TYPES.has(line.type)) tally(this.unknownTypes, line.type);
    if (line.type === 'user' && this.cwd === null) {
      const text = contentText(line.content).trimStart();
      if (text.startsWith(SESSION_CONTEXT)) this.cwd = projectRoot(workspaceDirectories(text), this.projectHash ?? undefined);
    }
    if (header.kind === 'prompt' && this.first('prompt', line.id)) this.typed++;
    for (const c of line.type === 'gemini' ? callsOf(line) : []) {
      if (!this.first('call', c.id)) continue;
      tally(this.toolCalls, c.name);
      const args = c.args && typeof c.args === 'object' ? (c.args as Record<string, unknown>) : {};
      if (c.name === 'activate_skill') tally(this.skills, typeof args.name === 'string' ? args.name : '(none)');
      if (c.name === 'invoke_agent') tally(this.subagents, typeof args.agent_name === 'string' ? args.agent_name : '(none)');
    }
    for (const r of resultsOf(line)) if (this.first('result', r.id) && (r.error || (r.exitCode !== null && r.exitCode !== 0))) this.toolErrors++;
    thoughtsOf(line).forEach((_, i) => {
      if (this.first('thought', `${String(line.id)}\0${i}`)) this.reasoning++;
    });
    if (line.type === 'gemini') this.message(line);
  }

  /** One API message: a gemini record's tokens, the first version that has them. */
  private message(line: any): void {
    const u = usageOfTokens(line.tokens);
    const model = typeof line.model === 'string' && line.model !== '' ? line.model : null;
    if (model !== null) this.models.add(model);
    if (!u || !this.first('message', line.id)) return;
    const n = (v: unknown) => (typeof v === 'number' ? v : 0);
    this.reasoningTokens += n(u.reasoning_output_tokens);
    // Thoughts are part of output_tokens, and priced as output.
    const tokens = { input_tokens: n(u.input_tokens), output_tokens: n(u.output_tokens), cache_read_input_tokens: n(u.cache_read_input_tokens), cache_creation_input_tokens: n(u.cache_creation_input_tokens) };
    const event = { model: model ?? 'unknown', time: timeOf(line.timestamp), tokens, cache_1h: 0, project: this.cwd };
    const nanos = this.priced.add(event);
    this.sink?.(event, nanos);
  }

  private time(ts: unknown): void {
    if (typeof ts !== 'string') return;
    const ms = Date.parse(ts);
    if (Number.isNaN(ms)) return;
    if (ms < this.firstMs) [this.firstMs, this.firstTimestamp] = [ms, ts];
    if (ms > this.lastMs) [this.lastMs, this.lastTimestamp] = [ms, ts];
  }

  /** Fold in the counts of lines read before the session's id was known. */
  absorb(other: SessionCounter): void {
    if (other instanceof GeminiSessionStats && this.disjoint(other)) this.fold(other);
  }

  /**
   * Take in the lines of another file of the session counted on a worker (a resume's
   * second file): exact when no id was counted in both, which the sets of ids tell.
   */
  merge(later: unknown): boolean {
    const other = later as GeminiSessionStats;
    if (!this.disjoint(other)) return false;
    this.fold(other);
    return true;
  }

  private disjoint(other: GeminiSessionStats): boolean {
    for (const k of ID_KINDS) for (const id of other.seen[k]) if (this.seen[k].has(id)) return false;
    return true;
  }

  // `other` may be a structured clone (its tables then plain objects): only its own entries are read.
  private fold(other: GeminiSessionStats): void {
    this.lines += other.lines;
    for (const [k, v] of Object.entries(other.kinds)) tally(this.kinds, k, v);
    for (const f of other.files) if (!this.files.includes(f)) this.files.push(f);
    this.typed += other.typed;
    for (const [k, v] of Object.entries(other.toolCalls)) tally(this.toolCalls, k, v);
    for (const [k, v] of Object.entries(other.skills)) tally(this.skills, k, v);
    for (const [k, v] of Object.entries(other.subagents)) tally(this.subagents, k, v);
    this.toolErrors += other.toolErrors;
    this.reasoning += other.reasoning;
    this.compactions += other.compactions;
    this.reasoningTokens += other.reasoningTokens;
    for (const m of other.models) this.models.add(m);
    for (const [k, v] of Object.entries(other.unknownTypes)) tally(this.unknownTypes, k, v);
    for (const k of ID_KINDS) for (const id of other.seen[k]) this.seen[k].add(id);
    this.priced.fold(other.priced as TallyData);
    this.invalidLines += other.invalidLines;
    this.projectHash ??= other.projectHash;
    this.cwd ??= other.cwd;
    this.time(other.firstTimestamp);
    this.time(other.lastTimestamp);
  }

  /** The summary object tx-stats writes (tx-stats(1) documents each field). */
  summary(): Record<string, unknown> {
    const sum = (c: Counts) => Object.values(c).reduce((a, b) => a + b, 0);
    return {
      session: this.session,
      files: this.files,
      harness: 'gemini',
      first_timestamp: this.firstTimestamp,
      last_timestamp: this.lastTimestamp,
      lines: this.lines,
      kinds: this.kinds,
      human_turns: { typed: this.typed, queued: 0, total: this.typed },
      tool_calls: { total: sum(this.toolCalls), by_name: this.toolCalls },
      tool_errors: this.toolErrors,
      skills: this.skills,
      subagents: { total: sum(this.subagents), by_type: this.subagents },
      reasoning_items: this.reasoning,
      compactions: { total: this.compactions, by_subtype: this.compactions > 0 ? { chat_compression: this.compactions } : keyed<number>() },
      api_messages: this.priced.messages,
      tokens: { ...this.priced.tokens, reasoning_output_tokens: this.reasoningTokens, by_model: this.priced.byModelOutput('messages') },
      cost_usd: this.priced.cost(),
      models: [...this.models],
      // The client records no version of itself.
      versions: [],
      not_counted: NOT_COUNTED,
      coverage: { unknown_message_types: this.unknownTypes, invalid_lines: this.invalidLines, unpriced_models: this.priced.unpriced() },
    };
  }
}
