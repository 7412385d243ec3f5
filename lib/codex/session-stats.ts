// The counters of one Codex session for tx-stats. Like Claude Code's, only counters
// are kept, and a set of the response ids seen (usage.ts says why). Skills, subagents
// and hooks are not Codex notions: the summary lists them under `not_counted` rather
// than print zeros a reader would trust.
import type { SessionCounter } from '../codec.js';
import type { RecordHeader } from '../record.js';
import { timeOf, type UsageSink } from '../usage/event.js';
import { UsageTally, type TallyData } from '../usage/tally.js';
import { ROLLOUT_TYPES } from './rollout.js';
import { callName, isCall, isCallOutput, outputFailed } from './tools.js';
import { CODEX_TOKEN_FIELDS, UsageTracker, type CodexTokens } from './usage.js';

// Keys come from transcripts: null-prototype tables, so no key is special.
type Counts = Record<string, number>;

function table(): Counts {
  return Object.create(null) as Counts;
}

function bump(counts: Counts, key: string, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

function zero(): CodexTokens {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, reasoning_output_tokens: 0 };
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(ROLLOUT_TYPES);

/** What tx-stats does not count for Codex, and says so in every Codex summary. */
export const NOT_COUNTED = ['skills', 'subagents', 'hooks'];

/** The counters of one Codex session. */
export class CodexSessionStats implements SessionCounter {
  private files: string[] = [];
  private firstTimestamp: string | null = null;
  private lastTimestamp: string | null = null;
  private firstMs = Infinity;
  private lastMs = -Infinity;
  private lines = 0;
  private kinds = table();
  private typed = 0;
  private inputs = 0;
  private toolCalls = table();
  private toolErrors = 0;
  private reasoning = 0;
  private compactions = table();
  private responses = 0;
  private tokens = zero();
  private byModel: Record<string, CodexTokens & { responses: number }> = Object.create(null);
  private models = new Set<string>();
  private versions = new Set<string>();
  private unknownLineTypes = table();
  private invalidLines = 0;
  private model = 'unknown';
  private cwd: string | null = null;
  private readonly usage = new UsageTracker();
  /** The responses' usage and cost. */
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
  add(header: RecordHeader, line: any): void {
    this.lines++;
    bump(this.kinds, header.kind);
    if (header.src !== undefined && !this.files.includes(header.src)) this.files.push(header.src);
    if (header.kind === 'invalid') {
      this.invalidLines++;
      return;
    }
    if (header.kind === 'prompt') this.typed++;
    if (header.kind === 'input') this.inputs++;
    if (!line || typeof line !== 'object' || Array.isArray(line)) return;
    this.time(line.timestamp);
    const p = line.payload;
    const enveloped = 'payload' in line;
    if (enveloped && typeof line.type === 'string' && !KNOWN_TYPES.has(line.type)) bump(this.unknownLineTypes, line.type);
    if (line.type === 'session_meta' && typeof p?.cli_version === 'string') this.versions.add(p.cli_version);
    if ((line.type === 'session_meta' || line.type === 'turn_context') && typeof p?.cwd === 'string') this.cwd = p.cwd;
    if (line.type === 'turn_context' && typeof p?.model === 'string') {
      this.model = p.model;
      this.models.add(p.model);
    }
    const item = enveloped ? (line.type === 'response_item' ? p : null) : line;
    if (item && typeof item === 'object') {
      if (isCall(item)) bump(this.toolCalls, callName(item));
      else if (isCallOutput(item) && outputFailed(item.output)) this.toolErrors++;
      else if (item.type === 'reasoning') this.reasoning++;
    }
    if (header.kind === 'compact') bump(this.compactions, line.type === 'compacted' ? 'compacted' : String(item?.type));
    const u = this.usage.take(line);
    if (u) {
      this.responses++;
      const m = (this.byModel[this.model] ??= { ...zero(), responses: 0 });
      for (const f of CODEX_TOKEN_FIELDS) {
        this.tokens[f] += u.tokens[f];
        m[f] += u.tokens[f];
      }
      m.responses++;
      // Reasoning is part of output_tokens, and priced as output.
      const { reasoning_output_tokens: _, ...tokens } = u.tokens;
      const event = { model: this.model, time: timeOf(line.timestamp), tokens, cache_1h: 0, project: this.cwd };
      const nanos = this.priced.add(event);
      this.sink?.(event, nanos);
    }
  }

  /** Nothing is held: a response's usage is final on its line. */
  flush(): void {}

  private time(ts: unknown): void {
    if (typeof ts !== 'string') return;
    const ms = Date.parse(ts);
    if (Number.isNaN(ms)) return;
    if (ms < this.firstMs) [this.firstMs, this.firstTimestamp] = [ms, ts];
    if (ms > this.lastMs) [this.lastMs, this.lastTimestamp] = [ms, ts];
  }

  /** Fold in the counts of lines read before the session's id was known. */
  absorb(other: SessionCounter): void {
    if (other instanceof CodexSessionStats) this.fold(other);
  }

  /**
   * Take in a later part of the session counted on a worker: exact only into a counter
   * that has counted nothing, since a response's tokens may be the difference from the
   * running total before it, and its model the last turn_context's, both in the part before.
   */
  merge(later: unknown): boolean {
    if (this.lines > 0) return false;
    this.fold(later as CodexSessionStats);
    return true;
  }

  // `other` may be a structured clone (its tables then plain objects): only its own entries are read.
  private fold(other: CodexSessionStats): void {
    this.lines += other.lines;
    for (const [k, v] of Object.entries(other.kinds)) bump(this.kinds, k, v);
    for (const f of other.files) if (!this.files.includes(f)) this.files.push(f);
    this.typed += other.typed;
    this.inputs += other.inputs;
    for (const [k, v] of Object.entries(other.toolCalls)) bump(this.toolCalls, k, v);
    this.toolErrors += other.toolErrors;
    this.reasoning += other.reasoning;
    for (const [k, v] of Object.entries(other.compactions)) bump(this.compactions, k, v);
    this.responses += other.responses;
    for (const f of CODEX_TOKEN_FIELDS) this.tokens[f] += other.tokens[f];
    for (const [model, t] of Object.entries(other.byModel)) {
      const m = (this.byModel[model] ??= { ...zero(), responses: 0 });
      for (const f of CODEX_TOKEN_FIELDS) m[f] += t[f];
      m.responses += t.responses;
    }
    for (const m of other.models) this.models.add(m);
    for (const v of other.versions) this.versions.add(v);
    for (const [k, v] of Object.entries(other.unknownLineTypes)) bump(this.unknownLineTypes, k, v);
    this.priced.fold(other.priced as TallyData);
    this.invalidLines += other.invalidLines;
    this.time(other.firstTimestamp);
    this.time(other.lastTimestamp);
  }

  /** The summary object tx-stats writes (tx-stats(1) documents each field). */
  summary(): Record<string, unknown> {
    const sum = (c: Counts) => Object.values(c).reduce((a, b) => a + b, 0);
    const notes: string[] = [];
    if (this.typed === 0 && this.inputs > 0) notes.push(`no prompt events: ${this.inputs} user input item(s) not counted as typed prompts`);
    return {
      session: this.session,
      files: this.files,
      harness: 'codex',
      first_timestamp: this.firstTimestamp,
      last_timestamp: this.lastTimestamp,
      lines: this.lines,
      kinds: this.kinds,
      human_turns: { typed: this.typed, queued: 0, total: this.typed },
      tool_calls: { total: sum(this.toolCalls), by_name: this.toolCalls },
      tool_errors: this.toolErrors,
      reasoning_items: this.reasoning,
      compactions: { total: sum(this.compactions), by_subtype: this.compactions },
      api_messages: this.responses,
      tokens: { ...this.tokens, by_model: this.byModelOutput() },
      cost_usd: this.priced.cost(),
      models: [...this.models],
      versions: [...this.versions],
      not_counted: NOT_COUNTED,
      notes,
      coverage: { unknown_line_types: this.unknownLineTypes, invalid_lines: this.invalidLines, unpriced_models: this.priced.unpriced() },
    };
  }

  /** Tokens by model with each model's cost (null when it has no price). */
  private byModelOutput(): Record<string, Record<string, number | null>> {
    const costs = this.priced.byModelOutput('responses');
    const out: Record<string, Record<string, number | null>> = Object.create(null);
    for (const [model, t] of Object.entries(this.byModel)) out[model] = { ...t, cost_usd: Object.hasOwn(costs, model) ? costs[model].cost_usd : null };
    return out;
  }
}
