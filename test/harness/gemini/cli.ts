/**
 * The pinned Gemini CLI, installed on first use into `.cache/gemini/` of the
 * repository from the npm registry, and run offline under `env -i` with a scratch
 * HOME (its store is `HOME/.gemini`) against the mock Gemini API on 127.0.0.1. It is
 * never given the machine's own home or a credential: the API key is a made-up
 * string the mock ignores.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installedVersion, installPinned, repoRoot, runIsolated, type IsolatedResult } from '../pinned.js';

/** The Gemini CLI version every recorded session and conformance test uses. */
export const GEMINI_VERSION = '0.61.0';
/** The npm package of the CLI. */
export const GEMINI_PACKAGE = '@google/gemini-cli';
/** The model the recordings ask for (`--model`): a fixed name, so the client's router is not asked. */
export const GEMINI_MODEL = 'gemini-2.5-flash';

/** The cache folder the CLI is installed into. */
export function geminiCacheDir(): string {
  return path.join(repoRoot(), '.cache', 'gemini');
}

function bundleOf(dir: string): string {
  return path.join(dir, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
}

function ready(dir: string): boolean {
  return installedVersion(dir, GEMINI_PACKAGE) === GEMINI_VERSION && existsSync(bundleOf(dir));
}

/** Whether the pinned CLI is already in the cache. */
export function geminiInstalled(): boolean {
  return ready(geminiCacheDir());
}

/** Install the pinned CLI into the cache if needed (under a lock); return its bundle's entry script. */
export function geminiBundle(): string {
  const dir = geminiCacheDir();
  installPinned(dir, GEMINI_PACKAGE, GEMINI_VERSION, () => ready(dir));
  return bundleOf(dir);
}

/**
 * `$HOME/.gemini/settings.json` for running offline: the API-key auth type (without it
 * the CLI stops with "Invalid auth method selected"), no telemetry, no update checks,
 * no usage statistics; `extra` is merged in at the top level.
 */
export function geminiSettings(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    security: { auth: { selectedType: 'gemini-api-key' } },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    privacy: { usageStatisticsEnabled: false },
    ...extra,
  };
}

/** Write settings.json into a scratch HOME's `.gemini` (made if needed). */
export function writeGeminiSettings(home: string, extra: Record<string, unknown> = {}): void {
  const dir = path.join(home, '.gemini');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(geminiSettings(extra), null, 2) + '\n');
}

/** The fixed environment the CLI runs in: nothing of the machine's own. */
export function geminiEnv(home: string, baseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  const realHome = process.env.HOME;
  if (realHome && path.resolve(home) === path.resolve(realHome)) throw new Error('refusing to run gemini with the real HOME');
  return {
    PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: home,
    // A made-up key: the mock on 127.0.0.1 is the only server the CLI talks to.
    GEMINI_API_KEY: 'offline-mock-key',
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    // Without it the CLI stops (exit 55) in a folder it was not told to trust.
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    // Not a terminal, no colours, no sandbox relaunch.
    TERM: 'dumb',
    NO_COLOR: '1',
    TMPDIR: path.join(home, 'tmp'),
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    ...extra,
  };
}

/** Options for one run of the CLI. */
export interface RunGeminiOptions {
  /** Arguments after the script, e.g. `['-p', 'hi']`. */
  args: string[];
  /** The scratch HOME (settings.json written by the caller). */
  home: string;
  /** The mock's url. */
  baseUrl: string;
  /** Working directory (default `home`); keep it outside any git repository. */
  cwd?: string;
  env?: Record<string, string>;
  /** Kill the CLI after this long (default 120 s). */
  timeoutMs?: number;
  stdin?: string;
}

/** Run the pinned CLI once under `env -i` and collect what it printed. */
export function runGemini(opts: RunGeminiOptions): Promise<IsolatedResult> {
  const bundle = geminiBundle();
  const env = geminiEnv(opts.home, opts.baseUrl, opts.env);
  mkdirSync(env.TMPDIR!, { recursive: true });
  return runIsolated(process.execPath, [bundle, ...opts.args], env, { cwd: opts.cwd ?? opts.home, timeoutMs: opts.timeoutMs ?? 120_000, stdin: opts.stdin });
}

/** A run of the CLI that the caller may interrupt. */
export interface GeminiProcess {
  /** Send a signal to the CLI's whole process group (it may have started children). */
  signal(sig: NodeJS.Signals): void;
  /** How the run ended. */
  done: Promise<IsolatedResult>;
}

/**
 * Start the pinned CLI under `env -i` in a process group of its own, so a test can
 * interrupt it mid-turn the way a terminal's Ctrl-C does (SIGINT to the group).
 */
export function startGemini(opts: RunGeminiOptions): GeminiProcess {
  const bundle = geminiBundle();
  const env = geminiEnv(opts.home, opts.baseUrl, opts.env);
  mkdirSync(env.TMPDIR!, { recursive: true });
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const child = spawn('/usr/bin/env', ['-i', ...envArgs, process.execPath, bundle, ...opts.args], { cwd: opts.cwd ?? opts.home, stdio: ['pipe', 'pipe', 'pipe'], env: {}, detached: true });
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  child.stdin!.on('error', () => {});
  child.stdin!.end(opts.stdin ?? '');
  const group = (sig: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, sig);
    } catch {
      // the group is gone already
    }
  };
  const done = new Promise<IsolatedResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      timedOut = true;
      group('SIGKILL');
    }, opts.timeoutMs ?? 120_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
  return { signal: group, done };
}
