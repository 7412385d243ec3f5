/**
 * Records fixtures/recorded-codex/: runs each scenario with the pinned Codex CLI
 * against the mock Responses API, in a fixed scratch folder
 * /tmp/txcript-rec-codex/<scenario> (HOME `home/`, cwd `work/`, outside any git
 * repository), then copies the rollouts it wrote (`$CODEX_HOME/sessions/`) into
 * fixtures/recorded-codex/<scenario>/sessions/.
 *
 *   node build/test/harness/codex/record.js [--out DIR] [SCENARIO…]     (npm run record:codex)
 *   node build/test/harness/codex/record.js --readme
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { smallPng } from '../record.js';
import { jsonlFiles } from '../fixtures.js';
import { repoRoot } from '../pinned.js';
import { CODEX_VERSION, EXEC_FLAGS, codexBinary, runCodex, writeCodexConfig } from './cli.js';
import { startMockResponses, type MockResponsesApi, type OutputItem, type ResponsesScript } from './mock-responses.js';
import { runIfMain } from '../record-main.js';

/** Where one scenario runs: fixed paths, wiped before each recording. */
export interface CodexScenarioDirs {
  root: string;
  home: string;
  codexHome: string;
  cwd: string;
}

/** One recorded scenario. */
export interface CodexScenario {
  name: string;
  /** What the fixture shows, for the README. */
  shows: string;
  /** Census tokens (see `codexCensus`) the recorded rollouts must show. */
  expects: string[];
  /** Extra lines for config.toml. */
  config?: string;
  setup?: (dirs: CodexScenarioDirs) => void;
  script: ResponsesScript;
  run: (dirs: CodexScenarioDirs, mock: MockResponsesApi) => Promise<void>;
}

const REC_ROOT = '/tmp/txcript-rec-codex';

