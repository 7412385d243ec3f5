// The counters of one pi session for tx-stats. pi writes each reply once, whole, as one
// `message` entry of role assistant with its final usage, so every assistant message is
// one API message, handed on to the usage sink as it is read: nothing is held but the
// counters and the links needed to tell branch points (one parent id per entry).
// Every branch of the file is counted: each reply there was a request. Subagents and
// hooks are not pi notions: the summary lists them under `not_counted`.
import type { SessionCounter } from '../codec.js';
import { keyed, tally } from '../core/keyed.js';
import type { RecordHeader } from '../record.js';
import { addTokens, timeOf, zeroTokens, type UsageEvent, type UsageSink } from '../usage/event.js';
import { UsageTally, type TallyData } from '../usage/tally.js';
import { ENTRY_TYPES, MESSAGE_ROLES } from './format.js';
import { commonUsage } from './usage.js';
import { clientCost, skillOf } from './views.js';

type Counts = Record<string, number>;

const KNOWN_TYPES: ReadonlySet<string> = new Set(ENTRY_TYPES);
const KNOWN_ROLES: ReadonlySet<string> = new Set([...MESSAGE_ROLES, 'hookMessage']);
const str = (v: unknown): v is string => typeof v === 'string';

/** What tx-stats does not count for pi, and says so in every pi summary. */
export const NOT_COUNTED = ['subagents', 'hooks'];

