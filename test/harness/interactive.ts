/**
 * Drives the CLI's interactive UI in a private tmux server (its own socket in
 * the scratch folder), for what only the UI writes: prompts queued while a
 * reply is still streaming.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { claudeBinary, claudeEnv } from './claude-cli.js';
import type { MockApi } from './mock-api.js';

/** Options for one interactive session. */
export interface InteractiveOptions {
  home: string;
  cwd: string;
  baseUrl: string;
  sessionId: string;
  /** Keys (tmux names, e.g. Escape) and prompts to type, in order, each once the mock has seen `afterMainRequests` main requests (and `waitMs` more). */
  prompts: Array<{ text?: string; key?: string; afterMainRequests?: number; waitMs?: number }>;
  /** Main requests expected in all; the session ends once they came and the mock went quiet. */
  expectMainRequests: number;
  mock: MockApi;
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Mark onboarding, the API key and the folder's trust as done, so the UI opens at its prompt. */
export function seedInteractiveConfig(home: string, cwd: string, apiKey: string): void {
  const config = path.join(home, '.claude');
  mkdirSync(config, { recursive: true });
  const file = path.join(config, '.claude.json');
  const prior = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(
    file,
    JSON.stringify(
      {
        ...prior,
        hasCompletedOnboarding: true,
        lastOnboardingVersion: '2.1.328',
        theme: 'dark',
        customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
        projects: { [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
      },
      null,
      2,
    ),
  );
}

/** Run the interactive CLI in tmux, type the prompts, wait for every answer, exit. Returns the last screen. */
export async function runInteractive(opts: InteractiveOptions): Promise<string> {
  if (spawnSync('tmux', ['-V']).status !== 0) throw new Error('tmux is not installed: the interactive scenarios need it');
  const bin = claudeBinary();
  const env = claudeEnv(opts.home, opts.baseUrl);
  seedInteractiveConfig(opts.home, opts.cwd, env.ANTHROPIC_API_KEY!);
  mkdirSync(env.TMPDIR!, { recursive: true });
  const socket = path.join(opts.home, '..', 'tmux.sock');
  const tmux = (...args: string[]) => spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-t', 'rec').stdout ?? '';
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  const waitFor = async (what: string, ok: () => boolean) => {
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`interactive: timed out waiting for ${what}; screen:\n${screen()}`);
      await sleep(200);
    }
  };
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const cmd = `cd ${shellQuote(opts.cwd)} && exec /usr/bin/env -i ${envArgs.join(' ')} ${shellQuote(bin)} --session-id ${opts.sessionId}`;
  const started = tmux('new-session', '-d', '-s', 'rec', '-x', '160', '-y', '50', cmd);
  if (started.status !== 0) throw new Error(`tmux new-session failed: ${started.stderr}`);
  try {
    await waitFor('the prompt box', () => /for shortcuts|>\s*$|❯/m.test(screen()));
    await sleep(1000);
    const main = () => opts.mock.messagesRequests('main').length;
    for (const p of opts.prompts) {
      const n = p.afterMainRequests ?? 0;
      await waitFor(`${n} main requests`, () => main() >= n);
      if (p.waitMs) await sleep(p.waitMs);
      if (p.key) tmux('send-keys', '-t', 'rec', p.key);
      if (p.text !== undefined) {
        tmux('send-keys', '-t', 'rec', '-l', p.text);
        await sleep(300);
        tmux('send-keys', '-t', 'rec', 'Enter');
      }
    }
    await waitFor(`${opts.expectMainRequests} main requests`, () => main() >= opts.expectMainRequests);
    for (let quiet = 0, seen = opts.mock.requests.length; quiet < 8; ) {
      await sleep(500);
      if (opts.mock.requests.length === seen) quiet++;
      else (seen = opts.mock.requests.length), (quiet = 0);
    }
    await sleep(1000);
    const last = screen();
    tmux('send-keys', '-t', 'rec', '-l', '/exit');
    await sleep(300);
    tmux('send-keys', '-t', 'rec', 'Enter');
    await sleep(2000);
    return last;
  } finally {
    tmux('kill-server');
  }
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\/.:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
