/**
 * The pinned Codex CLI, installed on first use into `.cache/codex/` of the
 * repository from the npm registry, and run offline under `env -i` with a scratch
 * HOME and CODEX_HOME (outside any git repository) against the mock Responses API
 * on 127.0.0.1. It is never given the machine's own home or a credential: the
 * provider's key is a made-up string the mock ignores.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installedVersion, installPinned, isNativeBinary, repoRoot, runIsolated, type IsolatedResult } from '../pinned.js';

/** The Codex CLI version every recorded rollout and conformance test uses. */
export const CODEX_VERSION = '0.169.0';
export const CODEX_PACKAGE = '@openai/codex';
/** A model slug the CLI bundles (another slug changes the tool set it offers). */
export const CODEX_MODEL = 'gpt-5.5';

/** The cache folder the CLI is installed into. */
export function codexCacheDir(): string {
  return path.join(repoRoot(), '.cache', 'codex');
}

const TRIPLES: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/** The native binary inside the platform package (what `bin/codex.js` would exec). */
function findBinary(dir: string): string | null {
  const key = `${process.platform}-${process.arch}`;
  const triple = TRIPLES[key];
  if (!triple) return null;
  const bin = path.join(dir, 'node_modules', '@openai', `codex-${key}`, 'vendor', triple, 'bin', 'codex');
  return existsSync(bin) && isNativeBinary(bin) ? bin : null;
}

/** Whether the pinned CLI is already in the cache. */
export function codexInstalled(): boolean {
  const dir = codexCacheDir();
  return installedVersion(dir, CODEX_PACKAGE) === CODEX_VERSION && findBinary(dir) !== null;
}

/** Install the pinned CLI into the cache if needed (under a lock); return its native binary. */
export function codexBinary(): string {
  const dir = codexCacheDir();
  installPinned(dir, CODEX_PACKAGE, CODEX_VERSION, () => installedVersion(dir, CODEX_PACKAGE) === CODEX_VERSION && findBinary(dir) !== null);
  const bin = findBinary(dir);
  if (bin === null) throw new Error(`no native codex binary for ${process.platform}-${process.arch} under ${dir}`);
  return bin;
}

/** What config.toml says beyond the fixed offline settings. */
export interface CodexConfigOptions {
  /**
   * The provider id (default "mock"). A thread resumes only under the provider it was
   * written with, so a rollout written against OpenAI is resumed with the built-in
   * `openai` provider pointed at the mock (`openai_base_url`); any other id is defined
   * as a provider of its own with the mock's url.
   */
  provider?: string;
  /** More top-level keys. */
  extra?: string;
}

/** `$CODEX_HOME/config.toml` for running offline against the mock at `baseUrl`. */
export function codexConfig(baseUrl: string, opts: CodexConfigOptions = {}): string {
  const provider = opts.provider ?? 'mock';
  const top = provider === 'openai' ? `openai_base_url = "${baseUrl}"\n` : '';
  const table =
    provider === 'openai'
      ? ''
      : `[model_providers.${JSON.stringify(provider)}]
name = ${JSON.stringify(provider)}
base_url = "${baseUrl}"
env_key = "MOCK_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

`;
  return `model = "${CODEX_MODEL}"
model_provider = ${JSON.stringify(provider)}
approval_policy = "never"
sandbox_mode = "workspace-write"
check_for_update_on_startup = false
${top}${opts.extra ?? ''}
${table}[features]
plugins = false
remote_plugin = false

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"
`;
}

/** Write `config.toml` into a scratch CODEX_HOME (made if needed). */
export function writeCodexConfig(codexHome: string, baseUrl: string, opts: CodexConfigOptions = {}): void {
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(path.join(codexHome, 'config.toml'), codexConfig(baseUrl, opts));
}

/** The fixed environment the CLI runs in: nothing of the machine's own. */
export function codexEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const realHome = process.env.HOME;
  if (realHome && path.resolve(home) === path.resolve(realHome)) throw new Error('refusing to run codex with the real HOME');
  return {
    PATH: '/usr/bin:/bin',
    HOME: home,
    CODEX_HOME: path.join(home, '.codex'),
    // Made-up keys: the mock on 127.0.0.1 is the only server the CLI talks to.
    MOCK_API_KEY: 'offline-mock-key',
    OPENAI_API_KEY: 'offline-mock-key',
    TMPDIR: path.join(home, 'tmp'),
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    ...extra,
  };
}

/** Options for one run of the CLI. */
export interface RunCodexOptions {
  /** Arguments after the binary, e.g. `['exec', '--json', 'hi']`. */
  args: string[];
  /** The scratch HOME; CODEX_HOME is `HOME/.codex` (its config.toml written by the caller). */
  home: string;
  /** Working directory (default `home`); keep it outside any git repository. */
  cwd?: string;
  env?: Record<string, string>;
  /** Kill the CLI after this long (default 120 s). */
  timeoutMs?: number;
}

/** Run the pinned CLI once under `env -i` and collect what it printed. */
export function runCodex(opts: RunCodexOptions): Promise<IsolatedResult> {
  const bin = codexBinary();
  const env = codexEnv(opts.home, opts.env);
  mkdirSync(env.TMPDIR!, { recursive: true });
  return runIsolated(bin, opts.args, env, { cwd: opts.cwd ?? opts.home, timeoutMs: opts.timeoutMs ?? 120_000 });
}

/** `codex exec` arguments that every run uses: no git check, strict config, JSON events on stdout. */
export const EXEC_FLAGS = ['--strict-config', '--skip-git-repo-check', '--json'];
