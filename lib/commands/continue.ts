// tx-continue: a session of one client continued in the other. The session is found by
// id in either store, converted in this process (tx-parse | tx-common --active |
// tx-native --install, stage by stage on streams), installed in the other client's
// store, and the command that resumes it is printed (or run).
import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { constants } from 'node:os';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { configIn, type Codec } from '../codec.js';
import { HARNESSES, isHarness, lineCodecFor, loadFacet } from '../codecs.js';
import { isUuid, TXCRIPT_NAMESPACE, uuidV5 } from '../core/uuid.js';
import { run } from '../core/run.js';
import { ToolError, UsageError, type Context, type Tool } from '../core/tool.js';
import { commonTool } from './common.js';
import { nativeTool, shellQuote } from './native.js';
import { parseTool } from './parse.js';
import { sessionById, sessionsById, storeRoots, type StoreRoot } from './session-lookup.js';

const HOMES = HARNESSES.map(lineCodecFor).filter((c) => c.home !== null);

const HELP = `usage: tx-continue ID --with ${HARNESSES.join('|')} [--exec] [--from-compaction]
                   [--strict-size] [--model-provider ID]
                   [--session-id UUID|new] ${HOMES.map((c) => `[--${c.home!.flag} DIR]`).join(' ')}

Find the session ID (or a unique prefix of it) in any harness's store, convert it
for another client (tx-parse | tx-common --active | tx-native --install), install
it there, and print the command that resumes it.

  --with H           the client to continue in: ${HARNESSES.join(', ')}
  --exec             run the command (in the session's directory, on this terminal)
  --from-compaction  start from the session's latest compaction (always done:
                     the conversion reads what tx-common --active gives)
  --strict-size      refuse a conversation larger than the context window
  --model-provider ID  the model provider the copy names, where the client records
                     one (Codex; default: the one its store is configured with)
  --session-id ID    the id of the copy (default: the session's own); "new" for a
                     fresh one
${HOMES.map((c) => `  --${c.home!.flag} DIR`.padEnd(21) + `${c.label}'s store (default $${c.home!.variable})`).join('\n')}
  -h, --help         this text        --version   the version
