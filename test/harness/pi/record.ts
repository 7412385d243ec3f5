/**
 * Records fixtures/recorded-pi/: runs each scenario with the pinned pi client against
 * the mock Messages API, in a fixed scratch folder /tmp/txcript-rec-pi/<scenario>
 * (HOME `home/`, cwd `work/`), then copies the sessions it wrote
 * (`$HOME/.pi/agent/sessions/`) into fixtures/recorded-pi/<scenario>/sessions/.
 *
 *   node build/test/harness/pi/record.js [--out DIR] [SCENARIO…]     (npm run record:pi)
 *   node build/test/harness/pi/record.js --readme
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { smallPng } from '../record.js';
import { jsonlFiles } from '../fixtures.js';
import { repoRoot } from '../pinned.js';
import { startMockApi, type MockApi, type MockScript, type ScriptBlock, type ScriptTurn } from '../mock-api.js';
import { MODEL_FLAGS, PI_VERSION, classifyPiRequest, piEntry, runPi, sessionsDir, writePiConfig, type PiConfigOptions } from './cli.js';
import { startPiRpc, type PiRpc } from './rpc.js';

/** Where one scenario runs: fixed paths, wiped before each recording. */
export interface PiScenarioDirs {
  root: string;
  home: string;
  cwd: string;
}

/** One recorded scenario. */
export interface PiScenario {
  name: string;
  /** What the fixture shows, for the README. */
  shows: string;
  /** Census tokens (see `piCensus`) the recorded sessions must show. */
  expects: string[];
  config?: PiConfigOptions;
  setup?: (dirs: PiScenarioDirs) => void;
  script: MockScript;
  run: (dirs: PiScenarioDirs, mock: MockApi) => Promise<void>;
}

const REC_ROOT = '/tmp/txcript-rec-pi';

const text = (t: string): ScriptBlock => ({ type: 'text', text: t });
const think = (t: string, signature: string): ScriptBlock => ({ type: 'thinking', thinking: t, signature });
const tool = (id: string, name: string, input: Record<string, unknown>): ScriptBlock => ({ type: 'tool_use', id, name, input });
const turn = (...content: ScriptBlock[]): ScriptTurn => ({ content });

/** Run `pi -p` with the mock's model; fail unless it exits 0. */
async function print(dirs: PiScenarioDirs, args: string[], what: string): Promise<string> {
  const r = await runPi({ args: [...MODEL_FLAGS, ...args], home: dirs.home, cwd: dirs.cwd, timeoutMs: 120_000 });
  if (r.timedOut || r.code !== 0) throw new Error(`${what}: pi exited ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`);
  return r.stdout;
}

/** The one session file a scenario's HOME holds so far. */
function onlySession(dirs: PiScenarioDirs): string {
  const files = jsonlFiles(sessionsDir(dirs.home));
  if (files.length !== 1) throw new Error(`expected one session file, found ${files.length}`);
  return files[0]!;
}

/** Send a prompt in RPC mode and wait until the agent is done with it. */
async function prompt(rpc: PiRpc, message: string, extra: Record<string, unknown> = {}): Promise<void> {
  const since = rpc.seen();
  await rpc.command({ type: 'prompt', message, ...extra });
  await rpc.waitFor((e) => e.type === 'agent_end', `the end of the turn of "${message}"`, since);
}

/** Run `steps` against pi in RPC mode, then close it; fail unless it exits 0. */
async function withRpc(dirs: PiScenarioDirs, args: string[], steps: (rpc: PiRpc) => Promise<void>): Promise<void> {
  const rpc = startPiRpc({ args: [...MODEL_FLAGS, ...args], home: dirs.home, cwd: dirs.cwd, timeoutMs: 60_000 });
  try {
    await steps(rpc);
  } finally {
    const end = await rpc.close();
    if (end.code !== 0) throw new Error(`pi --mode rpc exited ${end.code}: ${end.stderr.slice(-2000)}`);
  }
}

