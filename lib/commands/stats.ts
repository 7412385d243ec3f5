// tx-stats: records in; one summary object per session out, written at the end of
// the input (a session's lines need not be contiguous, so none is done before then).
// Memory holds counters per session, never lines. tx-stats(1) is the reference.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { isMainThread } from 'node:worker_threads';
import { splitLines } from '../core/lines.js';
import { readRecordBatches, type RecordStreamItem } from '../core/records.js';
import { namedFileStream, UsageError, type Context, type Tool } from '../core/run.js';
import type { SessionCounter } from '../codec.js';
import { statsCodecFor } from '../codecs-stats.js';
import { parsePhysicalLine } from '../parse-line.js';
import type { Harness } from '../record.js';

const HELP = `usage: tx-stats [--subagents] [--jobs N] [--strict] [FILE|DIR...]

Read records (tx-parse output) and write one JSON object per session: human
turns (typed, queued), tool calls by name, tool errors, skills, subagents, hooks
(ok, failed, by name), compactions, tokens by model (each API message once, by
message.id), models, CLI versions, first and last timestamp, and coverage notes
(line types, attachment types, system subtypes and fields it does not know, by
CLI version; expected fields that were missing). Sessions are grouped by
session id (Claude Code: sessionId; Codex: session_meta); lines without one go
with the last session of their file. Codex sessions have no skills, subagents or
hooks: their summaries list those under not_counted instead.

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

/** One file's counters as a worker sends them: structured clones, in the order first seen. */
interface Part {
  sessions: { key: string; harness: Harness; id: string; counter: unknown; files: string[] }[];
  byFile: { file: string; harness: Harness; counter: unknown; files: string[] }[];
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

  /** Count one line of the input. */
  count(ctx: Context, item: RecordStreamItem): void {
    const rec = item.record;
    if (!rec) {
      ctx.warn(item, 'not a record, skipped');
      return;
    }
    const codec = statsCodecFor(rec.header.harness);
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
      if (!stats) this.sessions.set(key, (stats = codec.stats(id)));
      this.lastSession.set(file, stats);
      let set = this.fileSessions.get(file);
      if (!set) this.fileSessions.set(file, (set = new Set()));
      set.add(stats);
    } else {
      stats = this.lastSession.get(file);
      if (!stats) {
        stats = this.byFile.get(file);
        if (!stats) this.byFile.set(file, (stats = codec.stats(null)));
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
    for (const counter of [...this.sessions.values(), ...this.byFile.values()]) counter.flush();
    const keyOf = new Map<SessionCounter, string>();
    for (const [key, counter] of this.sessions) keyOf.set(counter, key);
    const files = (c: SessionCounter) => [...(this.sources.get(c)?.files ?? [])];
    return {
      sessions: [...this.sessions].map(([key, counter]) => ({ key, harness: key.split('\0')[0] as Harness, id: key.slice(key.indexOf('\0') + 1), counter, files: files(counter) })),
      byFile: [...this.byFile].map(([file, counter]) => ({ file, harness: file.split('\0')[0] as Harness, counter, files: files(counter) })),
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
      if (!counter) this.sessions.set(s.key, (counter = statsCodecFor(s.harness).stats(s.id)));
      if (!counter.merge(s.counter)) {
        this.mismatch = true;
        return;
      }
      counters.set(s.key, counter);
      this.addSources(counter, s.harness, s.id, s.files);
    }
    for (const b of part.byFile) {
      const counter = statsCodecFor(b.harness).stats(null);
      counter.merge(b.counter);
      this.byFile.set(b.file, counter);
      this.addSources(counter, b.harness, null, b.files);
    }
    for (const o of part.owners) this.fileSessions.set(o.file, new Set(o.keys.map((k) => counters.get(k)!)));
    for (const f of part.read) this.read.add(f);
  }

  private addSources(counter: SessionCounter, harness: Harness, id: string | null, files: string[]): void {
    if (files.length === 0) return;
    let s = this.sources.get(counter);
    if (!s) this.sources.set(counter, (s = { harness, id, files: new Set() }));
    for (const f of files) s.files.add(f);
  }

  /** Write one summary per session, then the groups of leading lines no session claims. */
  async write(ctx: Context): Promise<void> {
    const orphans: SessionCounter[] = [];
    for (const [file, group] of this.byFile) {
      const owners = this.fileSessions.get(file);
      // A file with one session: its leading lines are that session's.
      if (owners && owners.size === 1) [...owners][0].absorb(group);
      else orphans.push(group);
    }
    const noted = new Set<string>();
    for (const stats of [...this.sessions.values(), ...orphans]) {
      const summary = stats.summary();
      if (ctx.args.subagents) {
        const s = this.sources.get(stats);
        summary.subagent_totals = await subagentTotals(s?.harness ?? 'claude-code', s?.id ?? null, [...(s?.files ?? [])], this.read);
      }
      await ctx.out.writeJson(summary);
      // What a harness has no notion of is said once, not printed as zeros.
      const missing = summary.not_counted;
      if (Array.isArray(missing) && missing.length > 0 && !noted.has(String(summary.harness))) {
        noted.add(String(summary.harness));
        ctx.note(`${missing.join(', ')}: not counted for ${summary.harness} sessions (the harness has no such thing); see not_counted`);
      }
    }
  }
}

async function gather(ctx: Context): Promise<Gathered> {
  const gathered = new Gathered();
  // Counting keeps nothing of a record: the file's chunks may be read into one buffer.
  for await (const batch of readRecordBatches(ctx, { reuse: true })) for (const item of batch) gathered.count(ctx, item);
  return gathered;
}

async function main(ctx: Context): Promise<void | number> {
  // On a worker: the counters of its one file go back to the main thread as data.
  if (ctx.proc.send) {
    ctx.proc.send((await gather(ctx)).part());
    return;
  }
  const several = isMainThread && ctx.files.length > 1 && !ctx.files.includes('-');
  // --jobs is checked whenever it is given, used only with several files.
  if (several || ctx.args.jobs !== undefined) {
    const { jobsWanted, runOnWorkers } = await import('../core/workers.js');
    const jobs = await jobsWanted(ctx.args.jobs);
    if (typeof jobs === 'string') throw new UsageError(jobs);
    if (several && jobs > 1) {
      const gathered = new Gathered();
      const ref = { url: import.meta.url, name: 'tx-stats' };
      const notes = { note: (first: string, others: string) => ctx.noteOnce(first, others) };
      // Its counting is its own code, run on every line: tiering late made it slower (16
      // files, --jobs 2, medians of 9: 1.67 s against 1.61 s).
      const more = { onData: (part: unknown) => gathered.take(part as Part), notes, usualTiering: true };
      const status = await runOnWorkers(ref, ctx.args, ctx.files, jobs, ctx.out, (text) => ctx.proc.stderr.write(text), more);
      // The workers said what there was to say about the lines; a second reading is silent.
      await (gathered.mismatch ? await gather(quietly(ctx)) : gathered).write(ctx);
      return status;
    }
  }
  await (await gather(ctx)).write(ctx);
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
async function subagentTotals(harness: Harness, id: string | null, files: string[], read: Set<string>): Promise<Record<string, unknown>> {
  const counter = statsCodecFor(harness).stats(id);
  // The store is found through the whole codec, loaded only here (--subagents).
  const { store } = (await import('../codecs.js')).codecFor(harness);
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
  const pick = ['files', 'lines', 'tool_calls', 'tool_errors', 'skills', 'subagents', 'api_messages', 'tokens', 'models'];
  return { transcripts, ...Object.fromEntries(pick.map((k) => [k, s[k]])) };
}

/** The tx-stats tool. */
export const statsTool: Tool = { name: 'tx-stats', help: HELP, options: { boolean: ['subagents'], string: ['jobs'] }, main, directories: true };
