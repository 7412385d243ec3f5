/**
 * The pinned OpenCode client, installed on first use into `.cache/opencode/` of the
 * repository from the npm registry, and run offline under `env -i` with a scratch HOME
 * (and every XDG folder inside it) against the mock Anthropic Messages API on
 * 127.0.0.1. It is never given the machine's own home or a credential: the provider's
 * key is a made-up string the mock ignores.
 *
 * Two things would reach the network otherwise. The models catalogue
 * (OPENCODE_DISABLE_MODELS_FETCH=1 keeps the bundled one), and an npm install of
 * `@opencode-ai/plugin` into every config folder, which the client forks off at start.
 * That install is skipped when the folder already has `node_modules/` and a
 * package-lock.json whose root lists every dependency package.json names (the client's
 * Npm.install, checkDirty), so the scratch config folder is seeded with exactly that;
 * and npm's registry points at a closed port on 127.0.0.1 should anything try anyway.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installedVersion, installPinned, isNativeBinary, repoRoot, runIsolated, type IsolatedResult } from '../pinned.js';

/** The OpenCode version every recorded session and conformance test uses. */
export const OPENCODE_VERSION = '1.18.33';
export const OPENCODE_PACKAGE = 'opencode-ai';
/** The model every run uses: a model of the built-in anthropic provider, defined in the config. */
export const OPENCODE_MODEL = 'claude-mock';

/** The cache folder the client is installed into. */
export function opencodeCacheDir(): string {
  return path.join(repoRoot(), '.cache', 'opencode');
}

const PLATFORMS: Record<string, string> = { linux: 'linux', darwin: 'darwin' };

/**
 * The native binary: the one the launcher package's postinstall linked to
 * `bin/opencode.exe` (it picks the build this CPU runs: baseline without AVX2, musl), else
 * the platform package's own, when install scripts did not run.
 */
function findBinary(dir: string): string | null {
  const modules = path.join(dir, 'node_modules');
  const linked = path.join(modules, OPENCODE_PACKAGE, 'bin', 'opencode.exe');
  if (existsSync(linked) && isNativeBinary(linked)) return linked;
  const platform = PLATFORMS[process.platform];
  if (!platform) return null;
  for (const pkg of [`opencode-${platform}-${process.arch}`, `opencode-${platform}-${process.arch}-baseline`]) {
    const bin = path.join(modules, pkg, 'bin', 'opencode');
    if (existsSync(bin) && isNativeBinary(bin)) return bin;
  }
  return null;
}

/** Whether the pinned client is already in the cache. */
export function opencodeInstalled(): boolean {
  const dir = opencodeCacheDir();
  return installedVersion(dir, OPENCODE_PACKAGE) === OPENCODE_VERSION && findBinary(dir) !== null;
}

/** Install the pinned client into the cache if needed (under the shared install lock); return its native binary. */
export function opencodeBinary(): string {
  const dir = opencodeCacheDir();
  installPinned(dir, OPENCODE_PACKAGE, OPENCODE_VERSION, () => installedVersion(dir, OPENCODE_PACKAGE) === OPENCODE_VERSION && findBinary(dir) !== null);
  const bin = findBinary(dir);
  if (bin === null) throw new Error(`no native opencode binary for ${process.platform}-${process.arch} under ${dir}`);
  return bin;
}

/** What the config says beyond the fixed offline settings. */
export interface OpencodeConfigOptions {
  /** The model's token limits (a small context makes the client compact by itself). */
  limit?: { context: number; output: number };
  /** More top-level keys of opencode.json. */
  extra?: Record<string, unknown>;
}

/** `opencode.json` for running offline against the mock at `baseUrl` (http://127.0.0.1:PORT). */
export function opencodeConfig(baseUrl: string, opts: OpencodeConfigOptions = {}): object {
  // Images and PDFs in: a model the client does not know takes text alone, and the client
  // then sends an attached image as the text "ERROR: Cannot read … (this model does not support image input)".
  const model: Record<string, unknown> = { name: OPENCODE_MODEL, modalities: { input: ['text', 'image', 'pdf'], output: ['text'] } };
  if (opts.limit) model.limit = opts.limit;
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: { anthropic: { options: { baseURL: `${baseUrl}/v1`, apiKey: 'offline-mock-key' }, models: { [OPENCODE_MODEL]: model } } },
    model: `anthropic/${OPENCODE_MODEL}`,
    small_model: `anthropic/${OPENCODE_MODEL}`,
    ...opts.extra,
  };
}

/** The folders of a scratch home, as the client finds them through the XDG variables. */
export interface OpencodeDirs {
  home: string;
  config: string;
  data: string;
  /** The session database. */
  db: string;
}

/** Where the client keeps things under a scratch home. */
export function opencodeDirs(home: string): OpencodeDirs {
  const data = path.join(home, '.local', 'share', 'opencode');
  return { home, config: path.join(home, '.config', 'opencode'), data, db: path.join(data, 'opencode.db') };
}

/** Write the config into a scratch home, and seed the config folder so the client installs no plugin package. */
export function writeOpencodeHome(home: string, baseUrl: string, opts: OpencodeConfigOptions = {}): OpencodeDirs {
  const dirs = opencodeDirs(home);
  mkdirSync(path.join(dirs.config, 'node_modules'), { recursive: true });
  writeFileSync(path.join(dirs.config, 'opencode.json'), JSON.stringify(opencodeConfig(baseUrl, opts), null, 2) + '\n');
  const deps = { '@opencode-ai/plugin': OPENCODE_VERSION };
  writeFileSync(path.join(dirs.config, 'package.json'), JSON.stringify({ dependencies: deps }, null, 2) + '\n');
  writeFileSync(path.join(dirs.config, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: deps } } }, null, 2) + '\n');
  return dirs;
}

/** The fixed environment the client runs in: nothing of the machine's own. */
export function opencodeEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const realHome = process.env.HOME;
  if (realHome && path.resolve(home) === path.resolve(realHome)) throw new Error('refusing to run opencode with the real HOME');
  return {
    PATH: '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    TMPDIR: path.join(home, 'tmp'),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
    // Port 9 (discard) on loopback: nothing listens, so a registry request fails at once.
    npm_config_registry: 'http://127.0.0.1:9/',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    ...extra,
  };
}

/** Options for one run of the client. */
export interface RunOpencodeOptions {
  /** Arguments after the binary, e.g. `['run', 'hi']`. */
  args: string[];
  /** The scratch HOME (its config written by writeOpencodeHome). */
  home: string;
  /** Working directory (default `home`); keep it outside any git repository. */
  cwd?: string;
  env?: Record<string, string>;
  /** Kill the client after this long (default 120 s). */
  timeoutMs?: number;
  stdin?: string;
}

/** Run the pinned client once under `env -i` and collect what it printed. */
export function runOpencode(opts: RunOpencodeOptions): Promise<IsolatedResult> {
  const bin = opencodeBinary();
  const env = opencodeEnv(opts.home, opts.env);
  mkdirSync(env.TMPDIR!, { recursive: true });
  return runIsolated(bin, opts.args, env, { cwd: opts.cwd ?? opts.home, timeoutMs: opts.timeoutMs ?? 120_000, stdin: opts.stdin });
}

/**
 * `opencode run` arguments for a prompt: the client quotes every argument that holds a
 * space (`"a b"` becomes the text `"a b"`, quotes included), so a prompt goes as its words.
 */
export function promptArgs(prompt: string): string[] {
  return prompt.split(' ').filter((w) => w !== '');
}
