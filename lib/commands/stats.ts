// tx-stats: records in; one summary object per session out, written at the end of
// the input (a session's lines need not be contiguous, so none is done before then).
// Memory holds counters per session, never lines. tx-stats(1) is the reference.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { isMainThread } from 'node:worker_threads';
import { splitLines } from '../core/input/lines.js';
import { readRecordBatches, type RecordStreamItem } from '../records/read.js';
import { namedFileStream } from '../core/input/input-streams.js';
import { stdoutIsTerminal, UsageError, type Context, type Tool } from '../core/tool.js';
import type { SessionCounter } from '../codec.js';
import { DEFAULT_HARNESS, facetOf, loadAll, loadFacet } from '../codecs.js';
import { parsePhysicalLine } from '../records/parse-line.js';
import type { Harness } from '../record.js';
import { Buckets } from '../usage/buckets.js';
import { type Bucket } from '../usage/bucket.js';
import type { UsageEvent, UsageSink } from '../usage/event.js';
import { usageOptions, type UsageOptions } from '../usage/options.js';

const HELP = `usage: tx-stats [--by day|week|month|hour|block|project|model|session]
                [--tz ZONE] [--since DATE] [--until DATE] [--prices FILE]
                [--table|--ndjson] [--subagents] [--jobs N] [--strict] [FILE|DIR...]
       tx-stats --merge [--by block] [--tz ZONE] [FILE...]

Read records (tx-parse output) and write one JSON object per session: human
turns (typed, queued), tool calls by name, tool errors, skills, subagents, hooks
(ok, failed, by name), compactions, tokens by model (each API message once, by
message.id), models, CLI versions, first and last timestamp, and coverage notes
(line types, attachment types, system subtypes and fields it does not know, by
CLI version; expected fields that were missing). Sessions are grouped by
session id (Claude Code: sessionId; Codex: session_meta); lines without one go
with the last session of their file. Codex sessions have no skills, subagents or
hooks: their summaries list those under not_counted instead. Each API message
is priced at its model's prices (cost_usd), from @pydantic/genai-prices 0.1.8
(bundled: no network); a model with no price has cost_usd null and is named.

  --by G       one object per bucket instead: day, week (from Monday), month,
               hour, block (5-hour windows), project, model or session, each
               message counted at its own time
  --tz ZONE    the time zone of days, weeks and months (default: the system's)
  --since D, --until D
               with --by: only messages of these local days (YYYY-MM-DD)
  --prices F   prices that override or add to the database's (tx-stats(1))
  --merge      read tx-stats output (summaries or buckets) and merge it
  --table      a table for people (the default when stdout is a terminal)
  --ndjson     NDJSON even on a terminal

  --subagents  also read each session's subagent transcripts beside its files
               (<session>/subagents/agent-*.jsonl) and add subagent_totals
  --jobs N     with several files, count N at a time, on this thread and N-1
               worker threads, and merge their counters (default: the number
               of cores; the output is the same as with --jobs 1)
  --strict     exit 1 if any input line was not a record or its line not JSON
  -h, --help   this text        --version   the version
See tx-stats(1).`;

/** Where a counter's lines came from: its harness, session id and source files (for --subagents). */
interface Source {
  harness: Harness;
  id: string | null;
  files: Set<string>;
}

/** Usage a group of lines without a session id counted, held until it is known whose it is. */
type Held = [UsageEvent, number | null][];

/** One file's counters as a worker sends them: structured clones, in the order first seen. */
interface Part {
  sessions: { key: string; harness: Harness; id: string; counter: unknown; files: string[] }[];
  byFile: { file: string; harness: Harness; counter: unknown; files: string[]; held: Held }[];
  /** With --by: the file's buckets. */
  buckets: Bucket[] | null;
  /** The sessions of each source file (keys), for the lines before its first session id. */
  owners: { file: string; keys: string[] }[];
  /** Every source file a line named (a file's leading lines and its last session are its own). */
  files: string[];
  read: string[];
}