// An extension of the recording (written into the scratch folder, loaded with -e): a
// command that leaves extension state and a message for the model, and one that goes
// back up the session tree to the last prompt with a summary of the branch left.
const EXTENSION = `export default function (pi) {
  pi.registerCommand('note', {
    description: 'Keep a note for the model',
    handler: async (args) => {
      pi.appendEntry('txcript-note', { said: args });
      pi.sendMessage({ customType: 'txcript-note', content: 'A note the extension added: ' + args, display: true }, { deliverAs: 'nextTurn' });
    },
  });
  pi.registerCommand('back', {
    description: 'Go back to the last prompt, summarizing the branch left',
    handler: async (_args, ctx) => {
      const prompts = ctx.sessionManager.getBranch().filter((e) => e.type === 'message' && e.message.role === 'user');
      await ctx.navigateTree(prompts[prompts.length - 1].id, { summarize: true, label: 'first-try' });
    },
  });
}
`;

/** The scenarios, in recording order. */
export const piScenarios: PiScenario[] = [
  {
    name: 'plain',
    shows: 'one prompt answered with thinking (its signature kept) and text',
    expects: ['type:session', 'type:model_change', 'type:thinking_level_change', 'role:user', 'role:assistant', 'block:thinking', 'block:text'],
    script: { main: [turn(think('The user greets me; I answer briefly.', 'c2lnbmF0dXJlLXBsYWlu'), text('Hello! I am a mock assistant.'))] },
    run: async (dirs) => {
      await print(dirs, ['-p', 'Hello, who are you?'], 'plain');
    },
  },
  {
    name: 'resume',
    shows: 'a prompt, a second one continuing the file with `--session FILE`, a third with `--continue`',
    expects: ['type:session', 'role:user', 'role:assistant'],
    script: { main: [turn(text('Hello! I am a mock assistant.')), turn(text('You asked who I am.')), turn(text('Third answer, after --continue.'))] },
    run: async (dirs) => {
      await print(dirs, ['-p', 'Hello, who are you?'], 'resume first prompt');
      await print(dirs, ['--session', onlySession(dirs), '-p', 'What did I ask you before?'], 'resume --session');
      await print(dirs, ['--continue', '-p', 'And once more, continued.'], 'resume --continue');
      onlySession(dirs);
    },
  },
  {
    name: 'tools',
    shows: 'bash that succeeds and one that fails (exit code 2), read of a file and of a missing one, write and edit',
    expects: ['role:toolResult', 'block:toolCall', 'tool:bash', 'tool:read', 'tool:write', 'tool:edit', 'error:toolResult'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'notes.txt'), 'one\ntwo\n'),
    script: {
      main: [
        turn(text('I will run a command.'), tool('toolu_bash_ok', 'bash', { command: 'echo hello from bash' })),
        turn(tool('toolu_bash_fail', 'bash', { command: 'ls /nonexistent-dir-for-fixture' })),
        turn(tool('toolu_read_ok', 'read', { path: 'notes.txt' })),
        turn(tool('toolu_read_missing', 'read', { path: 'missing.txt' })),
        turn(tool('toolu_write', 'write', { path: 'new.txt', content: 'first line\n' })),
        turn(tool('toolu_edit', 'edit', { path: 'new.txt', edits: [{ oldText: 'first line', newText: 'first line, edited' }] })),
        turn(text('The first command printed a greeting; the second failed. notes.txt has two lines; missing.txt does not exist; new.txt was written and edited.')),
      ],
    },
    run: async (dirs) => {
      await print(dirs, ['-p', 'Run two commands, read two files, then write and edit one.'], 'tools');
    },
  },
  {
    name: 'parallel',
    shows: 'two tool calls in one response (bash and read), answered by two tool results',
    expects: ['role:toolResult', 'parallel:2'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'notes.txt'), 'one\ntwo\n'),
    script: {
      main: [
        turn(think('Both are independent; I make both calls at once.', 'c2lnbmF0dXJlLXBhcmFsbGVs'), tool('toolu_par_1', 'bash', { command: 'wc -l notes.txt' }), tool('toolu_par_2', 'read', { path: 'notes.txt' })),
        turn(text('The file has two lines: one, two.')),
      ],
    },
    run: async (dirs) => {
      await print(dirs, ['-p', 'Count the lines of notes.txt and show it.'], 'parallel');
    },
  },
  {
    name: 'image',
    shows: 'a prompt with an image (`@red-square.png`), then a read of the image: a tool result holding an image block',
    expects: ['block:image', 'block:toolResult>image'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'red-square.png'), smallPng()),
    script: {
      main: [turn(tool('toolu_read_image', 'read', { path: 'red-square.png' })), turn(text('Both show a red square on a white background.'))],
    },
    run: async (dirs) => {
      await print(dirs, ['-p', '@red-square.png', 'What is in this image? Read the file too.'], 'image');
    },
  },
  {
    name: 'compaction',
    shows: 'two manual compactions (`compact` in RPC mode, as `/compact`), each keeping the latest messages (firstKeptEntryId), the turns going on after each',
    expects: ['type:compaction', 'compactions:2', 'role:toolResult'],
    config: { settings: { compaction: { keepRecentTokens: 10 } } },
    script: {
      main: [
        turn(text('First answer, before any compaction.')),
        turn(tool('toolu_compact_bash', 'bash', { command: 'echo before compaction' })),
        turn(text('The command printed its line.')),
        turn(text('Third answer, after the first compaction.')),
        turn(text('Fourth answer, after the second compaction.')),
      ],
      // A compaction that cuts inside a turn asks twice: for the history, then for the turn's start.
      compact: [
        turn(text('## Goal\nFirst compaction: one answer so far.')),
        turn(text('## Turn\nFirst compaction: a command was asked for and run.')),
        turn(text('## Goal\nSecond compaction: three answers so far.')),
        turn(text('## Turn\nSecond compaction: the third answer was asked for.')),
      ],
    },
    run: async (dirs) => {
      await withRpc(dirs, [], async (rpc) => {
        await prompt(rpc, 'Give a first answer.');
        await prompt(rpc, 'Run a command.');
        await rpc.command({ type: 'compact' });
        await prompt(rpc, 'Give a third answer.');
        await rpc.command({ type: 'compact' });
        await prompt(rpc, 'Give a fourth answer.');
      });
    },
  },
  {
    name: 'aborted',
    shows: 'a streamed answer aborted midway (`abort` in RPC mode, as Esc), a bash call aborted while it runs, then a turn that goes on',
    expects: ['stop:aborted', 'role:toolResult'],
    script: {
      main: [
        turn(text('First answer.')),
        { content: [text('A slow answer that is cut off before it ends. '.repeat(40))], delayMs: 100 },
        turn(tool('toolu_sleep', 'bash', { command: 'sleep 30' })),
        turn(text('Answer after the aborts.')),
      ],
    },
    run: async (dirs) => {
      await withRpc(dirs, [], async (rpc) => {
        await prompt(rpc, 'Give a first answer.');
        let since = rpc.seen();
        await rpc.command({ type: 'prompt', message: 'Give a long answer.' });
        await rpc.waitFor((e) => e.type === 'message_update' && e.assistantMessageEvent?.type === 'text_delta', 'streamed text', since);
        await rpc.command({ type: 'abort' });
        await rpc.waitFor((e) => e.type === 'agent_end', 'the end of the aborted turn', since);
        since = rpc.seen();
        await rpc.command({ type: 'prompt', message: 'Run a slow command.' });
        await rpc.waitFor((e) => e.type === 'tool_execution_start', 'the command starting', since);
        await rpc.command({ type: 'abort' });
        await rpc.waitFor((e) => e.type === 'agent_end', 'the end of the aborted command', since);
        await prompt(rpc, 'Go on.');
      });
    },
  },
  {
    name: 'session-commands',
    shows: 'what a person does besides prompting: a shell command (`!cmd`, a bashExecution message), naming the session, changing the thinking level and the model',
    expects: ['role:bashExecution', 'type:session_info', 'type:thinking_level_change', 'type:model_change', 'models:2'],
    config: { extraModels: ['claude-mock-2'] },
    script: { main: [turn(text('First answer.')), turn(text('Answer from the second model.'))] },
    run: async (dirs) => {
      await withRpc(dirs, [], async (rpc) => {
        await prompt(rpc, 'Give a first answer.');
        await rpc.command({ type: 'bash', command: 'echo hi from a shell command' });
        await rpc.command({ type: 'set_session_name', name: 'Named by a person' });
        await rpc.command({ type: 'set_thinking_level', level: 'high' });
        await rpc.command({ type: 'set_model', provider: 'mock', modelId: 'claude-mock-2' });
        await prompt(rpc, 'What did the command print?');
      });
    },
  },
  {
    name: 'branch',
    shows: 'an extension’s state (`custom`) and message for the model (`custom_message`), then a return up the tree (`branch_summary` and `label`): the file holds a branch the client no longer resumes',
    expects: ['type:custom', 'type:custom_message', 'type:branch_summary', 'type:label', 'branches:2'],
    setup: (dirs) => writeFileSync(path.join(dirs.root, 'extension.js'), EXTENSION),
    script: {
      main: [turn(text('First answer.')), turn(text('Second answer, on the branch to be left.')), turn(text('Answer on the new branch.'))],
      compact: [turn(text('The branch left asked a second question.'))],
    },
    run: async (dirs) => {
      await withRpc(dirs, ['-e', path.join(dirs.root, 'extension.js')], async (rpc) => {
        await prompt(rpc, 'First prompt.');
        await prompt(rpc, 'Second prompt.');
        await rpc.command({ type: 'prompt', message: '/back' });
        await rpc.command({ type: 'prompt', message: '/note remember the first answer' });
        await prompt(rpc, 'Second prompt, asked again.');
      });
    },
  },
];

