/**
 * The scenarios fixtures/recorded-pi/ is recorded from (test/harness/pi/record.ts runs
 * them): each a mock script and what to do with the pi client, in print mode (`pi -p`) or
 * in RPC mode (`pi --mode rpc`) for what only a running session does (an abort, a
 * compaction, a person's shell command, an extension's commands).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { smallPng } from '../record.js';
import { jsonlFiles } from '../fixtures.js';
import type { MockApi, MockScript, ScriptBlock, ScriptTurn } from '../mock-api.js';
import { MODEL_FLAGS, runPi, sessionsDir, type PiConfigOptions } from './cli.js';
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
    name: 'auto-compaction',
    shows: 'an automatic compaction in print mode (a small context window in models.json and `compaction.reserveTokens` in settings.json): the compaction is the last line, so the leaf',
    expects: ['type:compaction', 'compactions:1', 'last:compaction'],
    config: { contextWindow: 20000, settings: { compaction: { reserveTokens: 19900, keepRecentTokens: 10 } } },
    script: {
      main: [turn(text('A first answer, long enough to fill the small window. '.repeat(8))), turn(text('Second answer; the window is now over its threshold.'))],
      compact: [turn(text('## Goal\nThe user asked twice; both were answered.')), turn(text('## Turn\nThe second question was asked.'))],
    },
    run: async (dirs) => {
      await print(dirs, ['-p', 'Give a first answer.'], 'auto-compaction first prompt');
      await print(dirs, ['--continue', '-p', 'Give a second answer.'], 'auto-compaction second prompt');
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
