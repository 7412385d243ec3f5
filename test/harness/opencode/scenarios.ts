/**
 * The scenarios recorded into fixtures/recorded-opencode/ (record.ts runs them): what each
 * asks the client, what the mock answers, and what the stored sessions must show.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { smallPng } from '../record.js';
import type { MockApi, MockScript, ScriptBlock } from '../mock-api.js';
import { opencodeBinary, opencodeEnv, promptArgs, runOpencode, type OpencodeConfigOptions } from './cli.js';
import { startOpencodeServer, type OpencodeServer } from './server.js';

/** Where one scenario runs: fixed paths, wiped before each recording. */
export interface OpencodeScenarioDirs {
  root: string;
  home: string;
  cwd: string;
}

/** One recorded scenario. */
export interface OpencodeScenario {
  name: string;
  /** What the fixture shows, for the README. */
  shows: string;
  /** Census tokens (census.ts) the exported sessions must show. */
  expects: string[];
  config?: OpencodeConfigOptions;
  setup?: (dirs: OpencodeScenarioDirs) => void;
  script: Omit<MockScript, 'classify'>;
  /** Prompts of the task calls the script makes (their subagent requests are routed apart). */
  subagentPrompts?: string[];
  run: (dirs: OpencodeScenarioDirs, mock: MockApi) => Promise<void>;
}

const text = (t: string): ScriptBlock => ({ type: 'text', text: t });
const think = (thinking: string, signature: string): ScriptBlock => ({ type: 'thinking', thinking, signature });
const tool = (id: string, name: string, input: Record<string, unknown>): ScriptBlock => ({ type: 'tool_use', id, name, input });
const bash = (id: string, command: string, description: string): ScriptBlock => tool(id, 'bash', { command, description });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The session id a `run --format json` printed (its first event names it). */
function sessionIdOf(stdout: string): string {
  for (const line of stdout.split('\n')) {
    try {
      const o = JSON.parse(line) as { sessionID?: unknown };
      if (typeof o.sessionID === 'string') return o.sessionID;
    } catch {
      // not an event line
    }
  }
  throw new Error(`opencode run printed no session id:\n${stdout.slice(0, 2000)}`);
}

/** `opencode run --format json [-s ID] [-f FILE] PROMPT`; fails unless it exits 0; returns the session id. */
async function opencodeRun(dirs: OpencodeScenarioDirs, prompt: string, what: string, opts: { session?: string; files?: string[] } = {}): Promise<string> {
  const args = ['run', '--format', 'json'];
  if (opts.session) args.push('--session', opts.session);
  for (const f of opts.files ?? []) args.push('--file', f);
  // `--` so the prompt's words are never read as options after a --file list.
  const r = await runOpencode({ args: [...args, '--', ...promptArgs(prompt)], home: dirs.home, cwd: dirs.cwd, timeoutMs: 180_000 });
  if (r.timedOut || r.code !== 0) throw new Error(`${what}: opencode exited ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`);
  return sessionIdOf(r.stdout);
}

