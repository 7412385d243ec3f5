// tx-grep: search the message text of sessions, every session of every store by
// default. A byte pre-filter (lib/core/search/prefilter.ts) finds the lines that could match
// without parsing any other; those are parsed, their message texts taken from their
// harness's codec by role, and matched in linear time (lib/core/search/pattern.ts; one file's
// search is grep-file.ts). Files are searched one at a time on this thread and each
// worker thread (--jobs), and the hits written in file order, so the output is the same for any --jobs.
import { statSync } from 'node:fs';
import { configIn, type Codec, type TextRole } from '../codec.js';
import { HARNESSES, lineCodecFor, loadAll } from '../codecs.js';
import { describeError } from '../core/fs-error.js';
import { BrokenPipe, Output, OutputFailed } from '../core/output/output.js';
import { compilePattern, PatternError, type TextMatcher } from '../core/search/pattern.js';
import { patternLiterals } from '../core/search/pattern-literals.js';
import { prefilterFor } from '../core/search/prefilter.js';
import { UsageError, type Context, type Tool } from '../core/tool.js';
import { searchFile, type Search } from './grep-file.js';

export { snippetOf, type Hit } from './grep-file.js';

const HOMES = HARNESSES.map(lineCodecFor).filter((c) => c.home !== null);

const HELP = `usage: tx-grep [-i] [-F] [--role ROLE] [--jobs N] PATTERN [FILE|DIR...]

Search the message text of sessions: by default every session of every store
(${HARNESSES.map((h) => lineCodecFor(h).label).join(', ')}), subagent transcripts
included; else the session files named and those under the directories named. One JSON object per
hit, in file order and line order:
  {"harness","session","path","n","role","title","snippet"}
PATTERN is a regular expression in RE2 syntax (no backreferences or lookaround;
matched in time linear in the text), against each text on its own; the snippet
marks the match as ⟦match⟧.

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

const ROLES: readonly TextRole[] = ['user', 'assistant', 'tool'];

function searchOf(ctx: Context, pattern: string): Search {
  const ignoreCase = ctx.args['ignore-case'] === true;
  const fixed = ctx.args['fixed-strings'] === true;
  let matcher: TextMatcher;
  try {
    matcher = compilePattern(pattern, { fixed, ignoreCase });
  } catch (err) {
    if (err instanceof PatternError) throw new UsageError(err.message);
    throw err;
  }
  const roles = new Set<TextRole>();
  for (const value of ([] as unknown[]).concat(ctx.args.role ?? [])) {
    for (const r of String(value).split(',')) {
      if (!ROLES.includes(r as TextRole)) throw new UsageError(`--role is user, assistant or tool, not ${JSON.stringify(r)}`);
      roles.add(r as TextRole);
    }
  }
  if (roles.size === 0) roles.add('user').add('assistant');
  const { literals, ignoreCase: folded } = patternLiterals(pattern, fixed, ignoreCase);
  return { matcher, roles, prefilter: prefilterFor(literals, folded) };
}

/**
 * The session files to search: those named (directories walked), or every store's; and
 * how many could not be read. A file that cannot be read counts the same whether it was
 * named or found in a directory (grep's status 2 at the end, after every other file).
 */
function filesOf(ctx: Context, codecs: Codec[], names: string[]): { files: string[]; problems: number } {
  const files: string[] = [];
  let problems = 0;
  const problem = (message: string) => {
    problems++;
    ctx.note(message);
  };
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
      for (const found of codec.store?.discover(root, (p) => problem(`${p.path}: ${p.message}`)) ?? []) add(found.path);
    }
  };
  if (names.length > 0) {
    for (const name of names) {
      let isDir: boolean;
      try {
        isDir = statSync(name).isDirectory();
      } catch (err) {
        problem(`${name}: cannot read: ${describeError(err)}`);
        continue;
      }
      if (isDir) walk(name);
      else add(name);
    }
    return { files, problems };
  }
  const roots: string[] = [];
  for (const codec of codecs) {
    if (!codec.store) continue;
    const given = codec.home ? ctx.args[codec.home.flag] : undefined;
    const config = given !== undefined ? configIn(codec.home!, String(given)) : codec.store.configDir(ctx.proc.env);
    if (config === null) continue;
    roots.push(codec.store.rootIn(config));
    walk(codec.store.rootIn(config), [codec]);
  }
  // Status 1 either way, but an empty store is worth a word: the search did not look anywhere.
  if (files.length === 0 && problems === 0) ctx.note(`no session files under ${roots.length > 0 ? roots.join(' or ') : 'any store (neither HOME nor a store directory is set)'}`);
  return { files, problems };
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
  const { files, problems } = filesOf(ctx, codecs, ctx.files);
  const { jobsWanted, runOnWorkers } = await import('../core/parallel/workers.js');
  const { sizeHeaps } = await import('../core/parallel/heap-flags.js');
  const jobs = await jobsWanted(ctx.args.jobs);
  if (typeof jobs === 'string') throw new UsageError(jobs);
  if (jobs > 1 && files.length > 1) {
    let written = 0;
    const counted = new Output(countingStdout(ctx, (n) => (written += n)));
    const status = await runOnWorkers({ url: import.meta.url, name: 'tx-grep' }, { ...ctx.args, regexp: pattern }, files, jobs, counted, (text) => ctx.proc.stderr.write(text));
    await counted.end();
    return status > 0 || problems > 0 ? 2 : written > 0 ? 0 : 1;
  }
  // On one thread as on several (a --jobs run sets it once its threads are online): a
  // parsed line's strings wait in the old generation for a full collection, and V8 lets a
  // small heap grow threefold first (-i refactor on 500 MB: 188 MB, with this 147 MB).
  sizeHeaps();
  const { hits, errors } = await searchFiles(ctx, files, search);
  return errors + problems > 0 ? 2 : hits > 0 ? 0 : 1;
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
