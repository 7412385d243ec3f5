/**
 * The pinned Claude Code CLI, installed on first use into `.cache/claude-code/`
 * of the repository, and run offline under `env -i` with a scratch HOME and
 * config dir against a mock API on 127.0.0.1. It is never given the machine's
 * own home directory or a real credential.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { installedVersion as installedVersionOf, installPinned, isNativeBinary, repoRoot, runIsolated, type IsolatedResult } from './pinned.js';

export { repoRoot };

/** The CLI version every recorded fixture and conformance test uses. */
export const CLI_VERSION = '2.1.328';
export const CLI_PACKAGE = '@anthropic-ai/claude-code';

/** The cache folder the CLI is installed into. */
export function cacheDir(): string {
  return path.join(repoRoot(), '.cache', 'claude-code');
}

function installedVersion(dir: string): string | null {
  return installedVersionOf(dir, CLI_PACKAGE);
}

/**
 * The native binary of the pinned CLI. The package's `bin/claude.exe` is a
 * placeholder until its postinstall copies the platform binary over it; when
 * install scripts did not run, the platform package's own `claude` is used.
 */
function findBinary(dir: string): string | null {
  const scope = path.join(dir, 'node_modules', '@anthropic-ai');
  const candidates = [
    path.join(scope, 'claude-code', 'bin', 'claude.exe'),
    path.join(scope, `claude-code-${process.platform}-${process.arch}`, 'claude'),
    path.join(scope, `claude-code-${process.platform}-${process.arch}-musl`, 'claude'),
  ];
  for (const c of candidates) if (existsSync(c) && isNativeBinary(c)) return c;
  return null;
}

/** Whether the pinned CLI is already in the cache (no install needed). */
export function claudeInstalled(): boolean {
  const dir = cacheDir();
  return installedVersion(dir) === CLI_VERSION && findBinary(dir) !== null;
}

/**
 * Install the pinned CLI into the cache if needed; return its native binary's
 * path. Test files run in parallel, so the install holds a lock and others wait for it.
 */
export function claudeBinary(): string {
  const dir = cacheDir();
  installPinned(dir, CLI_PACKAGE, CLI_VERSION, () => installedVersion(dir) === CLI_VERSION && findBinary(dir) !== null);
  const bin = findBinary(dir);
  if (bin === null) throw new Error(`no native claude binary found under ${dir}`);
  return bin;
}

/** Options for one run of the CLI. */
export interface RunClaudeOptions {
  /** Arguments after the binary, e.g. `['-p', 'hi', '--session-id', ID]`. */
  args: string[];
  /** The scratch HOME; the config dir is `HOME/.claude`. Must not be the real home. */
  home: string;
  /** Working directory of the CLI (default: `home`). */
  cwd?: string;
  /** ANTHROPIC_BASE_URL: the mock's url. */
  baseUrl: string;
  /** Extra environment variables (added to the fixed, minimal set). */
  env?: Record<string, string>;
  /** Kill the CLI after this long (default 120 s). */
  timeoutMs?: number;
  /** Text written to the CLI's stdin (stdin is closed either way). */
  stdin?: string;
}

/** What a run printed and how it ended. */
export type RunClaudeResult = IsolatedResult;

/** The fixed environment the CLI runs in: nothing of the machine's own. */
export function claudeEnv(home: string, baseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  const realHome = process.env.HOME;
  if (realHome && path.resolve(home) === path.resolve(realHome)) throw new Error('refusing to run claude with the real HOME');
  return {
    PATH: '/usr/bin:/bin',
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-offline-mock-key',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    TMPDIR: path.join(home, 'tmp'),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    ...extra,
  };
}

/** Run the pinned CLI once under `env -i` and collect what it printed. */
export function runClaude(opts: RunClaudeOptions): Promise<RunClaudeResult> {
  const bin = claudeBinary();
  const env = claudeEnv(opts.home, opts.baseUrl, opts.env);
  mkdirSync(env.TMPDIR!, { recursive: true });
  return runIsolated(bin, opts.args, env, { cwd: opts.cwd ?? opts.home, timeoutMs: opts.timeoutMs ?? 120_000, stdin: opts.stdin });
}