/** What tx-stats gathers: counters by session, the lines before a file's first session id, and where each came from. */
class Gathered {
  readonly sessions = new Map<string, SessionCounter>();
  readonly sources = new Map<SessionCounter, Source>();
  readonly read = new Set<string>();
  // Lines before a file's first session id (and files with none) are grouped by file.
  private readonly byFile = new Map<string, SessionCounter>();
  private readonly lastSession = new Map<string, SessionCounter>();
  private readonly fileSessions = new Map<string, Set<SessionCounter>>();
  /** The source files of the parts taken. */
  private readonly seen = new Set<string>();
  /** Set when a part could not be merged exactly: the input must be read again in one thread. */
  mismatch = false;
  /** With --by: the buckets, and the usage of groups without a session id, by group. */
  readonly buckets: Buckets | null;
  private readonly held = new Map<SessionCounter, Held>();

  constructor(usage: UsageOptions) {
    this.buckets = usage.by === null ? null : new Buckets(usage.by, usage.calendar, usage.range);
  }

  /** Where a counter's messages go with --by: a session's to the buckets, a group's held until write(). */
  private sink(harness: Harness, id: string | null, counter: () => SessionCounter): UsageSink | null {
    const buckets = this.buckets;
    if (buckets === null) return null;
    if (id !== null) return (e, nanos) => buckets.add(`${harness}\0${id}`, id, harness, e, nanos);
    return (e, nanos) => this.heldOf(counter()).push([e, nanos]);
  }

  private heldOf(counter: SessionCounter): Held {
    let h = this.held.get(counter);
    if (!h) this.held.set(counter, (h = []));
    return h;
  }

  /** Count one line of the input. */
  count(ctx: Context, item: RecordStreamItem): void {
    const rec = item.record;
    if (!rec) {
      ctx.warn(item, 'not a record, skipped');
      return;
    }
    const codec = facetOf(rec.header.harness, 'codec-stats');
    let line: any;
    if (rec.header.kind !== 'invalid') {
      try {
        line = rec.value(codec.unreadKey);
      } catch {
        ctx.warn({ src: rec.header.src, n: rec.header.n }, "the record's line is not JSON, counted as invalid");
        rec.header.kind = 'invalid';
      }
    }
    const id = line === undefined ? null : codec.envelope(line).session;
    // Sessions (and files' leading lines) of different harnesses never share counters.
    const file = `${codec.harness}\0${rec.header.src ?? '-'}`;
    const key = `${codec.harness}\0${id}`;
    let stats: SessionCounter | undefined;
    if (id !== null) {
      stats = this.sessions.get(key);
      if (!stats) this.sessions.set(key, (stats = codec.stats(id, this.sink(codec.harness, id, () => stats!))));
      this.lastSession.set(file, stats);
      let set = this.fileSessions.get(file);
      if (!set) this.fileSessions.set(file, (set = new Set()));
      set.add(stats);
    } else {
      stats = this.lastSession.get(file);
      if (!stats) {
        stats = this.byFile.get(file);
        if (!stats) this.byFile.set(file, (stats = codec.stats(null, this.sink(codec.harness, null, () => stats!))));
      }
    }
    stats.add(rec.header, line);
    if (rec.header.src !== undefined) {
      this.read.add(rec.header.src);
      let s = this.sources.get(stats);
      if (!s) this.sources.set(stats, (s = { harness: codec.harness, id, files: new Set() }));
      s.files.add(rec.header.src);
    }
  }

  /** The counters as data, for a worker to send. */
  part(): Part {
    // A message's chain ends with its file: what is held is counted before the counters go.
    for (const counter of [...this.sessions.values(), ...this.byFile.values()]) counter.flush?.();
    const keyOf = new Map<SessionCounter, string>();
    for (const [key, counter] of this.sessions) keyOf.set(counter, key);
    const files = (c: SessionCounter) => [...(this.sources.get(c)?.files ?? [])];
    return {
      sessions: [...this.sessions].map(([key, counter]) => ({ key, harness: key.split('\0')[0] as Harness, id: key.slice(key.indexOf('\0') + 1), counter, files: files(counter) })),
      byFile: [...this.byFile].map(([file, counter]) => ({ file, harness: file.split('\0')[0] as Harness, counter, files: files(counter), held: this.held.get(counter) ?? [] })),
      buckets: this.buckets?.data() ?? null,
      owners: [...this.fileSessions].map(([file, set]) => ({ file, keys: [...set].map((c) => keyOf.get(c)!) })),
      files: [...new Set([...this.lastSession.keys(), ...this.byFile.keys()])],
      read: [...this.read],
    };
  }