/** `opencode run PROMPT`, sent SIGINT (a Ctrl-C) once `when()` holds; resolves when the client is gone. */
async function interruptedRun(dirs: OpencodeScenarioDirs, prompt: string, when: () => boolean): Promise<void> {
  const env = opencodeEnv(dirs.home);
  mkdirSync(env.TMPDIR!, { recursive: true });
  const args = ['-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), opencodeBinary(), 'run', '--', ...promptArgs(prompt)];
  const child = spawn('/usr/bin/env', args, { cwd: dirs.cwd, stdio: ['ignore', 'ignore', 'ignore'], env: {} });
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const started = Date.now();
  while (!when()) {
    if (child.exitCode !== null) throw new Error('opencode run ended before it could be interrupted');
    if (Date.now() - started > 120_000) {
      child.kill('SIGKILL');
      throw new Error('the moment to interrupt never came');
    }
    await sleep(100);
  }
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await closed;
  clearTimeout(timer);
}

/** Run `fn` against a server started in the scenario's folders, closing it whatever happens. */
async function withServer(dirs: OpencodeScenarioDirs, fn: (server: OpencodeServer) => Promise<void>): Promise<void> {
  const server = await startOpencodeServer(dirs.home, dirs.cwd);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

/** Wait until the mock has answered `n` main requests. */
async function mainRequests(mock: MockApi, n: number): Promise<void> {
  const until = Date.now() + 120_000;
  while (mock.messagesRequests('main').length < n) {
    if (Date.now() > until) throw new Error(`the client sent ${mock.messagesRequests('main').length} main requests, not ${n}`);
    await sleep(100);
  }
}

/** The usage the cached-usage scenario's answer reports (the API's fields: input without the cache). */
export const CACHED_USAGE = { input_tokens: 20, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 50 };

const TASK_PROMPT = 'List the files of the working directory and report their names.';

/** The scenarios, in recording order. */
export const opencodeScenarios: OpencodeScenario[] = [
  {
    name: 'plain',
    shows: 'one prompt answered with reasoning (an Anthropic signature in its metadata) and text',
    expects: ['role:user', 'role:assistant', 'part:reasoning', 'part:text', 'part:step-start', 'part:step-finish'],
    script: { main: [{ content: [think('The user greets me; I answer briefly.', 'c2lnbmF0dXJlLXBsYWlu'), text('Hello! I am a mock assistant.')] }] },
    run: async (dirs) => {
      await opencodeRun(dirs, 'Hello, who are you?', 'plain');
    },
  },
  {
    name: 'cached-usage',
    shows: 'an answer whose usage reports cache reads and cache writes: the client stores input without them (`tokens.input`), and the cache counts apart',
    expects: ['tokens:cache-read', 'tokens:cache-write'],
    script: { main: [{ content: [text('An answer from a warm cache.')], usage: CACHED_USAGE }] },
    run: async (dirs) => {
      await opencodeRun(dirs, 'Answer from the cache.', 'cached-usage');
    },
  },
  {
    name: 'resume',
    shows: 'a session continued with `opencode run --session ID`: two user turns, each answered',
    expects: ['role:user', 'role:assistant', 'part:text'],
    script: { main: [{ content: [text('The capital of France is Paris.')] }, { content: [text('You asked about the capital of France.')] }] },
    run: async (dirs) => {
      const id = await opencodeRun(dirs, 'What is the capital of France?', 'resume first prompt');
      await opencodeRun(dirs, 'What did I ask you before?', 'resume second prompt', { session: id });
    },
  },
  {
    name: 'tools',
    shows: 'bash that succeeds, bash that fails (exit 2: still a completed call, the exit code in metadata), and read of a missing file (a call in state error)',
    expects: ['part:tool', 'tool:bash', 'tool:read', 'state:completed', 'state:error'],
    script: {
      main: [
        { content: [text('I will run a command.'), bash('toolu_01ToolsBashOk000000001', 'echo hello from bash', 'Print a greeting')] },
        { content: [bash('toolu_01ToolsBashFail00000001', 'ls /nonexistent-dir-for-fixture', 'List a missing folder')] },
        { content: [tool('toolu_01ToolsReadMissing0001', 'read', { filePath: '/tmp/txcript-rec-opencode/tools/work/missing.txt' })] },
        { content: [text('The greeting printed; the folder and the file do not exist.')] },
      ],
    },
    run: async (dirs) => {
      await opencodeRun(dirs, 'Run a command, list a missing folder, then read missing.txt.', 'tools');
    },
  },
  {
    name: 'parallel',
    shows: 'two bash calls in one response (after reasoning), both answered before the next request',
    expects: ['part:tool', 'part:reasoning', 'state:completed'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'notes.txt'), 'one\ntwo\n'),
    script: {
      main: [
        { content: [think('Both commands are independent.', 'c2lnbmF0dXJlLXBhcmFsbGVs'), bash('toolu_01ParallelCat000000001', 'cat notes.txt', 'Show notes.txt'), bash('toolu_01ParallelWc0000000001', 'wc -l notes.txt', 'Count its lines')] },
        { content: [text('notes.txt has two lines: one, two.')] },
      ],
    },
    run: async (dirs) => {
      await opencodeRun(dirs, 'Show notes.txt and count its lines.', 'parallel');
    },
  },
  {
    name: 'image',
    shows: 'a PNG attached to the prompt (`--file`: a file part with a data URL, after the synthetic texts of the Read the client ran), then the model reads it (a tool result with the image as an attachment)',
    expects: ['part:file', 'file:image/png', 'synthetic:text', 'attachment:image/png'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'red-square.png'), smallPng()),
    script: {
      main: [
        { content: [tool('toolu_01ImageRead00000000001', 'read', { filePath: '/tmp/txcript-rec-opencode/image/work/red-square.png' })] },
        { content: [text('The image is a red square on a white background.')] },
      ],
    },
    run: async (dirs) => {
      await opencodeRun(dirs, 'What is in this image?', 'image', { files: [path.join(dirs.cwd, 'red-square.png')] });
    },
  },
  {
    name: 'compaction',
    shows: 'an automatic compaction (a model limit of 1200 tokens): a user message with a compaction part, the summary (an assistant message with summary true), the synthetic "Continue" prompt and its answer',
    expects: ['part:compaction', 'summary:true', 'synthetic:text'],
    config: { limit: { context: 1200, output: 1000 } },
    script: {
      main: [
        { content: [text('First answer, before any compaction. ' + 'More words of a long answer. '.repeat(20))] },
        { content: [text('Second answer, which fills the context.')] },
        { content: [text('Third answer, after the compaction.')] },
      ],
      compact: [{ content: [text('## Goal\nAnswer the user twice.\n\n## Progress\n- Two answers were given.')] }],
    },
    run: async (dirs) => {
      const id = await opencodeRun(dirs, 'Give a first answer. ' + 'Some padding text. '.repeat(30), 'compaction first prompt');
      await opencodeRun(dirs, 'Now answer again.', 'compaction second prompt', { session: id });
    },
  },
  {
    name: 'compaction-tail',
    shows: 'an automatic compaction that keeps the last turn (`compaction.tail_turns` 1): the compaction part names the tail\'s first message (tail_start_id), which the client sends after the summary',
    expects: ['part:compaction', 'compaction:tail', 'summary:true'],
    config: { limit: { context: 1200, output: 1000 }, extra: { compaction: { tail_turns: 1, preserve_recent_tokens: 4000 } } },
    script: {
      main: [
        { content: [text('First answer, before any compaction. ' + 'More words of a long answer. '.repeat(20))] },
        { content: [text('Second answer, which fills the context.')] },
        { content: [text('Third answer, after the compaction.')] },
      ],
      compact: [{ content: [text('## Goal\nAnswer the user.\n\n## Progress\n- The first answer was given.')] }],
    },
    run: async (dirs) => {
      const id = await opencodeRun(dirs, 'Give a first answer. ' + 'Some padding text. '.repeat(30), 'compaction-tail first prompt');
      await opencodeRun(dirs, 'Now answer again.', 'compaction-tail second prompt', { session: id });
    },
  },
  {
    name: 'compact-command',
    shows: 'a compaction asked for (the server\'s summarize, what /compact does): a compaction part with auto false, its summary, then a new prompt',
    expects: ['part:compaction', 'summary:true'],
    script: {
      main: [{ content: [text('Here is a first answer.')] }, { content: [text('An answer after the compaction.')] }],
      compact: [{ content: [text('## Goal\nKeep talking.\n\n## Progress\n- One answer was given.')] }],
    },
    run: async (dirs, mock) => {
      await withServer(dirs, async (server) => {
        const s = await server.request('POST', '/session', {});
        await server.request('POST', `/session/${s.id}/prompt_async`, { parts: [{ type: 'text', text: 'Give a first answer.' }] });
        await mainRequests(mock, 1);
        await server.idle(s.id);
        await server.request('POST', `/session/${s.id}/summarize`, { providerID: 'anthropic', modelID: 'claude-mock' });
        await server.idle(s.id);
        await server.request('POST', `/session/${s.id}/prompt_async`, { parts: [{ type: 'text', text: 'Answer after the compaction.' }] });
        await mainRequests(mock, 2);
        await server.idle(s.id);
      });
    },
  },
  {
    name: 'aborted',
    shows: 'turns aborted the way the interactive UI does (the server\'s abort): one while its bash call runs, one while its text streams; each assistant message ends with a MessageAbortedError; then a turn that completes',
    expects: ['error:MessageAbortedError', 'part:tool', 'part:text'],
    script: {
      main: [
        { content: [text('Waiting.'), bash('toolu_01AbortedSleep00000001', 'sleep 30', 'Wait half a minute')] },
        { content: [text('A slow answer that is streamed piece by piece. '.repeat(10))], delayMs: 300 },
        { content: [text('A quick answer.')] },
      ],
    },
    run: async (dirs, mock) => {
      await withServer(dirs, async (server) => {
        const s = await server.request('POST', '/session', {});
        await server.request('POST', `/session/${s.id}/prompt_async`, { parts: [{ type: 'text', text: 'Wait for a while.' }] });
        await mainRequests(mock, 1);
        await sleep(1500);
        await server.request('POST', `/session/${s.id}/abort`);
        await server.idle(s.id);
        await server.request('POST', `/session/${s.id}/prompt_async`, { parts: [{ type: 'text', text: 'Say something slowly.' }] });
        await mainRequests(mock, 2);
        await sleep(1500);
        await server.request('POST', `/session/${s.id}/abort`);
        await server.idle(s.id);
        await server.request('POST', `/session/${s.id}/prompt_async`, { parts: [{ type: 'text', text: 'Now answer quickly.' }] });
        await mainRequests(mock, 3);
        await server.idle(s.id);
      });
    },
  },
  {
    name: 'interrupted',
    shows: '`opencode run` stopped by Ctrl-C (SIGINT) while its bash call runs: the client exits at once, leaving the call in state running and the assistant message without a completed time',
    expects: ['state:running'],
    script: { main: [{ content: [text('Sleeping.'), bash('toolu_01InterruptedSleep0000001', 'sleep 30', 'Wait half a minute')] }] },
    run: async (dirs, mock) => {
      // The call has started once the first request is answered; give the client a moment to store it.
      let answeredAt = 0;
      await interruptedRun(dirs, 'Start something slow.', () => {
        if (mock.messagesRequests('main').length === 0) return false;
        answeredAt ||= Date.now();
        return Date.now() - answeredAt > 2500;
      });
    },
  },
  {
    name: 'subagent',
    shows: 'a task call: the client runs a subagent in a child session (parentID set, exported on its own), whose answer becomes the task result',
    expects: ['tool:task', 'session:child'],
    subagentPrompts: [TASK_PROMPT],
    script: {
      main: [
        { content: [tool('toolu_01SubagentTask000000001', 'task', { description: 'List the files', prompt: TASK_PROMPT, subagent_type: 'general' })] },
        { content: [text('The subagent found no files.')] },
      ],
      subagent: [{ content: [text('The working directory holds no files.')] }],
    },
    run: async (dirs) => {
      await opencodeRun(dirs, 'Ask a subagent to list the files.', 'subagent');
    },
  },
];