/** The counters of one pi session. */
export class PiSessionStats implements SessionCounter {
  private files: string[] = [];
  private firstTimestamp: string | null = null;
  private lastTimestamp: string | null = null;
  private firstMs = Infinity;
  private lastMs = -Infinity;
  private lines = 0;
  private kinds: Counts = keyed();
  private typed = 0;
  private toolCalls: Counts = keyed();
  private toolErrors = 0;
  private skills: Counts = keyed();
  private shell = { total: 0, failed: 0, excluded: 0 };
  private compactions: Counts = keyed();
  private tokensBefore = 0;
  private branchSummaries = 0;
  private replies: Counts = keyed();
  private modeChanges = { model: 0, thinking_level: 0 };
  private models: string[] = [];
  private providers: string[] = [];
  /** pi's own reckoning of the replies' cost (its registry's prices), in nanodollars, and how many replies had one. */
  private clientNanos = 0;
  private clientPriced = 0;
  private unknownLineTypes: Counts = keyed();
  private unknownRoles: Counts = keyed();
  private invalidLines = 0;
  private cwd: string | null = null;
  /** The parent of each entry seen, and the entries with more than one child (where the file branches). */
  private childOf = new Set<string>();
  private branchPoints = new Set<string>();
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
    tally(this.kinds, header.kind);
    if (header.src !== undefined && !this.files.includes(header.src)) this.files.push(header.src);
    if (header.kind === 'invalid') {
      this.invalidLines++;
      return;
    }
    if (header.kind === 'prompt') this.typed++;
    if (!line || typeof line !== 'object' || Array.isArray(line)) return;
    this.time(line.timestamp);
    if (str(line.type) && !KNOWN_TYPES.has(line.type)) tally(this.unknownLineTypes, line.type);
    if (str(line.parentId)) {
      if (this.childOf.has(line.parentId)) this.branchPoints.add(line.parentId);
      else this.childOf.add(line.parentId);
    }
    switch (line.type) {
      case 'session':
        if (str(line.cwd) && line.cwd !== '') this.cwd = line.cwd;
        return;
      case 'compaction':
        tally(this.compactions, line.fromHook === true ? 'extension' : 'compaction');
        if (typeof line.tokensBefore === 'number' && Number.isFinite(line.tokensBefore)) this.tokensBefore += line.tokensBefore;
        return;
      case 'branch_summary':
        this.branchSummaries++;
        return;
      case 'model_change':
        this.modeChanges.model++;
        return;
      case 'thinking_level_change':
        this.modeChanges.thinking_level++;
        return;
      case 'message':
        if (line.message && typeof line.message === 'object') this.message(line, line.message);
        return;
      default:
        return;
    }
  }

  private message(line: any, m: any): void {
    if (str(m.role) && !KNOWN_ROLES.has(m.role)) tally(this.unknownRoles, m.role);
    switch (m.role) {
      case 'user': {
        const skill = skillOf(m);
        if (skill) tally(this.skills, skill.skill);
        return;
      }
      case 'toolResult':
        if (m.isError === true) this.toolErrors++;
        return;
      case 'bashExecution':
        this.shell.total++;
        if (m.cancelled === true || (typeof m.exitCode === 'number' && m.exitCode !== 0)) this.shell.failed++;
        if (m.excludeFromContext === true) this.shell.excluded++;
        return;
      case 'assistant':
        this.reply(line, m);
        return;
      default:
        return;
    }
  }

  private reply(line: any, m: any): void {
    if (Array.isArray(m.content)) for (const b of m.content) if (b && b.type === 'toolCall') tally(this.toolCalls, str(b.name) ? b.name : '(none)');
    if (m.stopReason === 'aborted' || m.stopReason === 'error') tally(this.replies, m.stopReason);
    const model = str(m.model) && m.model !== '' ? m.model : 'unknown';
    if (!this.models.includes(model)) this.models.push(model);
    if (str(m.provider) && !this.providers.includes(m.provider)) this.providers.push(m.provider);
    const cost = clientCost(m.usage);
    if (cost !== null) {
      this.clientNanos += Math.round(cost * 1e9);
      this.clientPriced++;
    }
    const u = commonUsage(m.usage);
    const tokens = zeroTokens();
    if (u) addTokens(tokens, { input_tokens: u.input_tokens ?? 0, output_tokens: u.output_tokens ?? 0, cache_read_input_tokens: u.cache_read_input_tokens ?? 0, cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0 });
    const time = str(line.timestamp) ? timeOf(line.timestamp) : typeof m.timestamp === 'number' ? m.timestamp : NaN;
    const event: UsageEvent = { model, time, tokens, cache_1h: 0, project: this.cwd };
    if (str(m.provider) && m.provider !== '') event.provider = m.provider;
    const nanos = this.priced.add(event);
    this.sink?.(event, nanos);
  }

  /** Nothing is held: a reply's usage is final on its line. */
  flush(): void {}

  private time(ts: unknown): void {
    if (!str(ts)) return;
    const ms = Date.parse(ts);
    if (Number.isNaN(ms)) return;
    if (ms < this.firstMs) [this.firstMs, this.firstTimestamp] = [ms, ts];
    if (ms > this.lastMs) [this.lastMs, this.lastTimestamp] = [ms, ts];
  }

  /** Fold in the counts of lines read before the session's id was known. */
  absorb(other: SessionCounter): void {
    if (other instanceof PiSessionStats) this.fold(other);
  }

  /** Take in a later part of the session counted on a worker: exact only into a counter that has counted nothing (a branch point may span the parts). */
  merge(later: unknown): boolean {
    if (this.lines > 0) return false;
    this.fold(later as PiSessionStats);
    return true;
  }

  // `other` may be a structured clone (its tables then plain objects): only its own entries are read.
  private fold(o: PiSessionStats): void {
    this.lines += o.lines;
    for (const [k, v] of Object.entries(o.kinds)) tally(this.kinds, k, v);
    for (const f of o.files) if (!this.files.includes(f)) this.files.push(f);
    this.typed += o.typed;
    for (const [k, v] of Object.entries(o.toolCalls)) tally(this.toolCalls, k, v);
    this.toolErrors += o.toolErrors;
    for (const [k, v] of Object.entries(o.skills)) tally(this.skills, k, v);
    this.shell.total += o.shell.total;
    this.shell.failed += o.shell.failed;
    this.shell.excluded += o.shell.excluded;
    for (const [k, v] of Object.entries(o.compactions)) tally(this.compactions, k, v);
    this.tokensBefore += o.tokensBefore;
    this.branchSummaries += o.branchSummaries;
    for (const [k, v] of Object.entries(o.replies)) tally(this.replies, k, v);
    this.modeChanges.model += o.modeChanges.model;
    this.modeChanges.thinking_level += o.modeChanges.thinking_level;
    for (const m of o.models) if (!this.models.includes(m)) this.models.push(m);
    for (const p of o.providers) if (!this.providers.includes(p)) this.providers.push(p);
    this.clientNanos += o.clientNanos;
    this.clientPriced += o.clientPriced;
    for (const [k, v] of Object.entries(o.unknownLineTypes)) tally(this.unknownLineTypes, k, v);
    for (const [k, v] of Object.entries(o.unknownRoles)) tally(this.unknownRoles, k, v);
    this.invalidLines += o.invalidLines;
    this.cwd ??= o.cwd;
    for (const p of o.childOf) {
      if (this.childOf.has(p)) this.branchPoints.add(p);
      else this.childOf.add(p);
    }
    for (const p of o.branchPoints) this.branchPoints.add(p);
    this.priced.fold(o.priced as TallyData);
    this.time(o.firstTimestamp);
    this.time(o.lastTimestamp);
  }

  /** The summary object tx-stats writes (tx-stats(1), PI SESSIONS, documents each field). */
  summary(): Record<string, unknown> {
    const sum = (c: Counts) => Object.values(c).reduce((a, b) => a + b, 0);
    const tokens = zeroTokens();
    addTokens(tokens, this.priced.tokens);
    return {
      session: this.session,
      files: this.files,
      harness: 'pi',
      first_timestamp: this.firstTimestamp,
      last_timestamp: this.lastTimestamp,
      lines: this.lines,
      kinds: this.kinds,
      human_turns: { typed: this.typed, queued: 0, total: this.typed },
      tool_calls: { total: sum(this.toolCalls), by_name: this.toolCalls },
      tool_errors: this.toolErrors,
      skills: this.skills,
      shell_commands: { ...this.shell },
      compactions: { total: sum(this.compactions), by_subtype: this.compactions, tokens_before: this.tokensBefore },
      branches: { points: this.branchPoints.size, summaries: this.branchSummaries },
      failed_replies: this.replies,
      mode_changes: { ...this.modeChanges },
      api_messages: this.priced.messages,
      tokens: { ...tokens, by_model: this.priced.byModelOutput('messages') },
      cost_usd: this.priced.cost(),
      client_cost_usd: this.clientPriced > 0 ? this.clientNanos / 1e9 : null,
      models: this.models,
      providers: this.providers,
      versions: [],
      not_counted: NOT_COUNTED,
      notes: [],
      coverage: { unknown_line_types: this.unknownLineTypes, unknown_roles: this.unknownRoles, invalid_lines: this.invalidLines, unpriced_models: this.priced.unpriced() },
    };
  }
}