  /**
   * Take in the next file's part, as if its lines had been counted here. A source file
   * already seen (its leading lines would have gone to its last session) or a session
   * whose counter cannot merge exactly sets `mismatch` instead.
   */
  take(part: Part): void {
    if (this.mismatch) return;
    if (part.files.some((f) => this.seen.has(f))) {
      this.mismatch = true;
      return;
    }
    for (const f of part.files) this.seen.add(f);
    const counters = new Map<string, SessionCounter>();
    for (const s of part.sessions) {
      let counter = this.sessions.get(s.key);
      if (!counter) this.sessions.set(s.key, (counter = facetOf(s.harness, 'codec-stats').stats(s.id, this.sink(s.harness, s.id, () => counter!))));
      if (!counter.merge(s.counter)) {
        this.mismatch = true;
        return;
      }
      counters.set(s.key, counter);
      this.addSources(counter, s.harness, s.id, s.files);
    }
    for (const b of part.byFile) {
      const counter: SessionCounter = facetOf(b.harness, 'codec-stats').stats(null, this.sink(b.harness, null, () => counter));
      counter.merge(b.counter);
      if (b.held.length > 0) this.held.set(counter, b.held);
      this.byFile.set(b.file, counter);
      this.addSources(counter, b.harness, null, b.files);
    }
    for (const o of part.owners) this.fileSessions.set(o.file, new Set(o.keys.map((k) => counters.get(k)!)));
    for (const f of part.read) this.read.add(f);
    if (part.buckets) this.buckets?.fold(part.buckets);
  }

  private addSources(counter: SessionCounter, harness: Harness, id: string | null, files: string[]): void {
    if (files.length === 0) return;
    let s = this.sources.get(counter);
    if (!s) this.sources.set(counter, (s = { harness, id, files: new Set() }));
    for (const f of files) s.files.add(f);
  }

  /** Write one summary per session, then the groups of leading lines no session claims. */
  async write(ctx: Context): Promise<void> {
    const buckets = this.buckets;
    // With --by every message is counted into the buckets before any is written.
    if (buckets) for (const counter of [...this.sessions.values(), ...this.byFile.values()]) counter.flush?.();
    const keys = new Map<SessionCounter, [string, string]>();
    for (const [key, counter] of this.sessions) keys.set(counter, [key, key.slice(key.indexOf('\0') + 1)]);
    const orphans: SessionCounter[] = [];
    for (const [file, group] of this.byFile) {
      const owners = this.fileSessions.get(file);
      // A file with one session: its leading lines are that session's.
      const owner = owners && owners.size === 1 ? [...owners][0] : null;
      if (owner) owner.absorb(group);
      else orphans.push(group);
      const harness = file.slice(0, file.indexOf('\0')) as Harness;
      const [key, id] = owner ? keys.get(owner)! : [`${file}\0`, null];
      for (const [e, nanos] of this.held.get(group) ?? []) buckets?.add(key, id, harness, e, nanos);
    }
    const summaries = buckets ? [] : [...this.sessions.values(), ...orphans];
    const rows: Record<string, unknown>[] = [];
    const table = ctx.args.table === true || (stdoutIsTerminal(ctx.proc) && ctx.args.ndjson !== true);
    const noted = new Set<string>();
    for (const stats of summaries) {
      const summary = stats.summary();
      if (ctx.args.subagents) {
        const s = this.sources.get(stats);
        summary.subagent_totals = await subagentTotals(s?.harness ?? DEFAULT_HARNESS, s?.id ?? null, [...(s?.files ?? [])], this.read);
      }
      if (table) rows.push(summary);
      else await ctx.out.writeJson(summary);
      // What a harness has no notion of is said once, not printed as zeros.
      const missing = summary.not_counted;
      if (Array.isArray(missing) && missing.length > 0 && !noted.has(String(summary.harness))) {
        noted.add(String(summary.harness));
        ctx.note(`${missing.join(', ')}: not counted for ${summary.harness} sessions (the harness has no such thing); see not_counted`);
      }
    }
    if (buckets && ctx.args.subagents) {
      for (const [counter, [key, id]] of keys) {
        const s = this.sources.get(counter);
        const harness = s?.harness ?? 'claude-code';
        await subagentTotals(harness, id, [...(s?.files ?? [])], this.read, (e, nanos) => buckets.add(key, id, harness, e, nanos));
      }
    }
    const objects = buckets ? [...buckets.objects()] : rows;
    if (table) await ctx.out.write((await import('../usage/table.js')).usageTable(objects));
    else if (buckets) for (const o of objects) await ctx.out.writeJson(o);
  }
}

