/**
 * Records fixtures/recorded-gemini/: runs each scenario with the pinned Gemini CLI
 * against the mock Gemini API, in a fixed scratch folder
 * /tmp/txcript-rec-gemini/<scenario> (HOME `home/`, cwd `work/`, outside any git
 * repository), then copies the chat files it wrote
 * (`$HOME/.gemini/tmp/<project>/chats/`) into fixtures/recorded-gemini/<scenario>/chats/.
 *
 *   node build/test/harness/gemini/record.js [--out DIR] [SCENARIO…]     (npm run record:gemini)
 *   node build/test/harness/gemini/record.js --readme
 */
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { smallPng } from '../record.js';
import { repoRoot } from '../pinned.js';
import { GEMINI_VERSION, geminiBundle, runGemini, startGemini, writeGeminiSettings } from './cli.js';
import { geminiCensus } from './census.js';
import { runGeminiUi } from './interactive.js';
import { startMockGemini, type GeminiScript, type MockGeminiApi, type ScriptPart } from './mock-gemini.js';
import { runIfMain } from '../record-main.js';

/** Where one scenario runs: fixed paths, wiped before each recording. */
export interface GeminiScenarioDirs {
  root: string;
  home: string;
  cwd: string;
}

/** One recorded scenario. */
export interface GeminiScenario {
  name: string;
  /** What the fixture shows, for the README. */
  shows: string;
  /** Census tokens (census.ts) the recorded chat files must show. */
  expects: string[];
  /** More settings.json keys. */
  settings?: Record<string, unknown>;
  setup?: (dirs: GeminiScenarioDirs) => void;
  script: GeminiScript;
  run: (dirs: GeminiScenarioDirs, mock: MockGeminiApi) => Promise<void>;
}

const REC_ROOT = '/tmp/txcript-rec-gemini';

