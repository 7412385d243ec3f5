// tx-stats: records in; one summary object per session out, written at the end of
// the input (a session's lines need not be contiguous, so none is done before then).
// Memory holds counters per session, never lines. tx-stats(1) is the reference.
import { createReadStream } from 'node:fs';
import { splitLines } from '../core/lines.js';
import { readRecordBatches } from '../core/records.js';
import type { Context, Tool } from '../core/run.js';
import type { SessionCounter } from '../codec.js';
import { codecFor } from '../codecs.js';
import { parsePhysicalLine } from '../parse-line.js';
import type { Harness } from '../record.js';

const HELP = `usage: tx-stats [--subagents] [--strict] [FILE...]

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
  --strict     exit 1 if any input line was not a record or its line not JSON
  -h, --help   this text        --version   the version
See tx-stats(1).`;

async function main(ctx: Context): Promise<void> {
  const sessions = new Map<string, SessionCounter>();
  // The files each counter's records came from, and every file read, for --subagents.
  const sources = new Map<SessionCounter, { harness: Harness; id: string | null; files: Set<string> }>();
  const read = new Set<string>();
  // Lines before a file's first session id (and files with none) are grouped by file.
  const byFile = new Map<string, SessionCounter>();
  const lastSession = new Map<string, SessionCounter>();
  const fileSessions = new Map<string, Set<SessionCounter>>();
  for await (const batch of readRecordBatches(ctx)) {
    for (const item of batch) {
      const rec = item.record;
      if (!rec) {
        ctx.warn(item, 'not a record, skipped');
        continue;
      }
      let line: any;
      if (rec.header.kind !== 'invalid') {
        try {
          line = rec.value();
        } catch {
          ctx.warn({ src: rec.header.src, n: rec.header.n }, "the record's line is not JSON, counted as invalid");
          rec.header.kind = 'invalid';
        }
      }
      const codec = codecFor(rec.header.harness);
      const id = line === undefined ? null : codec.envelope(line).session;
      // Sessions (and files' leading lines) of different harnesses never share counters.
      const file = `${codec.harness}\0${rec.header.src ?? '-'}`;
      const key = `${codec.harness}\0${id}`;
      let stats: SessionCounter | undefined;
      if (id !== null) {
        stats = sessions.get(key);
        if (!stats) sessions.set(key, (stats = codec.stats(id)));
        lastSession.set(file, stats);
        let set = fileSessions.get(file);
        if (!set) fileSessions.set(file, (set = new Set()));
        set.add(stats);
      } else {
        stats = lastSession.get(file);
        if (!stats) {
          stats = byFile.get(file);
          if (!stats) byFile.set(file, (stats = codec.stats(null)));
        }
      }
      stats.add(rec.header, line);
      if (rec.header.src !== undefined) {
        read.add(rec.header.src);
        let s = sources.get(stats);
        if (!s) sources.set(stats, (s = { harness: codec.harness, id, files: new Set() }));
        s.files.add(rec.header.src);
      }
    }
  }
  const orphans: SessionCounter[] = [];
  for (const [file, group] of byFile) {
    const owners = fileSessions.get(file);
    // A file with one session: its leading lines are that session's.
    if (owners && owners.size === 1) [...owners][0].absorb(group);
    else orphans.push(group);
  }
  const noted = new Set<string>();
  for (const stats of [...sessions.values(), ...orphans]) {
    const summary = stats.summary();
    if (ctx.args.subagents) {
      const s = sources.get(stats);
      summary.subagent_totals = await subagentTotals(s?.harness ?? 'claude-code', s?.id ?? null, [...(s?.files ?? [])], read);
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

/**
 * The work of a session's subagents: the transcripts beside the session's files, each
 * read as tx-parse reads it, into one counter. A file already read (among the input,
 * or beside another file of the session) is not counted again.
 */
async function subagentTotals(harness: Harness, id: string | null, files: string[], read: Set<string>): Promise<Record<string, unknown>> {
  const codec = codecFor(harness);
  const counter = codec.stats(id);
  let transcripts = 0;
  for (const main of files) {
    for (const file of codec.store?.subagentFiles(main) ?? []) {
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
export const statsTool: Tool = { name: 'tx-stats', help: HELP, options: { boolean: ['subagents'] }, main, directories: true };