See tx-continue(1).`;

/** The directory each store flag names (resolved from the current directory), by harness. */
function givenHomes(ctx: Context): Map<string, string> {
  const homes = new Map<string, string>();
  for (const codec of HOMES) {
    const flag = codec.home!.flag;
    const v = ctx.args[flag];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v === '') throw new UsageError(`--${flag} needs a directory`);
    homes.set(codec.harness, path.resolve(ctx.proc.cwd(), v));
  }
  return homes;
}

/** The command that resumes session `id` of `target` in `cwd`, naming the store (as its variable takes it) when a flag chose it. */
function resumeCommand(target: Codec, home: string | undefined, cwd: string, id: string): string {
  const variable = home === undefined || target.home === null ? '' : `${target.home.variable}=${shellQuote(home)} `;
  return `cd ${shellQuote(cwd)} && ${variable}${target.store!.resumeCommand(id)}`;
}

/**
 * The session an id names in the stores. A copy continued before lies in the target's
 * store under the source's own id, so a match there whose id is also another store's
 * match is that copy, not a second session; any other ambiguity is said, with each match.
 */
function sourceSession(roots: StoreRoot[], target: Codec, name: string): { codec: Codec; path: string } {
  const matches = sessionsById(roots, name);
  const idOf = (m: { codec: Codec; path: string }) => m.codec.store!.idOf(m.path).toLowerCase();
  const elsewhere = new Set(matches.filter((m) => m.codec.harness !== target.harness).map(idOf));
  const meant = matches.filter((m) => m.codec.harness !== target.harness || !elsewhere.has(idOf(m)));
  if (meant.length === 1) return meant[0];
  if (meant.length === 0) return sessionById(roots, name);
  throw new ToolError(`${name} names ${meant.length} sessions: ${meant.map((m) => `${m.path} (${m.codec.label})`).join(', ')}; give more of the id`);
}

/** Run one tool of the conversion on the given streams; its output ends with it, and what it leaves unread is drained. */
async function stage(ctx: Context, tool: Tool, args: string[], stdin: Readable, stdout: Writable): Promise<number> {
  const status = await run(tool, { argv: ['node', tool.name, ...args], env: ctx.proc.env, stdin, stdout, stderr: ctx.proc.stderr, cwd: () => ctx.proc.cwd() });
  stdout.end();
  // A stage that stopped early leaves the one before it writing: let it finish into nothing.
  stdin.resume();
  return status;
}

async function main(ctx: Context): Promise<number> {
  const args = ctx.args;
  if (ctx.files.length !== 1) throw new UsageError(`name one session: tx-continue ID --with ${HARNESSES.join('|')}`);
  const name = ctx.files[0];
  if (name.trim() === '') throw new UsageError('the session id is empty');
  const withName = args.with;
  if (withName === undefined) throw new UsageError(`--with ${HARNESSES.join('|')}: which client continues the session`);
  if (typeof withName !== 'string' || !isHarness(withName)) throw new UsageError(`--with ${JSON.stringify(withName)} is not one of ${HARNESSES.join(', ')}`);
  const given = args['session-id'];
  if (given !== undefined && given !== 'new' && !isUuid(given)) throw new UsageError(`--session-id ${JSON.stringify(given)} is not a UUID (or "new")`);
  const provider = args['model-provider'];
  if (provider !== undefined && (typeof provider !== 'string' || provider.trim() === '')) throw new UsageError('--model-provider needs a provider id');
  const homes = givenHomes(ctx);
  const configs = new Map([...homes].map(([harness, home]) => [harness, configIn(lineCodecFor(harness).home!, home)]));
  const target = await loadFacet(withName, 'codec');
  if (!(target.store?.installTarget || target.store?.database) || !target.fromCommon) throw new UsageError(`--with ${withName}: txcript cannot write ${target.label} sessions`);

  const roots = await storeRoots(ctx.proc.env, configs);
  const source = sourceSession(roots, target, name);
  // A session of a database is no file: its store reads it (SessionStore.read).
  const own = source.codec.store!.read?.(source.path) ?? null;
  const fields = source.codec.store!.scan(source.path, own ? 0 : statSync(source.path).size);
  const cwd = fields.cwd ?? ctx.proc.cwd();
  const targetConfig = configs.get(target.harness) ?? target.store!.configDir(ctx.proc.env);
  if (targetConfig === null) throw new ToolError(`no ${target.label} store: set ${target.home ? `${target.home.variable} or HOME, or use --${target.home.flag}` : 'HOME'}`);

  let id: string;
  let command: string;
  if (source.codec.harness === target.harness && given === undefined) {
    // Already the other client's: nothing to convert.
    id = fields.id;
    command = resumeCommand(target, homes.get(target.harness), cwd, id);
    ctx.note(`${source.path} is already a ${target.harness} session`);
  } else {
    // The copy keeps the session's id (tx-native's rule: a UUID as it is, else a UUIDv5 of it).
    id = given === 'new' ? randomUUID() : given !== undefined ? given.toLowerCase() : isUuid(fields.id) ? fields.id.toLowerCase() : uuidV5(TXCRIPT_NAMESPACE, fields.id);
    command = resumeCommand(target, homes.get(target.harness), cwd, target.store!.storeId?.(id) ?? id);
    const targetRoot: StoreRoot = { codec: target, root: target.store!.rootIn(targetConfig) };
    const stored = (target.store!.storeId?.(id) ?? id).toLowerCase();
    const existing = sessionsById([targetRoot], stored).filter((m) => target.store!.idOf(m.path).toLowerCase() === stored);
    if (existing.length > 0) {
      throw new ToolError(`${target.harness} already has session ${id} (${existing[0].path}): resume it with: ${command}; or make another copy with --session-id new`);
    }
    const parsed = new PassThrough();
    const common = new PassThrough();
    const installed = new PassThrough();
    installed.resume();
    const nativeArgs = ['--harness', target.harness, '--install', '--config-dir', targetConfig, '--cwd', cwd, '--session-id', id];
    if (args['from-compaction']) nativeArgs.push('--from-compaction');
    if (args['strict-size']) nativeArgs.push('--strict-size');
    if (args['model-provider'] !== undefined) nativeArgs.push('--model-provider', String(args['model-provider']));
    const statuses = await Promise.all([
      own ? stage(ctx, parseTool, [], Readable.from(own), parsed) : stage(ctx, parseTool, [source.path], Readable.from([]), parsed),
      stage(ctx, commonTool, ['--active'], parsed, common),
      stage(ctx, nativeTool, nativeArgs, common, installed),
    ]);
    const failed = statuses.find((s) => s !== 0);
    if (failed !== undefined) {
      ctx.note(`${source.path}: not continued in ${target.harness}`);
      return failed === 2 ? 1 : failed;
    }
    // tx-native installs nothing for a session with no message the client could load (and
    // says so): there is then no copy for the command to resume.
    if (!sessionsById([targetRoot], stored).some((m) => target.store!.idOf(m.path).toLowerCase() === stored)) {
      ctx.note(`${source.path}: not continued in ${target.harness}: nothing was installed`);
      return 1;
    }
  }
  if (!args.exec) {
    await ctx.out.write(command + '\n');
    return 0;
  }
  cannotRun(ctx, target, cwd, command, target.store!.resumeCommand(id));
  await ctx.out.end();
  return await new Promise<number>((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: 'inherit', env: ctx.proc.env });
    child.on('error', (err) => {
      ctx.note(`cannot run ${command}: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
}

/**
 * What stops the command from running, said as what is missing and what to do, before
 * the shell would say it as `cd: can't cd` or `not found`: the session's directory gone,
 * or the client not on PATH. The copy stays installed either way.
 */
function cannotRun(ctx: Context, target: Codec, cwd: string, command: string, resume: string): void {
  let directory = false;
  try {
    directory = statSync(cwd).isDirectory();
  } catch {
    directory = false;
  }
  if (!directory) {
    throw new ToolError(`the session's directory ${cwd} does not exist (any more), and ${target.label} continues a session in its own directory: make it (mkdir -p ${shellQuote(cwd)}), or bring the project back there, then run: ${command}`);
  }
  const program = resume.split(' ')[0];
  if (onPath(program, ctx.proc.env.PATH)) return;
  throw new ToolError(`${program} is not installed here (not found on PATH): install ${target.label}, or put its ${program} on PATH, then run: ${command}`);
}

/** True when an executable file of that name is in one of the PATH directories. */
function onPath(program: string, PATH: string | undefined): boolean {
  for (const dir of (PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(dir, program);
    try {
      if (statSync(file).isFile()) {
        accessSync(file, fsConstants.X_OK);
        return true;
      }
    } catch {
      // not here
    }
  }
  return false;
}

/** The tx-continue tool. */
export const continueTool: Tool = {
  name: 'tx-continue',
  help: HELP,
  options: { string: ['with', 'session-id', 'model-provider', ...HOMES.map((c) => c.home!.flag)], boolean: ['exec', 'from-compaction', 'strict-size'] },
  main,
};
