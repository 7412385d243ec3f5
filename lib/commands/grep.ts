// tx-grep: search the message text of sessions, every session of every store by
// default. A byte pre-filter (lib/core/prefilter.ts) finds the lines that could match
// without parsing any other; those are parsed, their message texts taken from their
// harness's codec by role, and matched. Files are searched one at a time on this thread
// and each worker thread (--jobs), and the hits written in file order, so the output is the same for any --jobs.
import { closeSync, readSync, statSync } from 'node:fs';
import type { Codec, MessageText, SessionFields, TextRole } from '../codec.js';
import { detectHarness, facetOf, HARNESSES, lineCodecFor, loadAll } from '../codecs.js';
import { describeError } from '../core/fs-error.js';
import { LONG_LINE } from '../core/input/lines.js';
import { BrokenPipe, Output, OutputFailed } from '../core/output/output.js';
import { candidateLines, prefilterFor, requiredLiterals, type Prefilter } from '../core/prefilter.js';
import { openRegular } from '../core/input/regular-file.js';
import { ToolError, UsageError, type Context, type Tool } from '../core/tool.js';
import { zstdFileLines } from '../core/input/zstd-lines.js';
import type { Harness } from '../record.js';

const HOMES = HARNESSES.map(lineCodecFor).filter((c) => c.home !== null);

const HELP = `usage: tx-grep [-i] [-F] [--role ROLE] [--jobs N] PATTERN [FILE|DIR...]

Search the message text of sessions: by default every session of every store
(${HARNESSES.map((h) => lineCodecFor(h).label).join(', ')}), subagent transcripts
included; else the session files named and those under the directories named. One JSON object per
hit, in file order and line order:
  {"harness","session","path","n","role","title","snippet"}
PATTERN is a JavaScript regular expression (without the u flag), matched against
each text on its own; the snippet marks the match as ⟦match⟧.

  -i, --ignore-case     match case-insensitively
  -F, --fixed-strings   PATTERN is a plain string
  -e, --regexp P        the pattern; one that starts with - is written
                        --regexp=-x (or after --: tx-grep -- -x FILE)
  --role ROLE           user, assistant or tool (several: comma-separated or
                        repeated); default user,assistant: tool calls and
                        their output are searched only when asked
  --jobs N              files searched at once, on this thread and N-1 worker threads
                        (default: the number of cores); same output for any N
${HOMES.map((c) => `  --${c.home!.flag} DIR`.padEnd(24) + `${c.label}'s store (default $${c.home!.variable})`).join('\n')}
  -h, --help            this text        --version   the version
