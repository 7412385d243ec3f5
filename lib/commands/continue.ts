// tx-continue: a session of one client continued in the other. The session is found by
// id in either store, converted in this process (tx-parse | tx-common --active |
// tx-native --install, stage by stage on streams), installed in the other client's
// store, and the command that resumes it is printed (or run).
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { constants } from 'node:os';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import type { Codec } from '../codec.js';
import { codecFor } from '../codecs.js';
import { isUuid, TXCRIPT_NAMESPACE, uuidV5 } from '../core/uuid.js';
import { run, ToolError, UsageError, type Context, type Tool } from '../core/run.js';
import { commonTool } from './common.js';
import { nativeTool, shellQuote } from './native.js';
import { parseTool } from './parse.js';
import { fileSessionId, sessionById, sessionsById, storeRoots, type StoreRoot } from './session-lookup.js';

const HELP = `usage: tx-continue ID --with codex|claude-code [--exec] [--from-compaction]
                   [--session-id UUID|new] [--config-dir DIR] [--codex-home DIR]

Find the session ID (or a unique prefix of it) in the Claude Code or the Codex
store, convert it for the other client (tx-parse | tx-common --active |
tx-native --install), install it there, and print the command that resumes it.

  --with H           the client to continue in: claude-code or codex
  --exec             run the command (in the session's directory, on this terminal)
  --from-compaction  start from the session's latest compaction (always done:
                     the conversion reads what tx-common --active gives)
  --session-id ID    the id of the copy (default: the session's own); "new" for a
                     fresh one
  --config-dir DIR   Claude Code's config dir (default $CLAUDE_CONFIG_DIR, else ~/.claude)
  --codex-home DIR   Codex's home (default $CODEX_HOME, else ~/.codex)
  -h, --help         this text        --version   the version
See tx-continue(1).`;

const CLIENTS = ['claude-code', 'codex'] as const;

/** The environment variable each client reads its store's location from. */
const STORE_VARIABLE: Record<(typeof CLIENTS)[number], string> = { 'claude-code': 'CLAUDE_CONFIG_DIR', codex: 'CODEX_HOME' };

/** The configuration directory of each store that a flag names, resolved from the current directory. */
function givenConfigs(ctx: Context): Map<string, string> {
  const configs = new Map<string, string>();
  for (const [flag, harness] of [['config-dir', 'claude-code'], ['codex-home', 'codex']] as const) {
    const v = ctx.args[flag];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v === '') throw new UsageError(`--${flag} needs a directory`);
    configs.set(harness, path.resolve(ctx.proc.cwd(), v));
  }
  return configs;
}

/** The command that resumes session `id` of `target` in `cwd`, naming the store when a flag chose it. */
function resumeCommand(target: Codec, config: string | undefined, cwd: string, id: string): string {
  const variable = config === undefined ? '' : `${STORE_VARIABLE[target.harness as (typeof CLIENTS)[number]]}=${shellQuote(config)} `;
  return `cd ${shellQuote(cwd)} && ${variable}${target.store!.resumeCommand(id)}`;
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
  if (ctx.files.length !== 1) throw new UsageError('name one session: tx-continue ID --with codex|claude-code');
  const name = ctx.files[0];
  const withName = args.with;
  if (withName === undefined) throw new UsageError('--with codex|claude-code: which client continues the session');
  if (!CLIENTS.includes(withName)) throw new UsageError(`--with ${JSON.stringify(withName)} is not one of ${CLIENTS.join(', ')}`);
  const given = args['session-id'];
  if (given !== undefined && given !== 'new' && !isUuid(given)) throw new UsageError(`--session-id ${JSON.stringify(given)} is not a UUID (or "new")`);
  const configs = givenConfigs(ctx);
  const target = codecFor(withName);

  const roots = storeRoots(ctx.proc.env, configs);
  // A copy continued before is in the target's store under the same id: the session meant is the other store's.
  const others = roots.filter((r) => r.codec.harness !== target.harness);
  const source = sessionsById(others, name).length > 0 ? sessionById(others, name) : sessionById(roots, name);
  const fields = source.codec.store!.scan(source.path, statSync(source.path).size);
  const cwd = fields.cwd ?? ctx.proc.cwd();
  const targetConfig = configs.get(target.harness) ?? target.store!.configDir(ctx.proc.env);
  if (targetConfig === null) throw new ToolError(`no ${target.harness} store: set ${STORE_VARIABLE[withName as (typeof CLIENTS)[number]]} or HOME, or use --${withName === 'codex' ? 'codex-home' : 'config-dir'}`);

  let id: string;
  let command: string;
  if (source.codec.harness === target.harness && given === undefined) {
    // Already the other client's: nothing to convert.
    id = fields.id;
    command = resumeCommand(target, configs.get(target.harness), cwd, id);
    ctx.note(`${source.path} is already a ${target.harness} session`);
  } else {
    // The copy keeps the session's id (tx-native's rule: a UUID as it is, else a UUIDv5 of it).
    id = given === 'new' ? randomUUID() : given !== undefined ? given.toLowerCase() : isUuid(fields.id) ? fields.id.toLowerCase() : uuidV5(TXCRIPT_NAMESPACE, fields.id);
    command = resumeCommand(target, configs.get(target.harness), cwd, id);
    const targetRoot: StoreRoot = { codec: target, root: target.store!.rootIn(targetConfig) };
    const existing = sessionsById([targetRoot], id).filter((m) => fileSessionId(m.path).toLowerCase() === id);
    if (existing.length > 0) {
      throw new ToolError(`${target.harness} already has session ${id} (${existing[0].path}): resume it with: ${command}; or make another copy with --session-id new`);
    }
    const parsed = new PassThrough();
    const common = new PassThrough();
    const installed = new PassThrough();
    installed.resume();
    const nativeArgs = ['--harness', target.harness, '--install', '--config-dir', targetConfig, '--cwd', cwd, '--session-id', id];
    if (args['from-compaction']) nativeArgs.push('--from-compaction');
    const statuses = await Promise.all([
      stage(ctx, parseTool, [source.path], Readable.from([]), parsed),
      stage(ctx, commonTool, ['--active'], parsed, common),
      stage(ctx, nativeTool, nativeArgs, common, installed),
    ]);
    const failed = statuses.find((s) => s !== 0);
    if (failed !== undefined) {
      ctx.note(`${source.path}: not continued in ${target.harness}`);
      return failed === 2 ? 1 : failed;
    }
  }
  if (!args.exec) {
    await ctx.out.write(command + '\n');
    return 0;
  }
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

/** The tx-continue tool. */
export const continueTool: Tool = {
  name: 'tx-continue',
  help: HELP,
  options: { string: ['with', 'session-id', 'config-dir', 'codex-home'], boolean: ['exec', 'from-compaction'] },
  main,
};
