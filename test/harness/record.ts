/**
 * Records fixtures/recorded/: runs each scenario with the pinned Claude Code CLI
 * against the mock API, in a fixed scratch folder /tmp/txcript-rec/<scenario>
 * (so paths in the files are stable), then copies the session tree it wrote
 * (the config dir's projects/) into fixtures/recorded/<scenario>/projects/.
 *
 *   node build/test/harness/record.js [--out DIR] [SCENARIO…]     (npm run record)
 *   node build/test/harness/record.js --readme     (only regenerate fixtures/recorded/README.md)
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { CLI_VERSION, claudeBinary, repoRoot, runClaude, type RunClaudeResult } from './claude-cli.js';
import { startMockApi, lastUserText, systemText, type MockApi, type MockScript } from './mock-api.js';
import { runInteractive } from './interactive.js';
import { census, censusTokens, jsonlFiles, listFiles } from './fixtures.js';

/** Where one scenario runs: fixed paths, wiped before each recording. */
export interface ScenarioDirs {
  root: string;
  home: string;
  config: string;
  cwd: string;
}

/** One recorded scenario. */
export interface Scenario {
  name: string;
  /** What the fixture shows, for the README. */
  shows: string;
  /** Census tokens (see `censusTokens`) the recorded files must show, checked after recording and by tests. */
  expects: string[];
  setup?: (dirs: ScenarioDirs) => void;
  script: MockScript;
  /** Runs, in order, against one mock. */
  run: (dirs: ScenarioDirs, mock: MockApi) => Promise<void>;
}

const REC_ROOT = '/tmp/txcript-rec';