const say = (text: string): ScriptPart => ({ text });
const think = (text: string): ScriptPart => ({ text, thought: true });
const call = (name: string, args: Record<string, unknown>): ScriptPart => ({ functionCall: { name, args } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Milliseconds until one second into the next minute (the CLI names a chat file by its minute). */
const nextMinute = () => 61_000 - (Date.now() % 60_000);

/** Run `gemini ARGS…` non-interactively; fail unless it exits 0. */
async function gemini(dirs: GeminiScenarioDirs, mock: MockGeminiApi, args: string[], what: string): Promise<void> {
  const r = await runGemini({ args, home: dirs.home, cwd: dirs.cwd, baseUrl: mock.url, timeoutMs: 180_000 });
  if (r.timedOut || r.code !== 0) throw new Error(`${what}: gemini exited ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`);
}

/** Start `gemini ARGS…`, and once the mock has seen `mainRequests` main requests and `waitMs` more passed, send SIGINT to it (Ctrl-C). */
async function interrupted(dirs: GeminiScenarioDirs, mock: MockGeminiApi, args: string[], mainRequests: number, waitMs: number): Promise<void> {
  const p = startGemini({ args, home: dirs.home, cwd: dirs.cwd, baseUrl: mock.url, timeoutMs: 120_000 });
  const deadline = Date.now() + 60_000;
  while (mock.routeRequests('main').length < mainRequests) {
    if (Date.now() > deadline) {
      p.signal('SIGKILL');
      throw new Error('the CLI never sent its request');
    }
    await sleep(100);
  }
  await sleep(waitMs);
  p.signal('SIGINT');
  const r = await p.done;
  if (r.timedOut) throw new Error(`the CLI did not stop on SIGINT:\n${r.stderr.slice(0, 2000)}`);
}

const PLAIN_SCRIPT: GeminiScript = {
  main: [
    { parts: [think('**Greeting** The user greets me; I answer briefly.'), say('Hello! I am a mock model.')], usage: { cachedContentTokenCount: 40, thoughtsTokenCount: 9 } },
    { parts: [say('You asked who I am; I said I am a mock model.')], usage: { cachedContentTokenCount: 120 } },
  ],
};

/** The scenarios, in recording order. */
export const geminiScenarios: GeminiScenario[] = [
  {
    name: 'plain',
    shows: 'a prompt answered with a thought and text; tokens with cached and thought counts',
    expects: ['line:meta', 'line:$set.messages', 'msg:user', 'msg:gemini', 'thoughts'],
    script: { main: PLAIN_SCRIPT.main!.slice(0, 1) },
    run: async (dirs, mock) => gemini(dirs, mock, ['-p', 'Hello, who are you?'], 'plain'),
  },
  {
    name: 'resume',
    shows: 'a second prompt with `--resume latest` a minute later: the resumed file gets a `$set` of its session id and a checkpoint of the rebuilt messages; the new minute leaves a second file of the same session holding only the session context',
    expects: ['line:$set.sessionId', 'line:$set.messages', 'part:thought', 'files:2'],
    script: PLAIN_SCRIPT,
    run: async (dirs, mock) => {
      await gemini(dirs, mock, ['-p', 'Hello, who are you?'], 'resume first prompt');
      await sleep(nextMinute());
      await gemini(dirs, mock, ['--resume', 'latest', '-p', 'What did I ask you before?'], 'resume second prompt');
    },
  },
  {
    name: 'resume-same-minute',
    shows: 'a resume within the minute of the first run: both runs write the same file, so it holds two metadata lines, and the rebuilt checkpoint has lost the thoughts and tokens of the earlier messages',
    expects: ['line:meta*2', 'line:$set.sessionId', 'files:1'],
    script: PLAIN_SCRIPT,
    run: async (dirs, mock) => {
      if (Date.now() % 60_000 > 40_000) await sleep(nextMinute());
      await gemini(dirs, mock, ['-p', 'Hello, who are you?'], 'first prompt');
      await gemini(dirs, mock, ['--resume', 'latest', '-p', 'What did I ask you before?'], 'resume in the same minute');
    },
  },
  {
    name: 'tools',
    shows: 'read_file that succeeds and one that fails (a missing file); run_shell_command that succeeds and one that fails (exit code 2), under `--approval-mode yolo`; each call in `toolCalls` with its result, and again as a user message of functionResponse parts',
    expects: ['status:success', 'status:error', 'result:functionResponse', 'part:functionResponse', 'tool:read_file', 'tool:run_shell_command'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'notes.txt'), 'one\ntwo\n'),
    script: {
      main: [
        { parts: [say('I will read the file.'), call('read_file', { file_path: 'notes.txt' })] },
        { parts: [call('read_file', { file_path: 'missing.txt' })] },
        { parts: [call('run_shell_command', { command: 'echo hello from shell', description: 'Print a greeting.' })] },
        { parts: [call('run_shell_command', { command: 'ls /nonexistent-dir-for-fixture' })] },
        { parts: [say('One read worked and one failed; one command worked and one failed.')] },
      ],
    },
    run: async (dirs, mock) => gemini(dirs, mock, ['--approval-mode', 'yolo', '-p', 'Read notes.txt and missing.txt, then run two commands.'], 'tools'),
  },
  {
    name: 'parallel',
    shows: 'a thought and two function calls in one response (read_file, list_directory), answered together',
    expects: ['tool:read_file', 'tool:list_directory', 'calls:2'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'notes.txt'), 'one\ntwo\n'),
    script: {
      main: [
        { parts: [think('**Two at once** Both reads are independent.'), call('read_file', { file_path: 'notes.txt' }), call('list_directory', { dir_path: '.' })] },
        { parts: [say('notes.txt has two lines, and it is the only text file here.')] },
      ],
    },
    run: async (dirs, mock) => gemini(dirs, mock, ['-p', 'Show notes.txt and list the folder.'], 'parallel'),
  },
  {
    name: 'image-read',
    shows: 'read_file of a small PNG: the call result is a functionResponse followed by an inlineData part',
    expects: ['result:inlineData', 'part:inlineData'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'red-square.png'), smallPng()),
    script: { main: [{ parts: [call('read_file', { file_path: 'red-square.png' })] }, { parts: [say('The image is a red square on a white background.')] }] },
    run: async (dirs, mock) => gemini(dirs, mock, ['-p', 'What is in red-square.png?'], 'image-read'),
  },
  {
    name: 'image-prompt',
    shows: 'a prompt naming `@red-square.png`: the user message carries the image inline (with the file markers), and `displayContent` what was typed',
    expects: ['part:inlineData', 'displayContent'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'red-square.png'), smallPng()),
    script: { main: [{ parts: [say('The image is a red square on a white background.')] }] },
    run: async (dirs, mock) => gemini(dirs, mock, ['-p', 'Describe @red-square.png please'], 'image-prompt'),
  },
  {
    name: 'compression',
    shows: 'an automatic chat compression: the first answer reports 900,000 prompt tokens, so the next turn compresses (two `<state_snapshot>` requests) and a checkpoint replaces the history with the snapshot, "Got it", and the kept turns under new ids',
    expects: ['snapshot', 'line:$set.messages'],
    setup: (dirs) => writeFileSync(path.join(dirs.cwd, 'notes.txt'), 'one\ntwo\n'),
    script: {
      main: [
        { parts: [say('First answer, before any compression.')] },
        { parts: [call('read_file', { file_path: 'notes.txt' })], usage: { promptTokenCount: 900_000 } },
        { parts: [say('Second answer, after the compression.')] },
      ],
      compress: [
        { parts: [say('<state_snapshot>\n<overall_goal>Give two answers.</overall_goal>\n</state_snapshot>')] },
        { parts: [say('<state_snapshot>\n<overall_goal>Give two answers; the first was given.</overall_goal>\n</state_snapshot>')] },
      ],
    },
    run: async (dirs, mock) => {
      await gemini(dirs, mock, ['-p', 'Give a first answer.'], 'compression first prompt');
      await sleep(nextMinute());
      await gemini(dirs, mock, ['--resume', 'latest', '-p', 'Now read notes.txt and answer again.'], 'compression second prompt');
      if (mock.routeRequests('compress').length === 0) throw new Error('the CLI did not compress');
    },
  },
  {
    name: 'aborted-stream',
    shows: 'Ctrl-C (SIGINT) while the answer streams: the prompt is recorded, no answer is',
    expects: ['msg:user'],
    script: { main: [{ parts: [say('I am starting a long answer'), say(' that goes on'), say(' and never ends.')], delayMs: 3000 }] },
    run: async (dirs, mock) => interrupted(dirs, mock, ['-p', 'Tell me a long story.'], 1, 4500),
  },
  {
    name: 'aborted-tool',
    shows: 'Ctrl-C (SIGINT) while a shell command runs: the answer text is recorded, the call in flight is not',
    expects: ['msg:gemini'],
    script: { main: [{ parts: [say('I will wait.'), call('run_shell_command', { command: 'sleep 30' })] }] },
    run: async (dirs, mock) => interrupted(dirs, mock, ['--approval-mode', 'yolo', '-p', 'Wait for half a minute.'], 1, 2500),
  },
  {
    name: 'cancelled-tool',
    shows: 'the interactive UI: Esc while a shell command runs writes an `info` message "Request cancelled." and a new gemini message holding the `cancelled` call with its error result; a second prompt follows',
    expects: ['msg:info', 'status:cancelled'],
    script: { main: [{ parts: [say('I will wait.'), call('run_shell_command', { command: 'sleep 30' })] }, { parts: [say('Second answer.')] }] },
    run: async (dirs, mock) => {
      await runGeminiUi({
        home: dirs.home,
        cwd: dirs.cwd,
        mock,
        args: ['--approval-mode', 'yolo'],
        steps: [{ text: 'Wait for half a minute.' }, { afterMainRequests: 1, screen: /Shell sleep 30/, waitMs: 1500, keys: ['Escape'] }, { screen: /Request cancelled/, waitMs: 500, text: 'Second prompt.' }, { afterMainRequests: 2 }],
      });
    },
  },
  {
    name: 'rewind',
    shows: 'the interactive UI: two prompts, then `/rewind` to the second: a `$rewindTo` line, then a checkpoint of what is left',
    expects: ['line:$rewindTo', 'line:$set.messages'],
    script: { main: [{ parts: [say('First answer.')] }, { parts: [say('Second answer.')] }] },
    run: async (dirs, mock) => {
      await runGeminiUi({
        home: dirs.home,
        cwd: dirs.cwd,
        mock,
        steps: [
          { text: 'First prompt.' },
          { afterMainRequests: 1, screen: /First answer/, text: 'Second prompt.' },
          { afterMainRequests: 2, screen: /Second answer/, waitMs: 500, text: '/rewind' },
          // The selector opens on "Stay at current position"; one up is the second prompt.
          { screen: /Stay at current position/, keys: ['Up', 'Enter'] },
          { screen: /Rewind conversation/, keys: ['Enter'] },
          { waitMs: 1500 },
        ],
      });
    },
  },
];

