// tx-filter: records in; the records that answer a question out (unchanged bytes), or
// with --view one flat object per answer. Question flags are unioned; the generic
// filters (--kind, --type, --session, --since, --until, --grep, --sidechain, --main)
// narrow every question (AND). tx-filter(1) is the reference.
import { pushItem, readRecordBatches, type LongAction, type RecordStreamItem } from '../records/read.js';
import { UsageError, type Context, type Tool } from '../core/tool.js';
import { QUESTION_FLAGS, type FilterCodec, type Question, type QuestionFlag, type QuestionOptions, type View } from '../codec.js';
import { facetOf, loadAll } from '../codecs.js';
import { KINDS, type Harness, type Kind, type RecordHeader, type RecordView } from '../record.js';
import { stringifyJson } from '../core/json/json-text.js';

const HELP = `usage: tx-filter [QUESTION...] [FILTER...] [--view] [FILE...]

Read records (tx-parse output); write the records that match, unchanged, or with
--view one flat JSON object per match. Several questions: a record matching any.

Questions:
  --human-prompts         prompts a person typed, and prompts queued mid-turn
  --tool-calls            tool_use blocks (--name NAME: one tool)
  --tool-results          tool_result blocks (--errors: only is_error ones)
  --reasoning             thinking blocks (Claude Code), reasoning items (Codex)
  --skills                Skill calls, their results, skill attribution (--name SKILL)
  --subagents             Agent/Task dispatches, joined to subagent files (--name TYPE)
  --hooks                 hook runs and output (--failed; --name EVENT or HOOKNAME)
  --compactions           compact_boundary / microcompact_boundary lines
  --usage                 token usage, one view per API message (by message.id)
  --modes                 effort, permission-mode and mode changes
Filters (all must hold):
  --kind K                record kind (repeatable)     --type T   line type (repeatable)
  --session ID            sessionId, or a prefix of it
  --since TIME            timestamp >= TIME            --until TIME   timestamp < TIME
  --grep REGEX            a string of the line's text matches (JavaScript syntax)
  --sidechain / --main    only subagent (isSidechain) lines / only the others
  --invert                write the records that do not match (not with --view)
Output:
  --view                  flat objects instead of records
  --max-chars N           cut strings in views to N characters (default: whole)
  --strict                exit 1 if any input line was not a record or not JSON
  --jobs N                with several files and no --view, filter N at a time, on
                          this thread and N-1 worker threads (default: the cores;
                          output in file order)
  -h, --help   this text        --version   the version
See tx-filter(1).`;

interface Filters {
  kinds: Set<Kind> | null;
  types: Set<string> | null;
  session?: string;
  since?: number;
  until?: number;
  grep?: RegExp;
  sidechain?: boolean;
  /** Some filter needs the parsed line. */
  needsLine: boolean;
}

function list(v: unknown): string[] {
  if (v === undefined || v === null || v === false) return [];
  return ([] as unknown[]).concat(v).map(String);
}

function one(args: Record<string, unknown>, key: string): string | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new UsageError(`--${key} given more than once`);
  return String(v);
}

function time(args: Record<string, unknown>, key: string): number | undefined {
  const v = one(args, key);
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new UsageError(`--${key}: not a date or time: ${v}`);
  return t;
}

function readFilters(args: Record<string, unknown>): Filters {
  const kinds = list(args.kind);
  for (const k of kinds) if (!(KINDS as readonly string[]).includes(k)) throw new UsageError(`--kind: unknown kind ${k} (kinds: ${KINDS.join(', ')})`);
  const types = list(args.type);
  if (args.sidechain && args.main) throw new UsageError('--sidechain and --main exclude each other');
  const grepText = one(args, 'grep');
  let grep: RegExp | undefined;
  if (grepText !== undefined) {
    try {
      grep = new RegExp(grepText, 'u');
    } catch (err) {
      throw new UsageError(`--grep: ${(err as Error).message}`);
    }
  }
  const f: Filters = {
    kinds: kinds.length > 0 ? new Set(kinds as Kind[]) : null,
    types: types.length > 0 ? new Set(types) : null,
    session: one(args, 'session'),
    since: time(args, 'since'),
    until: time(args, 'until'),
    grep,
    sidechain: args.sidechain ? true : args.main ? false : undefined,
    needsLine: false,
  };
  f.needsLine = f.types !== null || f.session !== undefined || f.since !== undefined || f.until !== undefined || f.grep !== undefined || f.sidechain !== undefined;
  return f;
}