/**
 * What a scenario's sessions show, as tokens: `type:T` (entry types), `role:R` (message
 * roles), `block:B` (content blocks, `block:toolResult>B` inside tool results), `tool:N`
 * (tool calls by name), `error:toolResult`, `stop:S` (assistant stop reasons),
 * `parallel:N` (most tool calls in one message), `compactions:N`, `models:N`
 * (distinct models answering), `branches:N` (entries with the most children).
 */
export function piCensus(dir: string): Set<string> {
  const tokens = new Set<string>();
  for (const file of jsonlFiles(dir)) {
    let compactions = 0;
    const models = new Set<string>();
    const children = new Map<string, number>();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as Record<string, any>;
      tokens.add(`type:${e.type}`);
      if (typeof e.parentId === 'string') children.set(e.parentId, (children.get(e.parentId) ?? 0) + 1);
      if (e.type === 'compaction') compactions++;
      const m = e.type === 'message' ? e.message : null;
      if (!m) continue;
      tokens.add(`role:${m.role}`);
      if (m.role === 'assistant') {
        models.add(`${m.provider}/${m.model}`);
        tokens.add(`stop:${m.stopReason}`);
      }
      if (m.role === 'toolResult' && m.isError) tokens.add('error:toolResult');
      const blocks = Array.isArray(m.content) ? m.content : [];
      let calls = 0;
      for (const b of blocks) {
        tokens.add(m.role === 'toolResult' ? `block:toolResult>${b.type}` : `block:${b.type}`);
        if (b.type === 'toolCall') {
          calls++;
          tokens.add(`tool:${b.name}`);
        }
      }
      if (calls > 0) tokens.add(`parallel:${calls}`);
    }
    if (compactions > 0) tokens.add(`compactions:${compactions}`);
    if (models.size > 0) tokens.add(`models:${models.size}`);
    tokens.add(`branches:${Math.max(1, ...children.values())}`);
  }
  return tokens;
}

