/**
 * pi in RPC mode (`--mode rpc`): commands as JSON lines on stdin, responses and agent
 * events as JSON lines on stdout. What print mode cannot do is driven through it: an
 * abort in the middle of a streamed answer, a manual compaction, a shell command a
 * person runs (`!cmd`), naming the session, commands of an extension.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { piEntry, piEnv } from './cli.js';

/** One JSON line pi printed. */
export type RpcEvent = Record<string, any> & { type: string };

/** A running client in RPC mode. */
export interface PiRpc {
  /** Send a command and wait for its response (rejects when it says success: false). */
  command(cmd: Record<string, unknown>): Promise<RpcEvent>;
  /** Send a command without waiting. */
  send(cmd: Record<string, unknown>): void;
  /** Wait for the first event from now on (or already seen since `since`) that `match` accepts. */
  waitFor(match: (e: RpcEvent) => boolean, what: string, since?: number): Promise<RpcEvent>;
  /** How many events were seen so far (a mark for waitFor). */
  seen(): number;
  /** Everything printed, in order. */
  events: RpcEvent[];
  /** Close stdin and wait for the client to exit (killed after a while). */
  close(): Promise<{ code: number | null; stderr: string }>;
}

/** Start the pinned client in RPC mode under `env -i` with a scratch HOME. */
export function startPiRpc(opts: { args: string[]; home: string; cwd: string; timeoutMs?: number }): PiRpc {
  const env = piEnv(opts.home);
  mkdirSync(env.TMPDIR!, { recursive: true });
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const child: ChildProcessWithoutNullStreams = spawn('/usr/bin/env', ['-i', ...envArgs, process.execPath, piEntry(), '--mode', 'rpc', ...opts.args], { cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'], env: {} });
  const events: RpcEvent[] = [];
  const waiters: { match: (e: RpcEvent) => boolean; resolve: (e: RpcEvent) => void }[] = [];
  let stderr = '';
  let pending = '';
  let nextId = 1;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  let exited = false;
  let exitCode: number | null = null;
  const exit = new Promise<void>((resolve) =>
    child.on('close', (code) => {
      exited = true;
      exitCode = code;
      resolve();
    }),
  );
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    pending += s;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl).replace(/\r$/, '');
      pending = pending.slice(nl + 1);
      if (!line.trim()) continue;
      let e: RpcEvent;
      try {
        e = JSON.parse(line) as RpcEvent;
      } catch {
        continue;
      }
      events.push(e);
      for (let i = waiters.length - 1; i >= 0; i--) {
        if (waiters[i]!.match(e)) waiters.splice(i, 1)[0]!.resolve(e);
      }
    }
  });
  child.stdin.on('error', () => {});

  const send = (cmd: Record<string, unknown>) => child.stdin.write(JSON.stringify(cmd) + '\n');
  const waitFor = (match: (e: RpcEvent) => boolean, what: string, since = events.length): Promise<RpcEvent> => {
    const early = events.slice(since).find(match);
    if (early) return Promise.resolve(early);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`pi rpc: no ${what} within ${timeoutMs} ms${exited ? ` (exited ${exitCode})` : ''}\nstderr: ${stderr.slice(-2000)}\nlast events: ${JSON.stringify(events.slice(-5)).slice(0, 2000)}`)), timeoutMs);
      waiters.push({
        match,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  };
  return {
    events,
    send,
    waitFor,
    seen: () => events.length,
    async command(cmd) {
      const id = `txcript-${nextId++}`;
      const since = events.length;
      send({ ...cmd, id });
      const r = await waitFor((e) => e.type === 'response' && e.id === id, `response to ${String(cmd.type)}`, since);
      if (r.success !== true) throw new Error(`pi rpc: ${String(cmd.type)} failed: ${JSON.stringify(r).slice(0, 1000)}`);
      return r;
    },
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(timer);
      return { code: exitCode, stderr };
    },
  };
}
