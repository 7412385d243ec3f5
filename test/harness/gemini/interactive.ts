/**
 * Drives the Gemini CLI's interactive UI in a private tmux server (its own socket in
 * the scratch folder), for what only the UI writes: a tool call cancelled with Esc
 * (an `info` message and a `cancelled` call), and `/rewind` (a `$rewindTo` line).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { geminiBundle, geminiEnv } from './cli.js';
import type { MockGeminiApi } from './mock-gemini.js';

/** One thing to type, once its moment has come. */
export interface UiStep {
  /** Text typed literally, then Enter. */
  text?: string;
  /** tmux key names pressed in order (e.g. `Escape`, `Up`, `Enter`). */
  keys?: string[];
  /** Wait until the mock has seen this many main requests. */
  afterMainRequests?: number;
  /** Wait until the screen shows this. */
  screen?: RegExp;
  /** Then wait this long more. */
  waitMs?: number;
}

/** Options for one interactive session. */
export interface GeminiUiOptions {
  home: string;
  cwd: string;
  mock: MockGeminiApi;
  /** CLI arguments (e.g. `--approval-mode yolo`). */
  args?: string[];
  steps: UiStep[];
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\/.:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Run the interactive CLI in tmux, take the steps, then `/quit` and wait for it to end. Returns the last screen. */
export async function runGeminiUi(opts: GeminiUiOptions): Promise<string> {
  if (spawnSync('tmux', ['-V']).status !== 0) throw new Error('tmux is not installed: the interactive scenarios need it');
  const bundle = geminiBundle();
  const env = geminiEnv(opts.home, opts.mock.url, { TERM: 'xterm-256color' });
  delete env.NO_COLOR;
  mkdirSync(env.TMPDIR!, { recursive: true });
  const socket = path.join(opts.home, '..', 'tmux.sock');
  const tmux = (...args: string[]) => spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-t', 'rec').stdout ?? '';
  const alive = () => tmux('has-session', '-t', 'rec').status === 0;
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  const waitFor = async (what: string, ok: () => boolean) => {
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`interactive: timed out waiting for ${what}; screen:\n${screen()}`);
      await sleep(200);
    }
  };
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const argv = [process.execPath, bundle, ...(opts.args ?? [])].map(shellQuote).join(' ');
  const cmd = `cd ${shellQuote(opts.cwd)} && exec /usr/bin/env -i ${envArgs.join(' ')} ${argv}`;
  const started = tmux('new-session', '-d', '-s', 'rec', '-x', '160', '-y', '50', cmd);
  if (started.status !== 0) throw new Error(`tmux new-session failed: ${started.stderr}`);
  try {
    await waitFor('the prompt box', () => /Type your message/.test(screen()));
    await sleep(500);
    const main = () => opts.mock.routeRequests('main').length;
    for (const s of opts.steps) {
      if (s.afterMainRequests !== undefined) await waitFor(`${s.afterMainRequests} main requests`, () => main() >= s.afterMainRequests!);
      if (s.screen) await waitFor(`the screen to show ${s.screen}`, () => s.screen!.test(screen()));
      if (s.waitMs) await sleep(s.waitMs);
      for (const k of s.keys ?? []) {
        tmux('send-keys', '-t', 'rec', k);
        await sleep(400);
      }
      if (s.text !== undefined) {
        tmux('send-keys', '-t', 'rec', '-l', s.text);
        await sleep(300);
        tmux('send-keys', '-t', 'rec', 'Enter');
      }
    }
    // Let the last answer land (the mock goes quiet), then leave the way a person does.
    for (let quiet = 0, seen = opts.mock.requests.length; quiet < 4; ) {
      await sleep(500);
      if (opts.mock.requests.length === seen) quiet++;
      else (seen = opts.mock.requests.length), (quiet = 0);
    }
    const last = screen();
    tmux('send-keys', '-t', 'rec', 'C-u');
    tmux('send-keys', '-t', 'rec', '-l', '/quit');
    await sleep(300);
    tmux('send-keys', '-t', 'rec', 'Enter');
    await waitFor('the CLI to exit', () => !alive());
    return last;
  } finally {
    if (alive()) tmux('kill-server');
  }
}
