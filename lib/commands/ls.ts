// tx-ls: a session store in (the default harness's, or another's with --harness), one
// object per session out. Also the current session of a directory, a session's
// subagents, and the plugin registry (where the harness keeps them).
import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { configIn, DEFAULT_WINDOW_MINUTES, type Codec, type FoundSession, type SessionFields } from '../codec.js';
import { DEFAULT_HARNESS, HARNESSES, isHarness, lineCodecFor, loadAll, loadFacet } from '../codecs.js';
import { ReadCounter } from '../core/input/file-lines.js';
import { describeError } from '../core/fs-error.js';
import { BrokenPipe, OutputFailed } from '../core/output/output.js';
import { ToolError, UsageError, type Context, type Tool } from '../core/tool.js';

/** The codecs whose stores tx-ls lists: --harness (default the default harness's; `all`: every harness with a store). */
async function codecsOf(ctx: Context): Promise<Codec[]> {
  const harness = stringOption(ctx, 'harness') ?? DEFAULT_HARNESS;
  if (harness === 'all') {
    const stores = (await loadAll('codec')).filter((c) => c.store !== null);
    // DIRs are walked by every store's rules in detection order (the harness that reads any
    // file last), so a file two would list is the more particular one's; stores in name order.
    return ctx.files.length > 0 ? stores : stores.sort((a, b) => (a.harness < b.harness ? -1 : 1));
  }
  if (!isHarness(harness)) throw new UsageError(`--harness is all or one of ${HARNESSES.join(', ')}, not ${JSON.stringify(harness)}`);
  const codec = await loadFacet(harness, 'codec');
  if (!codec.store) throw new UsageError(`--harness ${harness}: txcript cannot list ${codec.label} sessions`);
  return [codec];
}

const HOMES = HARNESSES.map(lineCodecFor).filter((c) => c.home !== null);

const HELP = `usage: tx-ls [--harness H|all] [--root DIR] [--sort mtime|path] [--lines] [--deep] [DIR|FILE...]
       tx-ls --current [--cwd DIR] [--window MIN]
       tx-ls --subagents [SESSION]
       tx-ls --plugins [--config DIR]

List the sessions of a store (Claude Code's, another harness's with --harness,
or every store's with --harness all), one JSON object per session:
  path id project cwd git_branch version model title ai_title
  started_at modified_at bytes subagents [lines] [first_prompt] [harness]
Each store is found from its variable, else under HOME (see tx-ls(1)).

  --harness H       whose store to list: ${HARNESSES.join(', ')}, or all
                    (default ${DEFAULT_HARNESS}); entries of any other store say
                    their harness
  --root DIR        the sessions root to walk (default: the store's)
  --config DIR      the store's config dir (default: from its variable)
${HOMES.map((c) => `  --${c.home!.flag} DIR`.padEnd(20) + `${c.label}'s ${c.home!.dir === undefined ? 'config dir' : `home (its ${c.home!.dir})`}, for --harness all`).join('\n')}
  --sort KEY        mtime (newest first) or path; waits for the whole walk
  --lines           add a line count (reads each file whole)
  --deep            split and scan every line (same fields, slower; titles are
                    exact without it)
  --current         the newest session of the working directory, and any
                    other modified within --window minutes of it
  --cwd DIR         the working directory for --current (default: .)
  --window MIN      minutes (default ${DEFAULT_WINDOW_MINUTES})
  --subagents       a session's subagents (SESSION: a file path or a session
                    id; default: the current session)
  --plugins         the installed plugin registry
  --strict          exit 1 if any file could not be read
  -h, --help        this text        --version   the version