const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** Fixed session ids, one per scenario, so re-recording keeps file names. */
export const SESSION_IDS = {
  plain: id(0xa1),
  tools: id(0xb1),
  image: id(0xc1),
  subagent: id(0xd1),
  skill: id(0xe1),
  hooks: id(0xf1),
  commands: id(0x101),
  bigresult: id(0x111),
  queued: id(0x121),
  subagentBackground: id(0xd2),
  apierror: id(0x131),
  interrupt: id(0x141),
  toolsearch: id(0x151),
} as const;

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function writeText(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A small valid PNG (16x16, a red square on white), made here so no binary is committed. */
export function smallPng(): Buffer {
  const w = 16;
  const h = 16;
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    raw[y * (w * 3 + 1)] = 0;
    for (let x = 0; x < w; x++) {
      const o = y * (w * 3 + 1) + 1 + x * 3;
      const red = x >= 4 && x < 12 && y >= 4 && y < 12;
      raw[o] = 255;
      raw[o + 1] = red ? 0 : 255;
      raw[o + 2] = red ? 0 : 255;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function allowTools(dirs: ScenarioDirs, extra: Record<string, unknown> = {}): void {
  writeJson(path.join(dirs.config, 'settings.json'), {
    permissions: { allow: ['Bash', 'Read', 'Write', 'Edit', 'Skill', 'Agent'] },
    ...extra,
  });
}

function check(r: RunClaudeResult, what: string): void {
  if (r.timedOut || r.code !== 0) {
    throw new Error(`${what}: claude exited ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`);
  }
}

async function claudeP(dirs: ScenarioDirs, mock: MockApi, args: string[], what: string): Promise<RunClaudeResult> {
  const r = await runClaude({ args, home: dirs.home, cwd: dirs.cwd, baseUrl: mock.url, timeoutMs: 180_000 });
  check(r, what);
  return r;
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const tool = (idn: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, id: idn, name, input });
const thinking = (t: string, sig: string) => ({ type: 'thinking' as const, thinking: t, signature: sig });

/** Whether the apierror scenario's mock refuses requests right now. */
const apiErrorState = { failing: false };

/** The scenarios, in recording order. */
export const scenarios: Scenario[] = [
  {
    name: 'plain',
    expects: ['type:user', 'type:assistant', 'block:thinking', 'block:text', 'type:mode'],
    shows: 'two prompts in -p mode (thinking with signature, text), then the session continued with --resume',
    script: {
      main: [
        { content: [thinking('The user greets me; I answer briefly.', 'c2lnLXBsYWluLTE='), text('Hello! I am a mock assistant.')] },
        { content: [text('You asked who I am; I said I am a mock assistant.')] },
      ],
    },
    run: async (dirs, mock) => {
      await claudeP(dirs, mock, ['-p', 'Hello, who are you?', '--session-id', SESSION_IDS.plain], 'plain first prompt');
      await claudeP(dirs, mock, ['-p', '--resume', SESSION_IDS.plain, 'What did I ask you before?'], 'plain resume');
    },
  },
  {
    name: 'tools',
    expects: ['block:tool_use', 'block:tool_result', 'type:tools-used'],
    shows: 'Bash that succeeds, Bash that fails, Write, Read, Edit (allowed in settings.json), two tool calls in one turn',
    setup: (dirs) => allowTools(dirs),
    script: {
      main: [
        { content: [text('I will run a command.'), tool('toolu_01BashOk000000000000001', 'Bash', { command: 'echo hello from bash', description: 'Print a greeting' })] },
        { content: [tool('toolu_01BashFail00000000000001', 'Bash', { command: 'ls /nonexistent-dir-for-fixture', description: 'List a missing folder' })] },
        { content: [tool('toolu_01Write000000000000000001', 'Write', { file_path: '__CWD__/notes.txt', content: 'first line\nsecond line\n' })] },
        { content: [tool('toolu_01Read0000000000000000001', 'Read', { file_path: '__CWD__/notes.txt' })] },
        { content: [tool('toolu_01Edit0000000000000000001', 'Edit', { file_path: '__CWD__/notes.txt', old_string: 'second line', new_string: 'second line, edited' })] },
        {
          content: [
            tool('toolu_01BashPar1000000000000001', 'Bash', { command: 'cat notes.txt', description: 'Show the file' }),
            tool('toolu_01BashPar2000000000000001', 'Bash', { command: 'wc -l notes.txt', description: 'Count lines' }),
          ],
        },
        { content: [text('Done: the file has two lines and the second was edited.')] },
      ],
    },
    run: async (dirs, mock) => {
      await claudeP(dirs, mock, ['-p', 'Exercise the tools please.', '--session-id', SESSION_IDS.tools], 'tools');
    },
  },
  {
    name: 'image',
    expects: ['block:tool_result>image'],
    shows: 'Read of a small PNG: a tool_result holding an image block',
    setup: (dirs) => {
      allowTools(dirs);
      writeFileSync(path.join(dirs.cwd, 'red-square.png'), smallPng());
    },
    script: {
      main: [
        { content: [tool('toolu_01ReadImage00000000000001', 'Read', { file_path: '__CWD__/red-square.png' })] },
        { content: [text('The image is a red square on a white background.')] },
      ],
    },
    run: async (dirs, mock) => {
      await claudeP(dirs, mock, ['-p', 'What is in red-square.png?', '--session-id', SESSION_IDS.image], 'image');
    },
  },
  {
    name: 'subagent',
    expects: ['file:subagents/', 'file:.meta.json'],
    shows: 'an Agent (general-purpose) subagent that runs Bash: subagents/agent-*.jsonl and .meta.json',
    setup: (dirs) => allowTools(dirs),
    script: {
      main: [
        {
          content: [
            tool('toolu_01Agent00000000000000000001', 'Agent', {
              description: 'Count files here',
              prompt: 'SUBAGENT TASK: count the files in the working directory with ls and report the number.',
              subagent_type: 'general-purpose',
              run_in_background: false,
            }),
          ],
        },
        { content: [text('The subagent reports the folder is empty.')] },
      ],
      subagent: [
        { content: [tool('toolu_01SubBash000000000000001', 'Bash', { command: 'ls | wc -l', description: 'Count files' })] },
        { content: [text('There are 0 files in the working directory.')] },
      ],
    },
    run: async (dirs, mock) => {
      await claudeP(dirs, mock, ['-p', 'Use a subagent to count the files here.', '--session-id', SESSION_IDS.subagent], 'subagent');
    },
  },
  {
    name: 'subagent-background',
    expects: ['file:subagents/', 'file:.meta.json', 'type:user'],
    shows: 'an Agent subagent left in the background (the 2.1.328 default): async_launched, then a task-notification turn',
    setup: (dirs) => allowTools(dirs),
    script: {
      main: [
        {
          content: [
            tool('toolu_01AgentBg000000000000000001', 'Agent', {
              description: 'Count lines in background',
              prompt: 'BACKGROUND SUBAGENT TASK: print the date with Bash and report it.',
              subagent_type: 'general-purpose',
            }),
          ],
        },
        { content: [text('The subagent is running in the background.')] },
        { content: [text('The background subagent finished and reported the date.')] },
      ],
      subagent: [
        { content: [tool('toolu_01SubBgBash0000000000001', 'Bash', { command: 'sleep 1; echo 2026-01-01', description: 'Print a date' })] },
        { content: [text('The date is 2026-01-01.')] },
      ],
    },
    run: async (dirs, mock) => {
      await claudeP(dirs, mock, ['-p', 'Start a background subagent to print the date.', '--session-id', SESSION_IDS.subagentBackground], 'subagent-background');
    },
  },
  {
    name: 'apierror',
    expects: ['model:<synthetic>'],
    shows: 'the API refusing a prompt (HTTP 401 on every try): what the CLI writes for a failed request, then a good prompt on --resume',
    script: {
      fallback: (route) =>
        apiErrorState.failing
          ? { content: [], error: { status: 401, type: 'authentication_error', message: 'mock: invalid x-api-key (on purpose)' } }
          : { content: [text(route === 'main' ? 'This time the request went through.' : 'OK.')] },
    },
    run: async (dirs, mock) => {
      apiErrorState.failing = true;
      const r = await runClaude({ args: ['-p', 'This prompt meets an API error.', '--session-id', SESSION_IDS.apierror], home: dirs.home, cwd: dirs.cwd, baseUrl: mock.url, timeoutMs: 180_000 });
      apiErrorState.failing = false;
      if (r.timedOut) throw new Error('apierror: the CLI timed out');
      await claudeP(dirs, mock, ['-p', '--resume', SESSION_IDS.apierror, 'Try again please.'], 'apierror resume');
    },
  },
  {
    name: 'skill',
    expects: ['attachment:command_permissions'],
    shows: 'a project skill (.claude/skills/haiku/SKILL.md) invoked through the Skill tool',
    setup: (dirs) => {
      allowTools(dirs);
      writeText(
        path.join(dirs.cwd, '.claude', 'skills', 'haiku', 'SKILL.md'),
        '---\nname: haiku\ndescription: Write a haiku about the topic the user names.\n---\n\nWrite a haiku (5-7-5 syllables) about the topic given in the arguments.\n',
      );
    },
    script: {
      main: [
        { content: [tool('toolu_01Skill00000000000000000001', 'Skill', { skill: 'haiku', args: 'the sea' })] },
        { content: [text('Waves fold into foam\nsalt wind carries gull voices\nthe tide keeps its time')] },
      ],
    },
    run: async (dirs, mock) => {
      await claudeP(dirs, mock, ['-p', 'Write a haiku about the sea with your skill.', '--session-id', SESSION_IDS.skill], 'skill');
    },
  },
  {
    name: 'hooks',
    expects: ['attachment:hook_success', 'attachment:hook_non_blocking_error', 'attachment:hook_system_message', 'attachment:hook_additional_context', 'subtype:stop_hook_summary'],
    shows: 'hooks that succeed (UserPromptSubmit context, PostToolUse systemMessage, Stop), one that fails, one PreToolUse that blocks a Bash call',
    setup: (dirs) =>
      allowTools(dirs, {
        hooks: {
          SessionStart: [{ hooks: [{ type: 'command', command: 'echo session start hook ran' }] }],
          UserPromptSubmit: [
            { hooks: [{ type: 'command', command: 'echo "Plain stdout from the prompt hook."' }] },
            {
              hooks: [
                {
                  type: 'command',
                  command: `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Context from the prompt hook: the fixture is recorded offline."}}'`,
                },
              ],
            },
          ],
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: 'if grep -q forbidden-marker; then echo "blocked by the pre-tool hook" >&2; exit 2; fi; exit 0' }],
            },
          ],
          PostToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo \'{"systemMessage":"post-tool hook saw a Bash call"}\'' }] },
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "this hook fails on purpose" >&2; exit 1' }] },
          ],
          Stop: [{ hooks: [{ type: 'command', command: 'echo stop hook ran' }] }],
        },
      }),
    script: {
      main: [
        { content: [tool('toolu_01HookBash0000000000000001', 'Bash', { command: 'echo allowed command', description: 'Print a line' })] },
        { content: [tool('toolu_01HookBlock000000000000001', 'Bash', { command: 'echo forbidden-marker', description: 'A command the hook blocks' })] },
        { content: [text('The first command ran; the hook blocked the second.')] },
      ],
    },
    run: async (dirs, mock) => {
      await claudeP(dirs, mock, ['-p', 'Run two commands.', '--session-id', SESSION_IDS.hooks], 'hooks');
    },
  },
  {
    name: 'commands',
    expects: ['subtype:compact_boundary'],
    shows: 'a custom slash command (.claude/commands/greet.md) with arguments, then /compact on --resume',
    setup: (dirs) => {
      allowTools(dirs);
      writeText(path.join(dirs.cwd, '.claude', 'commands', 'greet.md'), '---\ndescription: Greet someone by name\n---\n\nGreet $ARGUMENTS warmly in one sentence.\n');
    },
    script: {
      main: [
        { content: [text('Hello Ada, it is wonderful to meet you!')] },
        { content: [text('Ada was greeted.')] },
      ],
      compact: [{ content: [text('<summary>\n1. Primary Request: the user ran /greet Ada; the assistant greeted Ada warmly.\n</summary>')] }],
    },
    run: async (dirs, mock) => {
      await claudeP(dirs, mock, ['-p', '/greet Ada', '--session-id', SESSION_IDS.commands], 'slash command');
      await claudeP(dirs, mock, ['-p', '--resume', SESSION_IDS.commands, 'Who did you greet?'], 'second prompt');
      await claudeP(dirs, mock, ['-p', '--resume', SESSION_IDS.commands, '/compact'], '/compact');
    },
  },
  {
    name: 'bigresult',
    expects: ['file:tool-results/'],
    shows: 'a Bash tool result of about 3 MB: stored as a `<persisted-output>` preview plus `tool-results/<id>.txt`',
    setup: (dirs) => allowTools(dirs),
    script: {
      main: [
        {
          content: [
            tool('toolu_01BigBash00000000000000001', 'Bash', {
              command: "awk 'BEGIN { for (i = 1; i <= 60000; i++) printf \"line %06d of a large tool result for the fixture\\n\", i }'",
              description: 'Print about 3 MB',
            }),
          ],
        },
        { content: [text('That printed 60000 lines.')] },
      ],
    },
    run: async (dirs, mock) => {
      await claudeP(dirs, mock, ['-p', 'Print a lot of output.', '--session-id', SESSION_IDS.bigresult], 'bigresult');
    },
  },
  {
    name: 'toolsearch',
    expects: ['block:tool_result>tool_reference'],
    shows: 'ToolSearch loading a deferred tool (WebFetch): a tool_result holding a tool_reference block',
    script: {
      main: [
        { content: [text('I will load the fetch tool.'), tool('toolu_01ToolSearch0000000000001', 'ToolSearch', { query: 'select:WebFetch', max_results: 1 })] },
        { content: [text('WebFetch is loaded now.')] },
      ],
    },
    run: async (dirs, mock) => {
      await claudeP(dirs, mock, ['-p', 'Load the web fetch tool.', '--session-id', SESSION_IDS.toolsearch], 'toolsearch');
    },
  },
  {
    name: 'queued',
    expects: ['attachment:queued_command', 'type:queue-operation', 'subtype:turn_duration'],
    shows:
      'the interactive UI (tmux): a prompt typed while a slow reply streams is queued, then sent as its own turn; another typed while a Bash tool runs',
    setup: (dirs) => allowTools(dirs),
    script: {
      main: [
        { content: [text('This is a slow answer to the first prompt, streamed piece by piece so that a second prompt can be typed meanwhile.')], delayMs: 600 },
        { content: [text('I will wait a little.'), tool('toolu_01QueueSleep00000000000001', 'Bash', { command: 'sleep 4; echo slept', description: 'Wait four seconds' })] },
        { content: [text('Answer after the tool, seeing the prompt queued while it ran.')] },
      ],
    },
    run: async (dirs, mock) => {
      await runInteractive({
        home: dirs.home,
        cwd: dirs.cwd,
        baseUrl: mock.url,
        sessionId: SESSION_IDS.queued,
        prompts: [
          { text: 'First prompt, answered slowly' },
          { text: 'Second prompt, typed while the first streams', afterMainRequests: 1, waitMs: 800 },
          { text: 'Third prompt, typed while a tool runs', afterMainRequests: 2, waitMs: 1500 },
        ],
        expectMainRequests: 3,
        mock,
      });
    },
  },
  {
    name: 'interrupt',
    expects: ['type:custom-title', 'type:agent-name', 'subtype:local_command', 'subtype:turn_duration'],
    shows: 'the interactive UI (tmux): a streaming reply interrupted with Escape, the session renamed with /rename, then another prompt',
    setup: (dirs) => allowTools(dirs),
    script: {
      main: [
        { content: [text('Once upon a time there was a very long story that streamed slowly, one piece after another, ' .repeat(4))], delayMs: 700 },
        { content: [text('A short answer, as asked.')] },
      ],
    },
    run: async (dirs, mock) => {
      await runInteractive({
        home: dirs.home,
        cwd: dirs.cwd,
        baseUrl: mock.url,
        sessionId: SESSION_IDS.interrupt,
        prompts: [
          { text: 'Tell me a long story' },
          { key: 'Escape', afterMainRequests: 1, waitMs: 4500 },
          { key: 'C-u', afterMainRequests: 1, waitMs: 1000 },
          { text: '/rename Recorded interrupt session', afterMainRequests: 1, waitMs: 1000 },
          { text: 'Now a short answer please', afterMainRequests: 1, waitMs: 3000 },
        ],
        expectMainRequests: 2,
        mock,
      });
    },
  },
];