/** The chat folders the CLI wrote under a scratch HOME: `.gemini/tmp/<project>/chats`. */
function chatDirs(home: string): string[] {
  const tmp = path.join(home, '.gemini', 'tmp');
  if (!existsSync(tmp)) return [];
  return readdirSync(tmp)
    .map((p) => path.join(tmp, p, 'chats'))
    .filter((d) => existsSync(d));
}

/** The expectations of a scenario its recorded folder does not meet. */
export function missingGeminiExpectations(sc: GeminiScenario, dir: string): string[] {
  const have = geminiCensus(dir);
  return sc.expects.filter((e) => !have.has(e));
}

/** Record one scenario into `outRoot/<name>/chats/`. */
export async function recordGeminiScenario(sc: GeminiScenario, outRoot: string): Promise<void> {
  const root = path.join(REC_ROOT, sc.name);
  rmSync(root, { recursive: true, force: true });
  const dirs: GeminiScenarioDirs = { root, home: path.join(root, 'home'), cwd: path.join(root, 'work') };
  mkdirSync(dirs.cwd, { recursive: true });
  const mock = await startMockGemini(sc.script);
  writeGeminiSettings(dirs.home, sc.settings);
  sc.setup?.(dirs);
  try {
    await sc.run(dirs, mock);
  } finally {
    await mock.close();
    writeFileSync(path.join(root, 'requests.json'), JSON.stringify(mock.requests));
  }
  const chats = chatDirs(dirs.home);
  if (chats.length !== 1) throw new Error(`${sc.name}: expected one project's chats folder, found ${chats.length}`);
  const dest = path.join(outRoot, sc.name);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  cpSync(chats[0]!, path.join(dest, 'chats'), { recursive: true });
  const missing = missingGeminiExpectations(sc, dest);
  if (missing.length) throw new Error(`recorded, but the chat files do not show ${missing.join(', ')}`);
}