/** The expected tokens a recorded scenario folder does not show. */
export function missingPiExpectations(sc: PiScenario, dir: string): string[] {
  const have = piCensus(dir);
  return sc.expects.filter((t) => !have.has(t));
}

/** Run one scenario and copy its sessions into `outRoot/<name>/sessions/`. */
export async function recordPiScenario(sc: PiScenario, outRoot: string): Promise<void> {
  const root = path.join(REC_ROOT, sc.name);
  rmSync(root, { recursive: true, force: true });
  const dirs: PiScenarioDirs = { root, home: path.join(root, 'home'), cwd: path.join(root, 'work') };
  mkdirSync(dirs.cwd, { recursive: true });
  const mock = await startMockApi({ ...sc.script, classify: classifyPiRequest });
  writePiConfig(dirs.home, mock.url, sc.config);
  sc.setup?.(dirs);
  try {
    await sc.run(dirs, mock);
  } finally {
    await mock.close();
    writeFileSync(path.join(root, 'requests.json'), JSON.stringify(mock.requests));
  }
  const sessions = sessionsDir(dirs.home);
  if (!existsSync(sessions)) throw new Error(`${sc.name}: the client wrote no sessions/ folder`);
  const dest = path.join(outRoot, sc.name);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  cpSync(sessions, path.join(dest, 'sessions'), { recursive: true });
  const missing = missingPiExpectations(sc, dest);
  if (missing.length) throw new Error(`recorded, but the sessions do not show ${missing.join(', ')}`);
}

