/**
 * What the real-client harnesses share: the repository root, the `.cache/` folder the
 * pinned CLIs are installed into, and an install from the npm registry under a lock
 * (test files, and other checkouts sharing `.cache`, run at the same time).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** True when a file starts like a native executable (ELF or Mach-O). */
export function isNativeBinary(file: string): boolean {
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

/** The version of `pkg` installed under `dir/node_modules`, or null. */
export function installedVersion(dir: string, pkg: string): string | null {
  try {
    return (JSON.parse(readFileSync(path.join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * `npm install --prefix dir pkg@version` unless `ready()` already holds. The install
 * holds a lock (a folder made atomically, taken over when older than 15 minutes), and
 * whoever waited for it checks `ready()` again before installing.
 */
export function installPinned(dir: string, pkg: string, version: string, ready: () => boolean): void {
  if (ready()) return;
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
      const r = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', `${pkg}@${version}`], {
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`npm install ${pkg}@${version} failed:\n${r.stderr}`);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** What a run printed and how it ended. */
export interface IsolatedResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Run `bin` under `env -i` with exactly `env` (nothing of this process's own
 * environment), killed after `timeoutMs`; stdin gets `stdin` and is closed.
 */
export function runIsolated(bin: string, args: string[], env: Record<string, string>, opts: { cwd: string; timeoutMs: number; stdin?: string }): Promise<IsolatedResult> {
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/env', ['-i', ...envArgs, bin, ...args], { cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'], env: {} });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
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