/** Replace __CWD__ in scripted tool inputs with the scenario's working directory. */
function bindCwd(script: MockScript, cwd: string): MockScript {
  const fix = (v: unknown): unknown => JSON.parse(JSON.stringify(v).split('__CWD__').join(cwd));
  const out: MockScript = { ...script };
  for (const k of ['main', 'subagent', 'compact', 'title', 'side'] as const) {
    const steps = script[k];
    if (steps) out[k] = steps.map((s) => (typeof s === 'function' ? s : (fix(s) as typeof s)));
  }
  return out;
}

/** Record one scenario into fixtures/recorded/<name>/; returns the request log summary. */
export async function recordScenario(sc: Scenario, outRoot: string): Promise<void> {
  const root = path.join(REC_ROOT, sc.name);
  rmSync(root, { recursive: true, force: true });
  const dirs: ScenarioDirs = { root, home: path.join(root, 'home'), config: path.join(root, 'home', '.claude'), cwd: path.join(root, 'work') };
  mkdirSync(dirs.config, { recursive: true });
  mkdirSync(dirs.cwd, { recursive: true });
  sc.setup?.(dirs);
  const mock = await startMockApi(bindCwd(sc.script, dirs.cwd));
  try {
    await sc.run(dirs, mock);
  } finally {
    await mock.close();
    writeFileSync(
      path.join(root, 'requests.jsonl'),
      mock.requests
        .map((r) =>
          JSON.stringify({
            path: r.path,
            route: r.route,
            model: r.body?.model,
            stream: r.body?.stream,
            tools: (r.body?.tools ?? []).length,
            messages: (r.body?.messages ?? []).length,
            system: systemText(r.body?.system).slice(0, 300),
            last: r.body ? lastUserText(r.body).slice(0, 300) : '',
            answer: r.answer,
          }),
        )
        .join('\n') + '\n',
    );
    writeFileSync(path.join(root, 'requests-full.json'), JSON.stringify(mock.requests));
  }
  const projects = path.join(dirs.config, 'projects');
  if (!existsSync(projects)) throw new Error(`${sc.name}: the CLI wrote no projects/ folder`);
  const dest = path.join(outRoot, sc.name);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  cpSync(projects, path.join(dest, 'projects'), { recursive: true });
  const missing = missingExpectations(sc, dest);
  if (missing.length) throw new Error(`recorded, but the files do not show ${missing.join(', ')}`);
}

