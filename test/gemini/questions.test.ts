// tx-filter's questions and tx-grep over Gemini CLI chat files. The client writes an
// answer again once its calls have run, each result twice (in the call and as a user
// message) and checkpoints that repeat the conversation: each call, result, thought,
// usage and text is answered once, at the first line that holds it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { recordedGeminiChats } from '../harness/gemini/index.js';
import { repo } from '../helpers.js';
import { scenarioFiles } from './recorded.js';

const bin = (name: string) => repo('build', 'bin', `${name}.js`);

function views(args: string[], files: string[]): any[] {
  const r = spawnSync(process.execPath, [bin('tx-filter'), ...args, '--view', ...files], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

const tools = scenarioFiles('tools');

t.test('--tool-calls: each call once, at the record that first holds it, with its status', async (t) => {
  const calls = views(['--tool-calls'], tools);
  t.same(
    calls.map((c) => [c.name, c.status]),
    [
      ['read_file', 'success'],
      ['read_file', 'error'],
      ['run_shell_command', 'success'],
      ['run_shell_command', 'success'],
    ],
    'the four calls, in order',
  );
  t.equal(new Set(calls.map((c) => c.id)).size, 4, 'no call twice, though each is in a record written again');
  t.same(
    views(['--tool-calls', '--name', 'run_shell_command'], tools).map((c) => c.input.command),
    ['echo hello from shell', 'ls /nonexistent-dir-for-fixture'],
    '--name keeps one tool',
  );
});

t.test('--tool-results: each result once (the call holds it, and a user message again); --errors the failed read and the command that exited 2', async (t) => {
  const results = views(['--tool-results'], tools);
  t.equal(results.length, 4, 'four results, not eight');
  t.same(
    results.map((r) => [r.name, r.is_error, r.exit_code]),
    [
      ['read_file', false, null],
      ['read_file', true, null],
      ['run_shell_command', false, null],
      ['run_shell_command', true, 2],
    ],
  );
  t.same(
    views(['--tool-results', '--errors'], tools).map((r) => r.tool_use_id),
    results.filter((r) => r.is_error).map((r) => r.tool_use_id),
  );
});

t.test('--human-prompts: what a person typed, once per message, not the client’s context or a slash command', async (t) => {
  const all = recordedGeminiChats().map((c) => c.file);
  const prompts = views(['--human-prompts'], all);
  t.ok(prompts.length >= 14, `${prompts.length} prompts`);
  t.notOk(
    prompts.some((p) => p.text.startsWith('<session_context>') || p.text.startsWith('/')),
    'no session context, no command',
  );
  const image = views(['--human-prompts'], scenarioFiles('image-prompt'));
  t.same(
    image.map((p) => [p.text, p.images]),
    [['Describe @red-square.png please', 1]],
    'the text typed (displayContent), and the image the client read in',
  );
});

t.test('--reasoning, --usage and --compactions: each once', async (t) => {
  const plain = scenarioFiles('plain');
  t.same(
    views(['--reasoning'], plain).map((r) => r.text),
    ['**Greeting** The user greets me; I answer briefly.'],
    'the thought summary as the client rebuilds it',
  );
  const usage = views(['--usage'], plain);
  t.same(
    usage.map((u) => [u.input_tokens, u.output_tokens, u.cache_read_input_tokens, u.reasoning_output_tokens]),
    [[104, 21, 40, 9]],
    "input without the cached part, output with the thoughts, in Common's meaning",
  );
  const compression = views(['--compactions'], scenarioFiles('compression'));
  t.equal(compression.length, 1, 'one compression');
  t.match(compression[0].summary, /^<state_snapshot>/);
});

t.test('skills, subagents and hooks: the calls that are them, and the context a hook added', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'txcript-gemini-q-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'session-2026-01-01T00-00-aaaaaaaa.jsonl');
  const lines = [
    { sessionId: 'aaaaaaaa-0000-4000-8000-000000000001', projectHash: 'h', startTime: '2026-01-01T00:00:00.000Z', lastUpdated: '2026-01-01T00:00:00.000Z', kind: 'main' },
    { id: 'u1', timestamp: '2026-01-01T00:00:01.000Z', type: 'user', content: [{ text: 'Plan it.' }, { text: '<hook_context>branch: main</hook_context>' }] },
    {
      id: 'g1',
      timestamp: '2026-01-01T00:00:02.000Z',
      type: 'gemini',
      content: '',
      toolCalls: [
        { id: 'activate_skill__a1', name: 'activate_skill', args: { name: 'planner' }, status: 'success', result: [{ functionResponse: { id: 'activate_skill__a1', name: 'activate_skill', response: { output: 'ok' } } }] },
        { id: 'invoke_agent__a2', name: 'invoke_agent', args: { agent_name: 'codebase_investigator', prompt: 'Look around.' }, status: 'success', result: [{ functionResponse: { id: 'invoke_agent__a2', name: 'invoke_agent', response: { output: 'done\n\n<hook_context>linted</hook_context>' } } }] },
      ],
    },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l) + '\n').join(''));
  t.same(
    views(['--skills'], [file]).map((s) => [s.source, s.skill, s.id]),
    [['call', 'planner', 'activate_skill__a1']],
  );
  t.same(
    views(['--subagents'], [file]).map((s) => [s.subagent_type, s.prompt]),
    [['codebase_investigator', 'Look around.']],
  );
  t.same(
    views(['--hooks'], [file]).map((h) => [h.hookEvent, h.content]),
    [
      ['BeforeAgent', 'branch: main'],
      ['AfterTool', 'linted'],
    ],
  );
  const modes = spawnSync(process.execPath, [bin('tx-filter'), '--modes', file], { encoding: 'utf8' });
  t.equal(modes.stdout, '', '--modes matches no Gemini record');
  t.match(modes.stderr, /modes/, 'and says the question does not apply');
});

t.test('tx-grep finds a text the client wrote twice once, at its first line', async (t) => {
  const r = spawnSync(process.execPath, [bin('tx-grep'), 'I will read the file', ...tools], { encoding: 'utf8' });
  const hits = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const lines = readFileSync(tools[0]!, 'utf8').split('\n');
  const copies = lines.filter((l) => l.includes('I will read the file')).length;
  t.ok(copies >= 2, `the answer is in ${copies} lines`);
  t.same(
    hits.map((h) => [h.role, h.n]),
    [['assistant', lines.findIndex((l) => l.includes('I will read the file')) + 1]],
    'one hit, at the first',
  );
  const results = spawnSync(process.execPath, [bin('tx-grep'), '--role', 'tool', 'one\\ntwo', ...tools], { encoding: 'utf8' });
  t.equal(results.stdout.split('\n').filter(Boolean).length, 1, 'a result found once, though the call and a user message both hold it');
});