Exit status: 0 a hit, 1 none, 2 an error. See tx-grep(1).`;

/** Characters of text shown on each side of a match. */
const CONTEXT = 60;
/** The longest match shown whole in a snippet (longer ones are cut in the middle). */
const MAX_MATCH = 200;
const READ = 1 << 20;
const ROLES: readonly TextRole[] = ['user', 'assistant', 'tool'];

/** One hit, as tx-grep writes it. */
export interface Hit {
  harness: Harness;
  session: string | null;
  path: string;
  n: number;
  role: TextRole;
  title: string | null;
  snippet: string;
}

/** What a search looks for. */
interface Search {
  regex: RegExp;
  roles: ReadonlySet<TextRole>;
  prefilter: Prefilter | null;
}

function searchOf(ctx: Context, pattern: string): Search {
  const ignoreCase = ctx.args['ignore-case'] === true;
  const fixed = ctx.args['fixed-strings'] === true;
  let regex: RegExp;
  try {
    regex = new RegExp(fixed ? pattern.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&') : pattern, ignoreCase ? 'i' : '');
  } catch (err) {
    throw new UsageError(`not a regular expression: ${(err as Error).message}`);
  }
  const roles = new Set<TextRole>();
  for (const value of ([] as unknown[]).concat(ctx.args.role ?? [])) {
    for (const r of String(value).split(',')) {
      if (!ROLES.includes(r as TextRole)) throw new UsageError(`--role is user, assistant or tool, not ${JSON.stringify(r)}`);
      roles.add(r as TextRole);
    }
  }
  if (roles.size === 0) roles.add('user').add('assistant');
  return { regex, roles, prefilter: prefilterFor(requiredLiterals(pattern, fixed, ignoreCase), ignoreCase) };
}

/** The text around a match, the match marked ⟦…⟧, cut at code points with … where text was left out. */
export function snippetOf(text: string, index: number, length: number): string {
  const cutStart = (at: number) => (at > 0 && isLow(text.charCodeAt(at)) ? at - 1 : at);
  const cutEnd = (at: number) => (at < text.length && isLow(text.charCodeAt(at)) ? at + 1 : at);
  const from = cutStart(Math.max(0, index - CONTEXT));
  const to = cutEnd(Math.min(text.length, index + length + CONTEXT));
  let match = text.slice(index, index + length);
  if (length > MAX_MATCH) match = text.slice(index, cutEnd(index + MAX_MATCH / 2)) + '…' + text.slice(cutStart(index + length - MAX_MATCH / 2), index + length);
  return (from > 0 ? '…' : '') + text.slice(from, index) + '⟦' + match + '⟧' + text.slice(index + length, to) + (to < text.length ? '…' : '');
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

let readBuffer: Buffer | null = null;

/** The chunks of a regular file, read into one buffer (candidateLines copies what it keeps). */
function* fileChunks(fd: number): Generator<Buffer> {
  // One buffer for every file of this thread: files are searched one after another.
  const buf = (readBuffer ??= Buffer.allocUnsafe(READ));
  for (let pos = 0; ; ) {
    const got = readSync(fd, buf, 0, READ, pos);
    if (got === 0) return;
    pos += got;
    yield got === READ ? buf : buf.subarray(0, got);
  }
}

/** The lines of a file that could match: searched in its bytes, or for a .zst file in its decompressed lines. */
function* candidates(file: string, search: Search, onLong: (n: number) => void): Generator<{ n: number; bytes: Buffer }> {
  if (file.endsWith('.zst')) {
    let n = 0;
    for (const bytes of zstdFileLines(file)) {
      n++;
      if (search.prefilter === null || search.prefilter.next(bytes, 0) >= 0) yield { n, bytes };
    }
    return;
  }
  const { fd } = openRegular(file);
  try {
    yield* candidateLines(fileChunks(fd), search.prefilter, {
      onLong: (n) => onLong(n),
    });
  } finally {
    closeSync(fd);
  }
}

/** Search one file; hits go to the output in line order. Returns the number of hits. */
async function searchFile(ctx: Context, file: string, search: Search): Promise<number> {
  let hits = 0;
  let fields: SessionFields | null | undefined;
  const sessionFields = (harness: Harness): SessionFields | null => {
    if (fields !== undefined) return fields;
    try {
      fields = facetOf(harness, 'codec').store?.scan(file, statSync(file).size) ?? null;
    } catch {
      fields = null;
    }
    return fields;
  };
  const onLong = (n: number) => ctx.note(`${file}:${n}: line longer than ${LONG_LINE} bytes, not searched (tx-parse does not parse it either)`);
  for (const { n, bytes } of candidates(file, search, onLong)) {
    let line: unknown;
    try {
      line = JSON.parse(bytes.toString('utf8'));
    } catch {
      // Not JSON (tx-parse keeps it as an invalid record): it holds no message text.
      continue;
    }
    if (!line || typeof line !== 'object') continue;
    const codec = facetOf(detectHarness(line), 'codec');
    let texts: MessageText[] | null = null;
    for (const t of codec.texts(line)) {
      if (!search.roles.has(t.role)) continue;
      const m = search.regex.exec(t.text);
      if (!m) continue;
      (texts ??= []).push(t);
      const fieldsOf = sessionFields(codec.harness);
      const hit: Hit = {
        harness: codec.harness,
        session: codec.envelope(line).session ?? fieldsOf?.id ?? null,
        path: file,
        n,
        role: t.role,
        title: fieldsOf?.title ?? null,
        snippet: snippetOf(t.text, m.index, m[0].length),
      };
      ctx.out.pushText(JSON.stringify(hit) + '\n');
      hits++;
    }
    await ctx.out.flushIfFull();
  }
  return hits;
}

/** The session files to search: those named (directories walked), or every store's. */
function filesOf(ctx: Context, codecs: Codec[], names: string[]): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    files.push(file);
    // A session's subagent transcripts are searched with it.
    for (const codec of codecs) for (const sub of codec.store?.subagentFiles(file) ?? []) add(sub);
  };
  const walk = (root: string, walkers = codecs) => {
    for (const codec of walkers) {
      for (const found of codec.store?.discover(root, (p) => ctx.note(`${p.path}: ${p.message}`)) ?? []) add(found.path);
    }
  };
  if (names.length > 0) {
    for (const name of names) {
      let isDir: boolean;
      try {
        isDir = statSync(name).isDirectory();
      } catch (err) {
        throw new ToolError(`${name}: cannot read: ${describeError(err)}`);
      }
      if (isDir) walk(name);
      else add(name);
    }
    return files;
  }
  const roots: string[] = [];
  for (const codec of codecs) {
    if (!codec.store) continue;
    const given = codec.home ? ctx.args[codec.home.flag] : undefined;
    const config = given !== undefined ? String(given) : codec.store.configDir(ctx.proc.env);
    if (config === null) continue;
    roots.push(codec.store.rootIn(config));
    walk(codec.store.rootIn(config), [codec]);
  }
  // Status 1 either way, but an empty store is worth a word: the search did not look anywhere.
  if (files.length === 0) ctx.note(`no session files under ${roots.length > 0 ? roots.join(' or ') : 'any store (neither HOME nor a store directory is set)'}`);
  return files;
}

async function main(ctx: Context): Promise<number> {
  const pattern = ctx.args.regexp !== undefined ? String(ctx.args.regexp) : ctx.files.shift();
  if (pattern === undefined) throw new UsageError('no PATTERN');
  // Files are read in positioned reads, which a pipe does not allow: `-` would be a file of that name.
  if (ctx.files.includes('-')) throw new UsageError('- (standard input) is not searched: name session files or directories, or none for every store');
  const search = searchOf(ctx, pattern);
  const codecs = await loadAll('codec');
  if (ctx.proc.worker) {
    // One file of a run on workers (its list was made by the main thread, which counts hits by the bytes written).
    return (await searchFiles(ctx, ctx.files, search)).errors > 0 ? 2 : 0;
  }
  let files: string[];
  try {
    files = filesOf(ctx, codecs, ctx.files);
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    ctx.note(err.message);
    return 2;
  }
  const { jobsWanted, runOnWorkers } = await import('../core/parallel/workers.js');
  const jobs = await jobsWanted(ctx.args.jobs);
  if (typeof jobs === 'string') throw new UsageError(jobs);
  if (jobs > 1 && files.length > 1) {
    let written = 0;
    const counted = new Output(countingStdout(ctx, (n) => (written += n)));
    const status = await runOnWorkers({ url: import.meta.url, name: 'tx-grep' }, { ...ctx.args, regexp: pattern }, files, jobs, counted, (text) => ctx.proc.stderr.write(text));
    await counted.end();
    return status > 0 ? 2 : written > 0 ? 0 : 1;
  }
  const { hits, errors } = await searchFiles(ctx, files, search);
  return errors > 0 ? 2 : hits > 0 ? 0 : 1;
}

async function searchFiles(ctx: Context, files: string[], search: Search): Promise<{ hits: number; errors: number }> {
  let hits = 0;
  let errors = 0;
  for (const file of files) {
    try {
      hits += await searchFile(ctx, file, search);
    } catch (err) {
      if (err instanceof BrokenPipe || err instanceof OutputFailed || (err as NodeJS.ErrnoException)?.code === 'EPIPE') throw err;
      errors++;
      ctx.note(`${file}: cannot read: ${describeError(err)}`);
    }
  }
  return { hits, errors };
}

/** Standard output, counting the bytes written to it (hits from the workers). */
function countingStdout(ctx: Context, count: (n: number) => void): import('node:stream').Writable {
  const stdout = ctx.proc.stdout;
  return {
    write(chunk: Buffer) {
      count(chunk.length);
      return stdout.write(chunk);
    },
    on: (event: string, fn: (...a: any[]) => void) => stdout.on(event, fn),
    off: (event: string, fn: (...a: any[]) => void) => stdout.off(event, fn),
    get writableNeedDrain() {
      return stdout.writableNeedDrain;
    },
  } as unknown as import('node:stream').Writable;
}

/** The tx-grep tool. */
export const grepTool: Tool = {
  name: 'tx-grep',
  help: HELP,
  options: {
    string: ['role', 'jobs', 'regexp', ...HOMES.map((c) => c.home!.flag)],
    boolean: ['ignore-case', 'fixed-strings'],
    alias: { i: 'ignore-case', F: 'fixed-strings', e: 'regexp' },
  },
  main,
};