function readme(outRoot: string): string {
  const rows = geminiScenarios.map((sc) => {
    const have = existsSync(path.join(outRoot, sc.name)) ? [...geminiCensus(path.join(outRoot, sc.name))].sort() : [];
    // Every file has metadata and lastUpdated lines: the column names the rest.
    const lines = have
      .filter((t) => (t.startsWith('line:') || t.startsWith('msg:')) && t !== 'line:meta' && t !== 'line:$set.lastUpdated')
      .map((t) => '`' + t.replace(/^(line|msg):/, '') + '`')
      .join(', ');
    return `| ${sc.name} | ${sc.shows.replace(/\|/g, '\\|')} | ${lines || '—'} |`;
  });
  return [
    '# Recorded Gemini CLI chat files',
    '',
    `Chat files written by the real Gemini CLI ${GEMINI_VERSION} (see CLI_VERSION), driven offline with`,
    '`gemini -p` (and the interactive UI in tmux for `cancelled-tool` and `rewind`) against the',
    'scripted mock Gemini API in test/harness/gemini/mock-gemini.ts.',
    'Re-record all with `npm run record:gemini` (or `npm run build && node build/test/harness/gemini/record.js NAME…`).',
    'Each scenario ran in `/tmp/txcript-rec-gemini/<scenario>/` (HOME `home/`, cwd `work/`), so paths',
    'in the files are stable; session ids, timestamps and the date in the session context change on',
    "every recording. Each folder holds the project's `chats/` folder as the CLI left it",
    '(`~/.gemini/tmp/work/chats/session-<date>T<hh-mm>-<id8>.jsonl`), extra files of a resume included.',
    'Nothing was scrubbed or edited by hand.',
    '',
    '| scenario | shows | lines beyond metadata and `$set.lastUpdated` |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

runIfMain(import.meta.url, {
  tag: 'record:gemini',
  outRoot: path.join(repoRoot(), 'fixtures', 'recorded-gemini'),
  scenarios: geminiScenarios,
  version: GEMINI_VERSION,
  install: geminiBundle,
  record: recordGeminiScenario,
  readme,
});
