/**
 * The pinned Codex CLI's app server (`codex app-server`, JSON-RPC over stdio), the layer its
 * interactive UI lists and reads sessions through: `thread/list` is what the session picker
 * shows, `thread/read` with turns what the UI shows of a session. Run offline under `env -i`
 * like the CLI; it needs no model, so the provider's URL points nowhere.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { codexBinary, codexEnv, writeCodexConfig } from './cli.js';

/** A JSON-RPC session with a running app server. */
export interface AppServer {
  /** Send a request and wait for its answer (`result`, or throws with the `error`). */
  request(method: string, params: unknown): Promise<any>;
  close(): void;
}

/** Start the app server for the scratch HOME (CODEX_HOME = HOME/.codex) in `cwd`, initialized. */
export async function startAppServer(home: string, cwd: string, timeoutMs = 60_000): Promise<AppServer> {
  const codexHome = path.join(home, '.codex');
  writeCodexConfig(codexHome, 'http://127.0.0.1:9/v1', { provider: 'openai' });
  const env = codexEnv(home);
  mkdirSync(env.TMPDIR!, { recursive: true });
  const child = spawn(codexBinary(), ['app-server'], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
      const line = pending.slice(0, i);
      pending = pending.slice(i + 1);
      let message: any;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      const w = typeof message?.id === 'number' ? waiting.get(message.id) : undefined;
      if (!w) continue;
      waiting.delete(message.id);
      if (message.error) w.reject(new Error(`${JSON.stringify(message.error)}`));
      else w.resolve(message.result);
    }
  });
  child.stderr.resume();
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  child.on('exit', () => {
    clearTimeout(timer);
    for (const w of waiting.values()) w.reject(new Error('the app server exited'));
    waiting.clear();
  });
  let next = 0;
  const request = (method: string, params: unknown) =>
    new Promise<any>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  await request('initialize', { clientInfo: { name: 'txcript-test', version: '0' } });
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'initialized' }) + '\n');
  return {
    request,
    close: () => {
      clearTimeout(timer);
      child.kill();
    },
  };
}