const say = (text: string): OutputItem => ({ type: 'message', text });
const think = (summary: string, encrypted: string): OutputItem => ({ type: 'reasoning', summary: [summary], encrypted_content: encrypted });
const call = (call_id: string, name: string, args: unknown): OutputItem => ({ type: 'function_call', name, call_id, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
const exec = (call_id: string, cmd: string): OutputItem => call(call_id, 'exec_command', { cmd, yield_time_ms: 10000 });
const patch = (call_id: string, input: string): OutputItem => ({ type: 'custom_tool_call', name: 'apply_patch', call_id, input });

/** The thread id `codex exec --json` printed. */
function threadId(stdout: string): string {
  for (const line of stdout.split('\n')) {
    try {
      const o = JSON.parse(line) as { type?: string; thread_id?: string };
      if (o.type === 'thread.started' && typeof o.thread_id === 'string') return o.thread_id;
    } catch {
      // not an event line
    }
  }
  throw new Error(`codex exec printed no thread.started event:\n${stdout.slice(0, 2000)}`);
}

/** Run `codex exec ARGS…`; fail unless it exits 0. Returns the thread id. */
async function codexExec(dirs: CodexScenarioDirs, args: string[], what: string): Promise<string> {
  const r = await runCodex({ args: ['exec', ...EXEC_FLAGS, ...args], home: dirs.home, cwd: dirs.cwd, timeoutMs: 180_000 });
  if (r.timedOut || r.code !== 0) throw new Error(`${what}: codex exited ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`);
  return threadId(r.stdout);
}

const PATCH_ADD = '*** Begin Patch\n*** Add File: notes.txt\n+first line\n+second line\n*** End Patch';
const PATCH_UPDATE = '*** Begin Patch\n*** Update File: notes.txt\n@@\n first line\n-second line\n+second line, edited\n*** End Patch';
const PATCH_FAIL = '*** Begin Patch\n*** Update File: missing.txt\n@@\n-no such line\n+never written\n*** End Patch';

/** The scenarios, in recording order. */
export const codexScenarios: CodexScenario[] = [
  {
    name: 'plain',
    shows: 'a prompt answered with reasoning (summary, encrypted content) and text, then continued with `codex exec resume`',
    expects: ['type:session_meta', 'item:message', 'item:reasoning', 'type:turn_context', 'event:token_count'],
    script: {
      main: [
        { output: [think('**Greeting** The user greets me; I answer briefly.', 'ZW5jcnlwdGVkLXBsYWluLTE='), say('Hello! I am a mock assistant.')] },
        { output: [say('You asked who I am; I said I am a mock assistant.')] },
      ],
    },
    run: async (dirs) => {
      const id = await codexExec(dirs, ['Hello, who are you?'], 'plain first prompt');
      await codexExec(dirs, ['resume', id, 'What did I ask you before?'], 'plain resume');
    },
  },
  {
    name: 'exec',
    shows: 'exec_command that succeeds and one that fails (exit code 2), each a function_call and its function_call_output',
    expects: ['item:function_call', 'item:function_call_output'],
    script: {
      main: [
        { output: [say('I will run a command.'), exec('call_exec_ok', 'echo hello from exec')] },
        { output: [exec('call_exec_fail', 'ls /nonexistent-dir-for-fixture')] },
        { output: [say('The first command printed a greeting; the second failed.')] },
      ],
    },
    run: async (dirs) => {
      await codexExec(dirs, ['Run two commands please.'], 'exec');
    },
  },
  {
    name: 'parallel',
    shows: 'two exec_command calls in one response, answered by two outputs',
    expects: ['item:function_call', 'item:function_call_output'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'notes.txt'), 'one\ntwo\n'),
    script: {
      main: [
        { output: [think('**Two at once** Both commands are independent.', 'ZW5jcnlwdGVkLXBhcmFsbGVs'), exec('call_par_1', 'cat notes.txt'), exec('call_par_2', 'wc -l notes.txt')] },
        { output: [say('The file has two lines.')] },
      ],
    },
    run: async (dirs) => {
      await codexExec(dirs, ['Show notes.txt and count its lines.'], 'parallel');
    },
  },
  {
    name: 'apply-patch',
    shows: 'apply_patch (a freeform custom tool) adding a file, updating it, and failing on a missing file',
    expects: ['item:custom_tool_call', 'item:custom_tool_call_output'],
    script: {
      main: [
        { output: [patch('call_patch_add', PATCH_ADD)] },
        { output: [patch('call_patch_update', PATCH_UPDATE)] },
        { output: [patch('call_patch_fail', PATCH_FAIL)] },
        { output: [say('notes.txt was added and edited; missing.txt does not exist.')] },
      ],
    },
    run: async (dirs) => {
      await codexExec(dirs, ['Write notes.txt, edit it, then edit missing.txt.'], 'apply-patch');
    },
  },
  {
    name: 'view-image',
    shows: 'view_image of a small PNG: a function_call_output whose content holds an input_image',
    expects: ['item:function_call', 'output:input_image'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'red-square.png'), smallPng()),
    script: {
      main: [
        { output: [call('call_view_image', 'view_image', { path: 'red-square.png' })] },
        { output: [say('The image is a red square on a white background.')] },
      ],
    },
    run: async (dirs) => {
      await codexExec(dirs, ['What is in red-square.png?'], 'view-image');
    },
  },
  {
    name: 'web-search',
    shows: 'a web_search_call the model made (a server-side tool: no call id, no output item), then text',
    expects: ['item:web_search_call'],
    script: {
      main: [{ output: [{ type: 'web_search_call', action: { type: 'search', query: 'txcript mock search' } }, say('The search found nothing of note.')] }],
    },
    run: async (dirs) => {
      await codexExec(dirs, ['Search the web for txcript.'], 'web-search');
    },
  },
  {
    name: 'unknown-tool',
    shows: 'a function_call to a tool the CLI does not have; the CLI answers it with an error output',
    expects: ['item:function_call', 'item:function_call_output'],
    script: {
      main: [{ output: [call('call_unknown_tool', 'no_such_tool', { x: 1 })] }, { output: [say('That tool does not exist.')] }],
    },
    run: async (dirs) => {
      await codexExec(dirs, ['Use a tool that does not exist.'], 'unknown-tool');
    },
  },
  {
    name: 'malformed-arguments',
    shows: 'an exec_command whose arguments are not JSON; the CLI answers with a parse error output',
    expects: ['item:function_call', 'item:function_call_output'],
    script: {
      main: [{ output: [call('call_bad_args', 'exec_command', '{"cmd": "echo hi", oops')] }, { output: [say('My arguments were broken.')] }],
    },
    run: async (dirs) => {
      await codexExec(dirs, ['Run something with broken arguments.'], 'malformed-arguments');
    },
  },
  {
    name: 'compaction',
    shows: 'an automatic compaction (a low model_auto_compact_token_limit): a `compacted` line with replacement_history, then the turn goes on',
    expects: ['type:compacted'],
    config: 'model_auto_compact_token_limit = 2000\n',
    script: {
      main: [
        { output: [say('First answer, before any compaction.')] },
        { output: [exec('call_compact_exec', 'echo after compaction')] },
        { output: [say('Second answer, after the compaction.')] },
      ],
      compact: [{ output: [say('Summary: the user asked for two answers; the first was given.')] }],
    },
    run: async (dirs) => {
      const id = await codexExec(dirs, ['Give a first answer.'], 'compaction first prompt');
      await codexExec(dirs, ['resume', id, 'Now run a command and answer again.'], 'compaction second prompt');
    },
  },
  {
    name: 'local-shell',
    shows: 'a local_shell_call the model made; the CLI does not run one, so the call stays without output (a dangling call, no hand edit needed)',
    expects: ['item:local_shell_call'],
    script: {
      main: [{ output: [{ type: 'local_shell_call', call_id: 'call_local_shell', command: ['echo', 'from local shell'] }] }, { output: [say('The local shell call ran.')] }],
    },
    run: async (dirs) => {
      await codexExec(dirs, ['Use the local shell.'], 'local-shell');
    },
  },
];

