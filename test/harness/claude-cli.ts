/**
 * The pinned Claude Code CLI, installed on first use into `.cache/claude-code/`
 * of the repository, and run offline under `env -i` with a scratch HOME and
 * config dir against a mock API on 127.0.0.1. It is never given the machine's
 * own home directory or a real credential.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, openSync, readSync, closeSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The CLI version every recorded fixture and conformance test uses. */
export const CLI_VERSION = '2.1.328';
export const CLI_PACKAGE = '@anthropic-ai/claude-code';

/** The repository root: the nearest folder upwards holding txcript's package.json. */
export function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pj = path.join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if ((JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'txcript') return dir;
      } catch {
        // not ours; keep walking
      }
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('txcript repository root not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

/** The cache folder the CLI is installed into. */
export function cacheDir(): string {
  return path.join(repoRoot(), '.cache', 'claude-code');
}

function isElfOrMachO(file: string): boolean {
  try {
    const fd = openSync(file, 'r');
    const buf = Buffer.alloc(4);
    readSync(fd, buf, 0, 4, 0);
    closeSync(fd);
    return buf.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) || buf.readUInt32BE(0) === 0xcffaedfe || buf.readUInt32LE(0) === 0xfeedfacf;
  } catch {
    return false;
  }
}

function installedVersion(dir: string): string | null {
  try {
    const pj = path.join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json');
    return (JSON.parse(readFileSync(pj, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
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
  for (const c of candidates) if (existsSync(c) && isElfOrMachO(c)) return c;
  return null;
}

/** Whether the pinned CLI is already in the cache (no install needed). */
export function claudeInstalled(): boolean {
  const dir = cacheDir();
  return installedVersion(dir) === CLI_VERSION && findBinary(dir) !== null;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Install the pinned CLI into the cache if needed; return its native binary's
 * path. Test files run in parallel, so the install holds a lock (a folder made
 * atomically) and others wait for it.
 */
export function claudeBinary(): string {
  const dir = cacheDir();
  const ready = () => installedVersion(dir) === CLI_VERSION && findBinary(dir) !== null;
  if (!ready()) {
    mkdirSync(dir, { recursive: true });
    const lock = path.join(dir, '.install-lock');
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch {
        try {
          if (Date.now() - statSync(lock).mtimeMs > 15 * 60_000) rmSync(lock, { recursive: true, force: true });
        } catch {
          // the lock went away meanwhile
        }
        sleepSync(1000);
      }
    }
    try {
      if (!ready()) {
        const r = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', `${CLI_PACKAGE}@${CLI_VERSION}`], {
          stdio: ['ignore', 'pipe', 'pipe'],
          encoding: 'utf8',
        });
        if (r.status !== 0) throw new Error(`npm install ${CLI_PACKAGE}@${CLI_VERSION} failed:\n${r.stderr}`);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
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
export interface RunClaudeResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

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
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/env', ['-i', ...envArgs, bin, ...opts.args], {
      cwd: opts.cwd ?? opts.home,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {},
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 120_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(opts.stdin ?? '');
  });
}