/** The expectations of a scenario its recorded folder does not meet. */
export function missingExpectations(sc: Scenario, dir: string): string[] {
  const have = censusTokens(dir);
  return sc.expects.filter((e) => !have.has(e));
}

const list = (s: Set<string>) => [...s].sort().map((x) => '`' + x + '`').join(', ') || '—';

const NOTES = `## Notes

- \`-p\` runs write \`entrypoint:"sdk-cli"\`, \`promptSource:"sdk"\` and send the Agent SDK system prompt;
  the \`queued\` scenario is the interactive UI (\`entrypoint:"cli"\`, \`promptSource:"typed"\`/\`"queued"\`).
- The model is the CLI's default (\`claude-opus-5-5\`); the mock echoes the requested model, numbers
  its messages \`msg_mock_NNNNNN\` and reports usage of about a quarter of the request's bytes.
- \`--resume\` in \`-p\` mode appends to the same file (no new session id).
- \`subagent\` passes \`run_in_background:false\`: 2.1.328 runs the Agent tool in the background by
  default, and \`-p\` would then end before the subagent's report.
- \`queued\` drives the interactive UI in a private tmux server (test/harness/interactive.ts):
  the second prompt is typed while the first reply streams (it becomes its own user line,
  \`promptSource:"queued"\`, with \`queue-operation\` enqueue/dequeue); the third is typed while a
  Bash tool runs (a \`queued_command\` attachment with \`origin\`, and \`queue-operation\` remove).
  It depends on timing (prompts are typed after the mock has seen N requests plus a delay).
- \`subagent-background\` leaves the Agent call in the background (the default): its tool_result is
  \`async_launched\`, and the report comes back as a \`<task-notification>\` user turn, whose
  \`<output-file>\` lies in the CLI's TMPDIR (set to \`home/tmp\` of the scratch folder).
- \`apierror\`: the mock answers 401 to every try of the first prompt; the CLI retries once, then
  writes an assistant line with model \`<synthetic>\` and \`isApiErrorMessage\`. A 400 is retried
  until it succeeds, so it leaves no trace in the file.
- File names the CLI picks at random (\`agent-<id>.jsonl\`, \`tool-results/<id>.txt\`) change on
  every recording, as do uuids and timestamps.
- \`interrupt\`: Escape while the reply streams keeps the part already streamed as an assistant line,
  then a user line \`[Request interrupted by user]\`; \`/rename\` writes \`custom-title\` and
  \`agent-name\` lines and two \`system/local_command\` lines. (Escape before any text arrived instead
  puts the prompt back into the input box.) Timing-dependent like \`queued\`.
- Not produced by any scenario: \`ai-title\` lines (no title request was seen,
  with CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1), \`summary\` lines, \`system/api_error\` (the
  401 gave a \`<synthetic>\` message instead), \`progress\` lines (not written by 2.1.15x and later).
`;