function passesLineFilters(f: Filters, codec: FilterCodec, line: any, session: string | null): boolean {
  if (!line || typeof line !== 'object') return false;
  if (f.types && !f.types.has(line.type)) return false;
  const envelope = codec.envelope(line);
  if (f.session !== undefined && !(session !== null && session.startsWith(f.session))) return false;
  if (f.since !== undefined || f.until !== undefined) {
    const t = envelope.timestamp !== null ? Date.parse(envelope.timestamp) : NaN;
    if (Number.isNaN(t)) return false;
    if (f.since !== undefined && t < f.since) return false;
    if (f.until !== undefined && t >= f.until) return false;
  }
  if (f.sidechain !== undefined && envelope.sidechain !== f.sidechain) return false;
  if (f.grep) {
    let hit = false;
    for (const s of codec.strings(line)) {
      if (f.grep.test(s)) {
        hit = true;
        break;
      }
    }
    if (!hit) return false;
  }
  return true;
}

function maxChars(args: Record<string, unknown>): number {
  const v = one(args, 'max-chars');
  // Whole values unless asked: a jq user expects a field to hold what the line holds.
  if (v === undefined) return 0;
  if (!/^\d+$/.test(v)) throw new UsageError(`--max-chars: not a whole number: ${v}`);
  return Number(v);
}

/** The questions asked, as each harness answers them; a question a harness cannot answer is said once on stderr. */
class Questions {
  private readonly byHarness = new Map<Harness, Question[]>();
  /** Every question made, in the order made, for the views held back to the end. */
  readonly all: Question[] = [];

  constructor(
    private readonly ctx: Context,
    readonly flags: QuestionFlag[],
    private readonly options: QuestionOptions,
  ) {}

  /** The questions for records of a harness. */
  of(harness: Harness): Question[] {
    let qs = this.byHarness.get(harness);
    if (qs) return qs;
    const codec = facetOf(harness, 'codec-filter');
    qs = [];
    for (const flag of this.flags) {
      const q = codec.question(flag, this.options);
      if (q) qs.push(q);
      else this.ctx.note(`--${flag} does not apply to ${harness} sessions: their records never match it`);
    }
    this.byHarness.set(harness, qs);
    this.all.push(...qs);
    return qs;
  }
}