function readme(outRoot: string): string {
  const rows = piScenarios.map((sc) => {
    const have = existsSync(path.join(outRoot, sc.name)) ? [...piCensus(path.join(outRoot, sc.name))].sort() : [];
    const types = have.filter((t) => t.startsWith('type:') || t.startsWith('role:')).map((t) => '`' + t + '`').join(', ');
    return `| ${sc.name} | ${sc.shows.replace(/\|/g, '\\|')} | ${types || '—'} |`;
  });
  return [
    '# Recorded pi sessions',
    '',
    `Sessions written by the real pi coding agent ${PI_VERSION} (\`@mariozechner/pi-coding-agent\`, see`,
    'CLI_VERSION), driven offline with `pi -p` and `pi --mode rpc` against the scripted mock',
    'Messages API in test/harness/mock-api.ts (a custom provider `mock` in models.json).',
    'Re-record all with `npm run record:pi` (or `npm run build && node build/test/harness/pi/record.js NAME…`).',
    'Each scenario ran in `/tmp/txcript-rec-pi/<scenario>/` (HOME `home/`, cwd `work/`), so paths',
    "in the files are stable; session ids, entry ids and timestamps change on every recording. Each",
    "folder mirrors pi's `~/.pi/agent/sessions/--<cwd>--/<timestamp>_<id>.jsonl`. Nothing was",
    'scrubbed or edited by hand. docs/harnesses/pi.md describes the format.',
    '',
    '| scenario | shows | entry types and message roles |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

async function main(args: string[]): Promise<number> {
  let outRoot = path.join(repoRoot(), 'fixtures', 'recorded-pi');
  let readmeOnly = false;
  const argv: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out' && args[i + 1]) outRoot = path.resolve(args[++i]!);
    else if (args[i] === '--readme') readmeOnly = true;
    else argv.push(args[i]!);
  }
  if (readmeOnly) {
    writeFileSync(path.join(outRoot, 'README.md'), readme(outRoot));
    return 0;
  }
  const wanted = argv.length ? argv : piScenarios.map((s) => s.name);
  const unknown = wanted.filter((w) => !piScenarios.some((s) => s.name === w));
  if (unknown.length) {
    process.stderr.write(`record:pi: unknown scenario ${unknown.join(', ')} (known: ${piScenarios.map((s) => s.name).join(', ')})\n`);
    return 2;
  }
  piEntry();
  mkdirSync(outRoot, { recursive: true });
  writeFileSync(path.join(outRoot, 'CLI_VERSION'), PI_VERSION + '\n');
  let failed = 0;
  for (const name of wanted) {
    const sc = piScenarios.find((s) => s.name === name)!;
    const t1 = Date.now();
    try {
      await recordPiScenario(sc, outRoot);
      process.stderr.write(`record:pi: ${name} ok in ${((Date.now() - t1) / 1000).toFixed(1)}s\n`);
    } catch (err) {
      failed++;
      process.stderr.write(`record:pi: ${name} FAILED: ${(err as Error).message}\n`);
    }
  }
  writeFileSync(path.join(outRoot, 'README.md'), readme(outRoot));
  return failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`record:pi: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
