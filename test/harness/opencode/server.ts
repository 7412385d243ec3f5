/**
 * The client's headless server (`opencode serve`), for what `opencode run` cannot do:
 * abort a turn the way the interactive UI does (POST /session/ID/abort) and compact on
 * request (POST /session/ID/summarize, the UI's /compact). It runs under the same
 * `env -i` scratch environment as every other run, bound to 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { opencodeBinary, opencodeEnv } from './cli.js';

/** A running server. */
export interface OpencodeServer {
  url: string;
  /** Call the server's HTTP API; the body is sent as JSON and the answer parsed when it is JSON. */
  request(method: string, path: string, body?: unknown): Promise<any>;
  /** Wait until the server calls a session idle and its last message is an assistant message that completed. */
  idle(sessionID: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Start `opencode serve` in `cwd` under the scratch `home` (its config written already). */
export async function startOpencodeServer(home: string, cwd: string, timeoutMs = 60_000): Promise<OpencodeServer> {
  const env = opencodeEnv(home);
  mkdirSync(env.TMPDIR!, { recursive: true });
  const args = ['-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), opencodeBinary(), 'serve', '--port', '0', '--hostname', '127.0.0.1'];
  const child: ChildProcess = spawn('/usr/bin/env', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: {} });
  let printed = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (printed += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (printed += s));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const started = Date.now();
  let url: string | undefined;
  while (!(url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1])) {
    if (child.exitCode !== null || Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`opencode serve did not start:\n${printed.slice(0, 2000)}`);
    }
    await sleep(100);
  }
  const base = url;
  const request = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  };
  return {
    url: base,
    request,
    async idle(sessionID: string, waitMs = 60_000) {
      const until = Date.now() + waitMs;
      for (;;) {
        const status = (await request('GET', '/session/status')) as Record<string, { type?: string }>;
        const busy = status && typeof status === 'object' && status[sessionID]?.type !== undefined && status[sessionID]?.type !== 'idle';
        const messages = (await request('GET', `/session/${sessionID}/message`)) as { info: { role: string; time: { completed?: number } } }[];
        const last = messages.at(-1)?.info;
        if (!busy && last?.role === 'assistant' && last.time.completed !== undefined) return;
        if (Date.now() > until) throw new Error(`session ${sessionID} still busy after ${waitMs} ms`);
        await sleep(200);
      }
    },
    async close() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await closed;
      clearTimeout(timer);
    },
  };
}