async function main(ctx: Context): Promise<void> {
  await loadAll('codec-filter');
  const args = ctx.args;
  const flags = QUESTION_FLAGS.filter((q) => args[q]);
  if (args.errors && !args['tool-results']) throw new UsageError('--errors goes with --tool-results');
  if (args.failed && !args.hooks) throw new UsageError('--failed goes with --hooks');
  const name = one(args, 'name');
  if (name !== undefined && !flags.some((q) => q === 'tool-calls' || q === 'hooks' || q === 'skills' || q === 'subagents')) {
    throw new UsageError('--name goes with --tool-calls, --hooks, --skills or --subagents');
  }
  if (args.invert && args.view) throw new UsageError('--invert writes records; it does not go with --view');
  const filters = readFilters(args);
  const options = { maxChars: maxChars(args), name, errors: Boolean(args.errors), failed: Boolean(args.failed) };
  const questions = new Questions(ctx, flags, options);
  const tag = flags.length > 1;

  // Kinds worth parsing, per harness: those some question can match, narrowed by --kind.
  const wantedBy = new Map<Harness, Set<Kind> | null>();
  const wanted = (harness: Harness): Set<Kind> | null => {
    if (wantedBy.has(harness)) return wantedBy.get(harness)!;
    let w: Set<Kind> | null = null;
    if (flags.length > 0) w = new Set(questions.of(harness).flatMap((q) => [...q.kinds]));
    if (filters.kinds) w = w ? new Set([...w].filter((k) => filters.kinds!.has(k))) : filters.kinds;
    wantedBy.set(harness, w);
    return w;
  };

  const sessionOfFile = new Map<string, string>();
  // Output is appended synchronously and flushed once per batch of input records.
  const emit = (q: Question, views: View[]) => {
    for (const v of views) ctx.out.pushText(stringifyJson(tag ? { question: q.name, ...v } : v) + '\n');
  };

  // A record too long to hold is invalid: it is copied through only when its kind alone selects it.
  const long = (header: RecordHeader): LongAction => {
    const want = wanted(header.harness);
    let selected = (want === null || want.has(header.kind)) && !filters.needsLine && flags.length === 0;
    if (args.invert) selected = !selected;
    return selected && !args.view ? 'copy' : 'drop';
  };
  const take = (item: RecordStreamItem): void => {
    if (item.long) return;
    const rec = item.record;
    if (!rec) {
      ctx.warn(item, 'not a record, skipped');
      return;
    }
    const codec = facetOf(rec.header.harness, 'codec-filter');
    const want = wanted(codec.harness);
    const asked = flags.length > 0 ? questions.of(codec.harness) : [];
    let selected = want === null || want.has(rec.header.kind);
    if (selected && (filters.needsLine || asked.length > 0) && rec.header.kind !== 'invalid') {
      if (!parses(ctx, rec)) selected = false;
    }
    // Where a harness names its session once (in a bookkeeping line), later lines of the file belong to it.
    const fileKey = `${codec.harness}\0${rec.header.src ?? ''}`;
    if (filters.session !== undefined && codec.sessionFollows && rec.header.kind === 'meta') {
      const named = namedSession(codec, rec);
      if (named !== null) sessionOfFile.set(fileKey, named);
    }
    if (selected && filters.needsLine && rec.header.kind !== 'invalid') {
      const line = rec.value();
      let session = line && typeof line === 'object' ? codec.envelope(line).session : null;
      if (session === null && codec.sessionFollows) session = sessionOfFile.get(fileKey) ?? null;
      selected = passesLineFilters(filters, codec, line, session);
    } else if (selected && filters.needsLine) selected = false;
    if (args.view) {
      if (!selected) return;
      if (flags.length === 0) ctx.out.pushText(stringifyJson(codec.lineView(rec, options.maxChars)) + '\n');
      for (const q of asked) emit(q, q.views(rec));
      return;
    }
    if (selected && flags.length > 0) selected = asked.some((q) => q.match(rec));
    if (args.invert) selected = !selected;
    if (selected) pushItem(ctx.out, item);
  };
  // A record is copied into the output or dropped at once; views may be kept to the end of the input.
  for await (const batch of readRecordBatches(ctx, { long, lazyNative: true, reuse: !args.view })) {
    for (const item of batch) take(item);
    await ctx.out.flushIfFull();
  }
  if (args.view) for (const q of questions.all) if (q.end) emit(q, q.end());
}

/** The session a record's line names, or null (also when the line is not JSON: that is reported where it is used). */
function namedSession(codec: FilterCodec, rec: RecordView): string | null {
  try {
    return codec.envelope(rec.value()).session;
  } catch {
    return null;
  }
}

// A record whose native line is not JSON (from a program other than tx-parse) is reported once and matches nothing.
function parses(ctx: Context, rec: RecordView): boolean {
  try {
    rec.value();
    return true;
  } catch {
    ctx.warn({ src: rec.header.src, n: rec.header.n }, 'the record\'s line is not JSON, it matches nothing');
    return false;
  }
}

/** The tx-filter tool. */
export const filterTool: Tool = {
  name: 'tx-filter',
  help: HELP,
  options: {
    boolean: ['view', ...QUESTION_FLAGS, 'errors', 'failed', 'sidechain', 'main', 'invert'],
    string: ['name', 'kind', 'type', 'session', 'since', 'until', 'grep', 'max-chars'],
  },
  valueHints: { 'tool-calls': '--tool-calls --name TOOL', hooks: '--hooks --name EVENT' },
  main,
  // Records are kept or dropped one by one, so files are independent; views are not
  // (some questions answer at the end of the whole input, --usage by message.id).
  parallel: { url: import.meta.url, when: (args) => !args.view },
  directories: true,
};