/** Census tokens of a folder of rollouts: `type:T` (line types), `item:T` (response_item payloads), `event:T` (event_msg payloads), `output:T` (content items of tool outputs). */
export function codexCensus(dir: string): Set<string> {
  const tokens = new Set<string>();
  for (const f of jsonlFiles(dir)) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (!line) continue;
      let o: { type?: unknown; payload?: any };
      try {
        o = JSON.parse(line);
      } catch {
        tokens.add('type:(invalid)');
        continue;
      }
      tokens.add(`type:${String(o.type)}`);
      const p = o.payload;
      if (o.type === 'response_item' && p) {
        tokens.add(`item:${String(p.type)}`);
        if (Array.isArray(p.output)) for (const c of p.output) tokens.add(`output:${String(c?.type)}`);
      }
      if (o.type === 'event_msg' && p) tokens.add(`event:${String(p.type)}`);
    }
  }
  return tokens;
}

/** The expectations of a scenario its recorded folder does not meet. */
export function missingCodexExpectations(sc: CodexScenario, dir: string): string[] {
  const have = codexCensus(dir);
  return sc.expects.filter((e) => !have.has(e));
}

/** Record one scenario into `outRoot/<name>/sessions/`. */
export async function recordCodexScenario(sc: CodexScenario, outRoot: string): Promise<void> {
  const root = path.join(REC_ROOT, sc.name);
  rmSync(root, { recursive: true, force: true });
  const dirs: CodexScenarioDirs = { root, home: path.join(root, 'home'), codexHome: path.join(root, 'home', '.codex'), cwd: path.join(root, 'work') };
  mkdirSync(dirs.cwd, { recursive: true });
  const mock = await startMockResponses(sc.script);
  writeCodexConfig(dirs.codexHome, mock.url, { extra: sc.config });
  sc.setup?.(dirs);
  try {
    await sc.run(dirs, mock);
  } finally {
    await mock.close();
    writeFileSync(path.join(root, 'requests.json'), JSON.stringify(mock.requests));
  }
  const sessions = path.join(dirs.codexHome, 'sessions');
  if (!existsSync(sessions)) throw new Error(`${sc.name}: the CLI wrote no sessions/ folder`);
  const dest = path.join(outRoot, sc.name);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  cpSync(sessions, path.join(dest, 'sessions'), { recursive: true });
  const missing = missingCodexExpectations(sc, dest);
  if (missing.length) throw new Error(`recorded, but the rollouts do not show ${missing.join(', ')}`);
}

function readme(outRoot: string): string {
  const rows = codexScenarios.map((sc) => {
    const have = existsSync(path.join(outRoot, sc.name)) ? [...codexCensus(path.join(outRoot, sc.name))].sort() : [];
    const items = have.filter((t) => t.startsWith('item:')).map((t) => '`' + t.slice(5) + '`').join(', ');
    return `| ${sc.name} | ${sc.shows.replace(/\|/g, '\\|')} | ${items || '—'} |`;
  });
  return [
    '# Recorded Codex rollouts',
    '',
    `Rollouts written by the real Codex CLI ${CODEX_VERSION} (see CLI_VERSION), driven offline with`,
    '`codex exec` against the scripted mock Responses API in test/harness/codex/mock-responses.ts.',
    'Re-record all with `npm run record:codex` (or `npm run build && node build/test/harness/codex/record.js NAME…`).',
    'Each scenario ran in `/tmp/txcript-rec-codex/<scenario>/` (HOME `home/`, CODEX_HOME `home/.codex`,',
    'cwd `work/`), so paths in the files are stable; thread ids and timestamps change on every',
    "recording. Each folder mirrors CODEX_HOME's `sessions/YYYY/MM/DD/rollout-<ts>-<id>.jsonl`.",
    'Nothing was scrubbed or edited by hand.',
    '',
    '| scenario | shows | response items |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

runIfMain(import.meta.url, {
  tag: 'record:codex',
  outRoot: path.join(repoRoot(), 'fixtures', 'recorded-codex'),
  scenarios: codexScenarios,
  version: CODEX_VERSION,
  install: codexBinary,
  record: recordCodexScenario,
  readme,
});