async function gather(ctx: Context, usage: UsageOptions): Promise<Gathered> {
  const gathered = new Gathered(usage);
  // Counting keeps nothing of a record: the file's chunks may be read into one buffer.
  for await (const batch of readRecordBatches(ctx, { reuse: true })) for (const item of batch) gathered.count(ctx, item);
  return gathered;
}

async function main(ctx: Context): Promise<void | number> {
  await loadAll('codec-stats');
  const usage = usageOptions(ctx.args);
  if (typeof usage === 'string') throw new UsageError(usage);
  // On a worker: the counters of its one file go back to the main thread as data.
  if (ctx.proc.send) {
    ctx.proc.send((await gather(ctx, usage)).part());
    return;
  }
  if (ctx.args.merge) return (await import('../usage/merge.js')).mergeStats(ctx, usage);
  const several = isMainThread && ctx.files.length > 1 && !ctx.files.includes('-');
  // --jobs is checked whenever it is given, used only with several files.
  if (several || ctx.args.jobs !== undefined) {
    const { jobsWanted, runOnWorkers } = await import('../core/parallel/workers.js');
    const jobs = await jobsWanted(ctx.args.jobs);
    if (typeof jobs === 'string') throw new UsageError(jobs);
    if (several && jobs > 1) {
      const gathered = new Gathered(usage);
      const ref = { url: import.meta.url, name: 'tx-stats' };
      const notes = { note: (first: string, others: string) => ctx.noteOnce(first, others) };
      // Its counting is its own code, run on every line: tiering late made it slower (16
      // files, --jobs 2, medians of 9: 1.67 s against 1.61 s).
      const more = { onData: (part: unknown) => gathered.take(part as Part), notes, usualTiering: true };
      const status = await runOnWorkers(ref, ctx.args, ctx.files, jobs, ctx.out, (text) => ctx.proc.stderr.write(text), more);
      // The workers said what there was to say about the lines; a second reading is silent.
      await (gathered.mismatch ? await gather(quietly(ctx), usage) : gathered).write(ctx);
      return status;
    }
  }
  await (await gather(ctx, usage)).write(ctx);
}

/** The context with its messages silenced and unreadable files passed over (they were named once already). */
function quietly(ctx: Context): Context {
  return {
    ...ctx,
    warn() {},
    note() {},
    noteOnce() {},
    async *inputs() {
      for (const name of ctx.files) {
        let stream: Readable;
        try {
          stream = namedFileStream(name);
        } catch {
          continue;
        }
        yield { src: name, stream };
      }
    },
  };
}

/**
 * The work of a session's subagents: the transcripts beside the session's files, each
 * read as tx-parse reads it, into one counter. A file already read (among the input,
 * or beside another file of the session) is not counted again.
 */
async function subagentTotals(harness: Harness, id: string | null, files: string[], read: Set<string>, sink: UsageSink | null = null): Promise<Record<string, unknown>> {
  const counter = facetOf(harness, 'codec-stats').stats(id, sink);
  // The store is found through the whole codec, loaded only here (--subagents).
  const { store } = await loadFacet(harness, 'codec');
  let transcripts = 0;
  for (const main of files) {
    for (const file of store?.subagentFiles(main) ?? []) {
      if (read.has(file)) continue;
      read.add(file);
      transcripts++;
      for await (const physical of splitLines(createReadStream(file, { highWaterMark: 1 << 20 }))) {
        for (const parsed of parsePhysicalLine(physical, file, harness)) counter.add(parsed.header, parsed.value);
      }
    }
  }
  const s = counter.summary();
  const pick = ['files', 'lines', 'tool_calls', 'tool_errors', 'skills', 'subagents', 'api_messages', 'tokens', 'cost_usd', 'models'];
  return { transcripts, ...Object.fromEntries(pick.map((k) => [k, s[k]])) };
}

/** The tx-stats tool. */
export const statsTool: Tool = { name: 'tx-stats', help: HELP, options: { boolean: ['subagents', 'merge', 'table', 'ndjson'], string: ['jobs', 'by', 'tz', 'since', 'until', 'prices'] }, main, directories: true };