function readme(outRoot: string): string {
  const rows = scenarios
    .filter((sc) => existsSync(path.join(outRoot, sc.name)))
    .map((sc) => {
      const dir = path.join(outRoot, sc.name);
      const c = census(dir);
      const files = jsonlFiles(dir).map((f) => path.relative(dir, f));
      const others = listFiles(dir).filter((f) => !f.endsWith('.jsonl')).map((f) => path.relative(dir, f));
      return [
        `### ${sc.name}`,
        '',
        sc.shows,
        '',
        '| | |',
        '|---|---|',
        `| files | ${[...files, ...others].map((f) => '`' + f + '`').join('<br>')} |`,
        `| lines, bytes | ${c.lines}, ${c.bytes} |`,
        `| line types | ${list(c.types)} |`,
        `| attachment types | ${list(c.attachments)} |`,
        `| system subtypes | ${list(c.subtypes)} |`,
        `| block types | ${list(c.blocks)} |`,
        `| assistant models | ${list(c.models)} |`,
        '',
      ].join('\n');
    });
  return [
    '# Recorded fixtures',
    '',
    `Sessions written by the real Claude Code CLI ${CLI_VERSION} (see CLI_VERSION), driven offline`,
    'against the scripted mock API in test/harness/mock-api.ts. Re-record all with `npm run record`',
    '(or `npm run build && node build/test/harness/record.js NAME…` for some). Each scenario ran in',
    '`/tmp/txcript-rec/<scenario>/` (HOME `home/`, cwd `work/`), so paths in the files are stable; uuids',
    'and timestamps change on every recording. Nothing was scrubbed. Each folder mirrors the config',
    "dir's `projects/` tree: `projects/<slug>/<session-id>.jsonl`, `<session-id>/subagents/…`,",
    '`<session-id>/tool-results/…`. Session ids are fixed (`SESSION_IDS` in record.ts).',
    '',
    'The tables below are generated by record.ts; the same census with jq:',
    '',
    '    jq -r .type F | sort -u                                  # line types',
    '    jq -r "select(.type==\\"attachment\\") | .attachment.type" F | sort -u',
    '    jq -r "select(.type==\\"system\\") | .subtype" F | sort -u',
    '    jq -r ".message.content | arrays | .[].type" F | sort -u  # block types',
    '',
    '| scenario | shows |',
    '|---|---|',
    ...scenarios.map((sc) => `| [${sc.name}](#${sc.name}) | ${sc.shows.replace(/\|/g, '\\|')} |`),
    '',
    NOTES,
    ...rows,
  ].join('\n');
}