See tx-ls(1).`;

/** One session as tx-ls prints it. */
export interface SessionEntry extends SessionFields {
  path: string;
  project: string;
  modified_at: string;
  bytes: number;
  /** Subagent transcripts beside the session; null for a harness that keeps none there. */
  subagents: number | null;
  lines?: number;
  first_prompt?: string | null;
  /** The harness, set on entries of any store but the default harness's. */
  harness?: string;
}

interface ListOptions {
  /** Every store is listed: every entry says its harness. */
  all: boolean;
  lines: boolean;
  deep: boolean;
  counter: ReadCounter;
}

/** The listing entry of one found session file; null (after a warning) when it cannot be read. */
function sessionEntry(ctx: Context, codec: Codec, found: FoundSession, opts: ListOptions): SessionEntry | null {
  const store = codec.store!;
  try {
    const fields = store.scan(found.path, found.stat.size, { deep: opts.deep, counter: opts.counter });
    const entry: SessionEntry = {
      path: found.path,
      id: fields.id,
      project: found.project,
      cwd: fields.cwd,
      git_branch: fields.git_branch,
      version: fields.version,
      model: fields.model,
      title: fields.title,
      ai_title: fields.ai_title,
      started_at: fields.started_at,
      modified_at: found.stat.mtime.toISOString(),
      bytes: found.stat.size,
      subagents: store.countSubagents(found.path),
    };
    if (codec.harness !== DEFAULT_HARNESS || opts.all) entry.harness = codec.harness;
    if (opts.lines) entry.lines = store.countLines(found.path, found.stat.size, opts.counter);
    return entry;
  } catch (err) {
    ctx.warn({ src: found.path }, `cannot read: ${describeError(err)}`);
    return null;
  }
}

/** Progress on stderr for a scan that takes longer than a second, when stderr is a terminal. */
class Progress {
  private readonly started = Date.now();
  private last = 0;
  private shown = false;
  constructor(
    private readonly ctx: Context,
    private readonly counter: ReadCounter,
  ) {}

  tick(sessions: number): void {
    if (!this.ctx.proc.stderr.isTTY) return;
    const now = Date.now();
    if (now - this.started < 1000 || now - this.last < 200) return;
    this.last = now;
    this.shown = true;
    this.ctx.proc.stderr.write(`\r${this.ctx.name}: ${sessions} sessions, ${(this.counter.bytes / 1e6).toFixed(1)} MB read\x1b[K`);
  }

  done(): void {
    if (this.shown) this.ctx.proc.stderr.write('\r\x1b[K');
  }
}

function numberOption(ctx: Context, name: string, fallback: number): number {
  const raw = ctx.args[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} wants a number, not ${JSON.stringify(String(raw))}`);
  return n;
}

