/**
 * The pinned pi coding agent, installed on first use into `.cache/pi/` of the
 * repository from the npm registry, and run offline under `env -i` with a scratch
 * HOME (its agent directory `HOME/.pi/agent`) against the mock Messages API on
 * 127.0.0.1. It is never given the machine's own home or a credential: the
 * provider's key in models.json is a made-up string the mock ignores.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installedVersion, installPinned, repoRoot, runIsolated, type IsolatedResult } from '../pinned.js';
import { systemText, type MessagesRequest, type RequestRoute } from '../mock-api.js';

/** The pi version every recorded session and conformance test uses. */
export const PI_VERSION = '0.73.1';
export const PI_PACKAGE = '@mariozechner/pi-coding-agent';
/** The provider and model models.json defines for the mock. */
export const PI_PROVIDER = 'mock';
export const PI_MODEL = 'claude-mock';
/** The flags that pick the mock's model on every run. */
export const MODEL_FLAGS = ['--provider', PI_PROVIDER, '--model', PI_MODEL];

/** The cache folder the client is installed into. */
export function piCacheDir(): string {
  return path.join(repoRoot(), '.cache', 'pi');
}

/** The client's entry script (the package's `bin`). */
function entryScript(dir: string): string {
  return path.join(dir, 'node_modules', ...PI_PACKAGE.split('/'), 'dist', 'cli.js');
}

/** Whether the pinned client is already in the cache. */
export function piInstalled(): boolean {
  const dir = piCacheDir();
  return installedVersion(dir, PI_PACKAGE) === PI_VERSION && existsSync(entryScript(dir));
}

/** Install the pinned client into the cache if needed (under the shared lock); return its entry script. */
export function piEntry(): string {
  const dir = piCacheDir();
  installPinned(dir, PI_PACKAGE, PI_VERSION, () => installedVersion(dir, PI_PACKAGE) === PI_VERSION && existsSync(entryScript(dir)));
  return entryScript(dir);
}

/** What the scratch agent directory says beyond the mock provider. */
export interface PiConfigOptions {
  /** The model's context window in tokens (models.json; pi's default is 128000). */
  contextWindow?: number;
  /** The model accepts images (models.json `input`); without it pi replaces images by a placeholder text. */
  images?: boolean;
  /** settings.json of the agent directory (compaction thresholds, say). */
  settings?: Record<string, unknown>;
  /** More model ids of the mock provider, to switch to. */
  extraModels?: string[];
}

/** `models.json` defining the mock provider at `baseUrl`, speaking the Anthropic Messages API. */
export function piModels(baseUrl: string, opts: PiConfigOptions = {}): object {
  const model: Record<string, unknown> = { id: PI_MODEL, input: opts.images === false ? ['text'] : ['text', 'image'] };
  if (opts.contextWindow !== undefined) model.contextWindow = opts.contextWindow;
  const more = (opts.extraModels ?? []).map((id) => ({ ...model, id }));
  return { providers: { [PI_PROVIDER]: { baseUrl, api: 'anthropic-messages', apiKey: 'offline-mock-key', models: [model, ...more] } } };
}

/** Write models.json (and settings.json when asked) into a scratch HOME's agent directory. */
export function writePiConfig(home: string, baseUrl: string, opts: PiConfigOptions = {}): string {
  const agentDir = path.join(home, '.pi', 'agent');
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(path.join(agentDir, 'models.json'), JSON.stringify(piModels(baseUrl, opts), null, 2));
  if (opts.settings) writeFileSync(path.join(agentDir, 'settings.json'), JSON.stringify(opts.settings, null, 2));
  return agentDir;
}

/** The fixed environment the client runs in: nothing of the machine's own. */
export function piEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const realHome = process.env.HOME;
  if (realHome && path.resolve(home) === path.resolve(realHome)) throw new Error('refusing to run pi with the real HOME');
  return {
    PATH: '/usr/bin:/bin',
    HOME: home,
    // No update check, no package index: the mock on 127.0.0.1 is the only server.
    PI_OFFLINE: '1',
    PI_TELEMETRY: '0',
    TMPDIR: path.join(home, 'tmp'),
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    TERM: 'dumb',
    ...extra,
  };
}

/** Options for one run of the client. */
export interface RunPiOptions {
  /** Arguments after the entry script, e.g. `[...MODEL_FLAGS, '-p', 'hi']`. */
  args: string[];
  /** The scratch HOME (models.json written by the caller). */
  home: string;
  /** Working directory (default `home`). */
  cwd?: string;
  env?: Record<string, string>;
  /** Kill the client after this long (default 120 s). */
  timeoutMs?: number;
}

/** Run the pinned client once under `env -i` and collect what it printed. */
export function runPi(opts: RunPiOptions): Promise<IsolatedResult> {
  const entry = piEntry();
  const env = piEnv(opts.home, opts.env);
  mkdirSync(env.TMPDIR!, { recursive: true });
  return runIsolated(process.execPath, [entry, ...opts.args], env, { cwd: opts.cwd ?? opts.home, timeoutMs: opts.timeoutMs ?? 120_000 });
}

/**
 * Routing of pi's requests for the mock: a summary pi asks for (a compaction, or a
 * branch left by tree navigation) has its summarizer's system prompt and no tools;
 * every other request with tools is the conversation.
 */
export function classifyPiRequest(body: MessagesRequest): RequestRoute {
  if (/context summarization assistant/.test(systemText(body.system))) return 'compact';
  return (body.tools ?? []).length === 0 ? 'side' : 'main';
}

/** The sessions folder of a scratch HOME. */
export function sessionsDir(home: string): string {
  return path.join(home, '.pi', 'agent', 'sessions');
}

/** The folder pi keeps the sessions of `cwd` in: `--<cwd, its first slash dropped, slashes as ->--`. */
export function projectDirName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}