async function main(args: string[]): Promise<number> {
  let outRoot = path.join(repoRoot(), 'fixtures', 'recorded');
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
  const wanted = argv.length ? argv : scenarios.map((s) => s.name);
  const unknown = wanted.filter((w) => !scenarios.some((s) => s.name === w));
  if (unknown.length) {
    process.stderr.write(`record: unknown scenario ${unknown.join(', ')} (known: ${scenarios.map((s) => s.name).join(', ')})\n`);
    return 2;
  }
  const t0 = Date.now();
  claudeBinary();
  process.stderr.write(`record: CLI ready in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
  mkdirSync(outRoot, { recursive: true });
  writeFileSync(path.join(outRoot, 'CLI_VERSION'), CLI_VERSION + '\n');
  let failed = 0;
  for (const name of wanted) {
    const sc = scenarios.find((s) => s.name === name)!;
    const t1 = Date.now();
    try {
      await recordScenario(sc, outRoot);
      process.stderr.write(`record: ${name} ok in ${((Date.now() - t1) / 1000).toFixed(1)}s\n`);
    } catch (err) {
      failed++;
      process.stderr.write(`record: ${name} FAILED in ${((Date.now() - t1) / 1000).toFixed(1)}s: ${(err as Error).message}\n`);
    }
  }
  writeFileSync(path.join(outRoot, 'README.md'), readme(outRoot));
  process.stderr.write(`record: done in ${((Date.now() - t0) / 1000).toFixed(1)}s, ${failed} failed\n`);
  return failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`record: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
