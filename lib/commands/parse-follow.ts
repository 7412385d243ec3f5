// tx-parse --follow: records of the lines appended to session files, as they are
// written, like `tail -F`. The bytes come from lib/core/input/follow.ts and go through the
// same line splitter and SourceParser as a plain read, so once the writer stops the
// output is what tx-parse writes for the file. A line is complete at its newline: an
// unfinished last line waits, and is written as a last line without newline only when
// the file's content ends (truncation, replacement, or the end of following).
import { closeSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Codec } from '../codec.js';
import { HARNESSES, loadAll } from '../codecs.js';
import { follow } from '../core/input/follow.js';
import { describeError } from '../core/fs-error.js';
import { LineSplitter } from '../core/input/lines.js';
import { openRegular } from '../core/input/regular-file.js';
import { stdinIsTerminal, ToolError, UsageError, type Context } from '../core/tool.js';
import { currentSessionForTerminal } from './current-session.js';
import { SourceParser } from '../records/source-parser.js';
import { sessionsById, storeRoots } from './session-lookup.js';

/** What to follow: a file, and whether its subagent transcripts come with it. */
interface Target {
  file: string;
  subagents: boolean;
}

/** The session file an id (or a unique prefix of one) names, in any harness's store. */
async function sessionById(ctx: Context, id: string): Promise<string> {
  // A compressed (archived) rollout is not appended to: there is nothing to follow.
  const matches = sessionsById(await storeRoots(ctx.proc.env), id).filter((m) => m.path.endsWith('.jsonl'));
  if (matches.length === 0) throw new ToolError(`${id}: no such file, and no session of that id in the stores (${HARNESSES.join(', ')})`);
  if (matches.length > 1) throw new ToolError(`${id} names ${matches.length} sessions: ${matches.map((m) => m.path).join(', ')}`);
  return matches[0].path;
}

async function targetsOf(ctx: Context): Promise<Target[]> {
  if (ctx.files.includes('-')) throw new UsageError('--follow reads files, not stdin (stdin is read to its end without --follow)');
  if (ctx.files.length === 0) {
    if (!stdinIsTerminal(ctx.proc)) throw new UsageError('--follow needs a FILE or a session id (stdin is read to its end without --follow)');
    return [{ file: await currentSessionForTerminal(ctx), subagents: true }];
  }
  const targets: Target[] = [];
  for (const name of ctx.files) {
    if (existsSync(name) || name.includes('/') || name.endsWith('.jsonl')) targets.push({ file: name, subagents: false });
    else targets.push({ file: await sessionById(ctx, name), subagents: true });
  }
  return targets;
}

/** The subagent transcripts beside the sessions, and the directories that hold them. */
function subagentsOf(codecs: Codec[], sessions: string[]): { files: string[]; dirs: string[] } {
  const files = new Set<string>();
  for (const session of sessions) for (const codec of codecs) for (const f of codec.store?.subagentFiles(session) ?? []) files.add(f);
  return { files: [...files], dirs: [...new Set([...files].map((f) => path.dirname(f)))] };
}

/** One followed file's reading state: its splitter and its parser, started again when its content does. */
class FollowedSource {
  private splitter = new LineSplitter();
  private parser: SourceParser;

  constructor(
    private readonly ctx: Context,
    private readonly src: string,
  ) {
    this.parser = new SourceParser(ctx, src);
  }

  push(chunk: Buffer): void {
    this.parser.push(this.splitter.push(chunk));
  }

  /** The content ended: an unfinished last line is written as tx-parse writes a last line without newline. */
  end(): void {
    this.parser.push(this.splitter.end());
  }

  restart(): void {
    this.end();
    this.splitter = new LineSplitter();
    this.parser = new SourceParser(this.ctx, this.src);
  }
}

/** tx-parse --follow: follow the files (or sessions) named until SIGINT or SIGTERM. */
export async function followParse(ctx: Context): Promise<void> {
  const targets = await targetsOf(ctx);
  let unreadable = 0;
  const files: string[] = [];
  for (const t of targets) {
    try {
      closeSync(openRegular(t.file).fd);
      files.push(t.file);
    } catch (err) {
      unreadable++;
      ctx.note(`${t.file}: cannot follow: ${describeError(err)}`);
    }
  }
  if (files.length === 0) throw new ToolError('nothing to follow');
  const sessions = targets.filter((t) => t.subagents).map((t) => t.file);
  const codecs = sessions.length > 0 ? await loadAll('codec') : [];
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const sources = new Map<string, FollowedSource>();
  const sourceOf = (file: string) => {
    let s = sources.get(file);
    if (!s) sources.set(file, (s = new FollowedSource(ctx, file)));
    return s;
  };
  try {
    const events = follow({
      files,
      discover: sessions.length > 0 ? () => subagentsOf(codecs, sessions) : undefined,
      signal: stop.signal,
      // A named file was checked above; this is a subagent's that is no regular file.
      onSkip: (file, err) => ctx.note(`${file}: cannot follow: ${describeError(err)}`),
    });
    for await (const event of events) {
      if (event.type === 'data') {
        sourceOf(event.file).push(event.chunk);
        await ctx.out.flushIfFull();
      } else if (event.type === 'restart') {
        ctx.note(`${event.file}: ${event.why === 'truncated' ? 'truncated' : 'replaced by another file'}; reading it again from the start`);
        sourceOf(event.file).restart();
      } else await ctx.out.flush();
    }
    for (const s of sources.values()) s.end();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  await ctx.out.flush();
  if (unreadable > 0) throw new ToolError('some files could not be followed');
}