function stringOption(ctx: Context, name: string): string | undefined {
  const raw = ctx.args[name];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} wants a value`);
  return value;
}

/**
 * A directory the user named (`--root`, `--config`, a DIR argument) or the environment
 * names: refused by name when it is not a directory (a session file is taken where
 * `sessionFile` allows it), and when it is missing unless `mayBeMissing` (a store not
 * used yet lists nothing).
 */
function storeDir(dir: string, said: string, opts: { mayBeMissing?: boolean; sessionFile?: boolean } = {}): string {
  let stat: Stats;
  try {
    stat = statSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && opts.mayBeMissing) return dir;
    throw new ToolError(`${said}: ${code === 'ENOENT' ? (opts.sessionFile ? 'no such file or directory' : 'no such directory') : code === 'ENOTDIR' ? 'a part of the path is not a directory' : describeError(err)}`);
  }
  if (stat.isDirectory()) return dir;
  if (opts.sessionFile && stat.isFile() && /\.jsonl(\.zst)?$/.test(dir)) return dir;
  throw new ToolError(`${said}: not a directory`);
}

/** The sessions root: --root, else the store's root under --config, else under the environment's config dir. */
function rootOf(ctx: Context, codec: Codec): string {
  const store = codec.store!;
  const root = stringOption(ctx, 'root');
  if (root !== undefined) return storeDir(root, `--root ${root}`, { sessionFile: true });
  const config = configOf(ctx, codec);
  const inside = store.rootIn(config);
  return inside === config ? config : storeDir(inside, inside, { mayBeMissing: true });
}

/** The config dir: --config (which must exist), else the environment's (which may not, yet). */
function configOf(ctx: Context, codec: Codec, instead = '--root DIR'): string {
  const store = codec.store!;
  const config = stringOption(ctx, 'config');
  if (config !== undefined) return storeDir(config, `--config ${config}`);
  const found = store.configDir(ctx.proc.env);
  if (found === null) throw new ToolError(`no store: ${codec.home ? `neither ${codec.home.variable} nor HOME is` : 'HOME is not'} set (use ${instead})`);
  return storeDir(found, found, { mayBeMissing: true });
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The working directory for --current: --cwd resolved against the process's, else the process's. */
function cwdOf(ctx: Context): string {
  const dir = stringOption(ctx, 'cwd');
  return dir === undefined ? ctx.proc.cwd() : path.resolve(ctx.proc.cwd(), dir);
}

/** The configuration directory of a store under --harness all: its own flag, else its variable (null: none set). */
function allConfigOf(ctx: Context, codec: Codec): string | null {
  const given = codec.home ? stringOption(ctx, codec.home.flag) : undefined;
  if (given !== undefined) return configIn(codec.home!, storeDir(given, `--${codec.home!.flag} ${given}`));
  return codec.store!.configDir(ctx.proc.env);
}

async function listSessions(ctx: Context, codecs: Codec[], opts: ListOptions): Promise<void> {
  // Each store's root (or the DIRs named, walked by every store's rules).
  const walks: { codec: Codec; root: string }[] = [];
  for (const codec of codecs) {
    if (ctx.files.length > 0) for (const root of ctx.files) walks.push({ codec, root });
    else if (!opts.all) walks.push({ codec, root: rootOf(ctx, codec) });
    else {
      const config = allConfigOf(ctx, codec);
      if (config !== null) walks.push({ codec, root: codec.store!.rootIn(config) });
    }
  }
  const sort = stringOption(ctx, 'sort');
  if (sort !== undefined && sort !== 'mtime' && sort !== 'path') throw new UsageError(`--sort is mtime or path, not ${JSON.stringify(sort)}`);
  const progress = new Progress(ctx, opts.counter);
  const kept: SessionEntry[] = [];
  let count = 0;
  let flushed = Date.now();
  // Every DIR named is checked before anything is listed: a missing one is an error, not an empty listing.
  for (const root of ctx.files) storeDir(root, root, { sessionFile: true });
  const seen = new Set<string>();
  for (const { codec, root } of walks) {
    // Under --harness all a store not used yet lists nothing.
    if (opts.all && ctx.files.length === 0 && !isDirectory(root)) continue;
    for (const found of codec.store!.discover(root, (p) => ctx.warn({ src: p.path }, p.message))) {
      // A DIR walked by every store's rules: a file two stores would both list is the first's,
      // and a store whose walk takes any name lists only the names its client gives.
      if (seen.has(found.path)) continue;
      if (walks.length > 1 && ctx.files.length > 0 && codec.store!.fileNames && !codec.store!.fileNames.test(path.basename(found.path))) continue;
      if (walks.length > 1) seen.add(found.path);
      const entry = sessionEntry(ctx, codec, found, opts);
      progress.tick(++count);
      if (entry === null) continue;
      // Sorting needs the whole walk; otherwise each session goes out as it is found.
      if (sort !== undefined) kept.push(entry);
      else {
        await ctx.out.writeJson(entry);
        // The writer batches 64 KB; on a slow (cold) scan let what is found go out meanwhile.
        if (Date.now() - flushed > 200) {
          await ctx.out.flush();
          flushed = Date.now();
        }
      }
    }
  }
  progress.done();
  if (sort === 'mtime') kept.sort((a, b) => b.modified_at.localeCompare(a.modified_at) || a.path.localeCompare(b.path));
  if (sort === 'path') kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const entry of kept) await ctx.out.writeJson(entry);
}

async function listCurrent(ctx: Context, codec: Codec, opts: ListOptions): Promise<void> {
  const store = codec.store!;
  const root = rootOf(ctx, codec);
  const cwd = cwdOf(ctx);
  const window = numberOption(ctx, 'window', DEFAULT_WINDOW_MINUTES);
  const sessions = store.current(root, cwd, window, (p) => ctx.warn({ src: p.path }, p.message));
  if (sessions.length === 0) throw new ToolError(`no session of ${cwd} under ${root}`);
  if (sessions.length > 1) ctx.note(`${sessions.length} sessions were modified within ${window} minutes of each other, newest first; compare their first prompts`);
  for (const found of sessions) {
    const entry = sessionEntry(ctx, codec, found, opts);
    if (entry === null) continue;
    entry.first_prompt = store.firstPrompt(found.path, found.stat.size, 300, opts.counter);
    await ctx.out.writeJson(entry);
  }
}

/** The session file SESSION names: a path, or a session id (or a unique prefix of one) in the store. */
function resolveSession(ctx: Context, codec: Codec, name: string | undefined): string {
  const store = codec.store!;
  if (name === undefined) {
    const root = rootOf(ctx, codec);
    const cwd = cwdOf(ctx);
    const current = store.current(root, cwd, 0, (p) => ctx.warn({ src: p.path }, p.message));
    if (current.length === 0) throw new ToolError(`no session of ${cwd} under ${root} (name one: tx-ls --subagents SESSION)`);
    return current[0].path;
  }
  if (name.includes('/') || name.endsWith('.jsonl') || name.endsWith('.jsonl.zst')) {
    let stat: Stats;
    try {
      stat = statSync(name);
    } catch (err) {
      throw new ToolError(`${name}: cannot read: ${describeError(err)}`);
    }
    if (!stat.isFile()) throw new ToolError(`${name}: not a session file`);
    return name;
  }
  const root = rootOf(ctx, codec);
  const exact: string[] = [];
  const prefixed: string[] = [];
  for (const found of store.discover(root, () => {})) {
    const stem = store.idOf(found.path);
    if (stem === name) exact.push(found.path);
    else if (stem.startsWith(name)) prefixed.push(found.path);
  }
  const matches = exact.length > 0 ? exact : prefixed;
  if (matches.length === 0) throw new ToolError(`no session ${name} under ${root}`);
  if (matches.length > 1) throw new ToolError(`${name} names ${matches.length} sessions: ${matches.join(', ')}`);
  return matches[0];
}

async function listSubagents(ctx: Context, codec: Codec, counter: ReadCounter): Promise<void> {
  if (ctx.files.length > 1) throw new UsageError('--subagents takes one SESSION');
  const file = resolveSession(ctx, codec, ctx.files[0]);
  const entries = codec.store!.subagents(file, counter, (path, message) => ctx.warn({ src: path }, message));
  for (const entry of entries) await ctx.out.writeJson(entry);
}

async function listPlugins(ctx: Context, codec: Codec): Promise<void> {
  const store = codec.store!;
  const file = store.pluginRegistryPath(configOf(ctx, codec, '--config DIR'));
  if (file === null) return;
  try {
    statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new ToolError(`${file}: cannot read: ${describeError(err)}`);
  }
  try {
    await store.readPlugins(file, (p) => ctx.out.writeJson(p));
  } catch (err) {
    if (err instanceof BrokenPipe || err instanceof OutputFailed) throw err;
    throw new ToolError(`${file}: not a plugin registry: ${(err as Error).message}`);
  }
}

async function main(ctx: Context): Promise<void> {
  const modes = ['current', 'subagents', 'plugins'].filter((m) => ctx.args[m]);
  if (modes.length > 1) throw new UsageError(`--${modes[0]} and --${modes[1]} do not go together`);
  const opts: ListOptions = {
    all: stringOption(ctx, 'harness') === 'all',
    lines: ctx.args.lines === true,
    deep: ctx.args.deep === true,
    counter: new ReadCounter(),
  };
  const codecs = await codecsOf(ctx);
  if (opts.all) {
    for (const flag of ['current', 'subagents', 'plugins', 'root', 'config']) {
      if (ctx.args[flag] !== undefined && ctx.args[flag] !== false) throw new UsageError(`--${flag} lists one store: name it with --harness`);
    }
    return listSessions(ctx, codecs, opts);
  }
  const codec = codecs[0];
  const store = codec.store!;
  if (ctx.args.current) {
    if (ctx.files.length > 0) throw new UsageError('--current takes no arguments (use --cwd DIR)');
    return listCurrent(ctx, codec, opts);
  }
  for (const what of ['subagents', 'plugins'] as const) {
    if (ctx.args[what] && !store.keeps[what]) throw new UsageError(`--${what}: ${codec.label} keeps no ${what === 'plugins' ? 'plugin registry' : 'subagent transcripts beside a session'}`);
  }
  if (ctx.args.subagents) return listSubagents(ctx, codec, opts.counter);
  if (ctx.args.plugins) {
    if (ctx.files.length > 0) throw new UsageError('--plugins takes no arguments (use --config DIR)');
    return listPlugins(ctx, codec);
  }
  return listSessions(ctx, [codec], opts);
}

/** The tx-ls tool. */
export const lsTool: Tool = {
  name: 'tx-ls',
  help: HELP,
  options: {
    string: ['root', 'config', 'sort', 'cwd', 'window', 'harness', ...HOMES.map((c) => c.home!.flag)],
    boolean: ['lines', 'deep', 'current', 'subagents', 'plugins'],
  },
  valueHints: { subagents: '--subagents SESSION', current: '--current --cwd DIR', plugins: '--plugins --config DIR' },
  main,
};
