/**
 * tx-continue with the real clients, one session each way: a recorded Codex rollout is
 * continued in Claude Code (`tx-continue ID --with claude-code`, then the printed
 * `claude --resume ID` run by the pinned CLI against the mock), and a recorded Claude
 * Code session in Codex (`tx-continue ID --with codex`, then `codex exec resume ID`).
 * Each client must send the session's prompts and its tool calls and results, in order.
 * (Every recorded session and corpus file is compared in full by codex-to-claude.test.ts
 * and codex-native.test.ts; this proves the command's own path: lookup, install, command.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { conformanceSkip, repoRoot, runClaude, startMockApi } from '../harness/index.js';
import { EXEC_FLAGS, runCodex, startMockResponses, writeCodexConfig } from '../harness/codex/index.js';
import { codexConfig } from '../harness/codex/cli.js';
import { runBin } from '../helpers.js';

const skip = conformanceSkip();
const root = repoRoot();

function scratch(t: any): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tx-continue-conf-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The printed command's parts: its directory and the id it resumes. */
function parseCommand(command: string): { cwd: string; id: string } | null {
  const m = /^cd (\S+) && (?:\S+=\S+ )?(?:claude --resume|codex resume) (\S+)\n$/.exec(command);
  return m ? { cwd: m[1]!, id: m[2]! } : null;
}

t.test('a Codex session continued through tx-continue: claude --resume sends its prompt, calls and results', { skip }, async (t) => {
  const dir = scratch(t);
  const home = path.join(dir, 'home');
  const r = await runBin('tx-continue', ['01a22f95-cea0', '--with', 'claude-code', '--codex-home', path.join(root, 'fixtures', 'recorded-codex', 'exec'), '--config-dir', path.join(home, '.claude')], '', { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home });
  t.equal(r.status, 0, r.stderr);
  const command = parseCommand(r.stdout.toString());
  t.ok(command, `the command: ${r.stdout}`);
  if (!command) return;
  mkdirSync(command.cwd, { recursive: true });
  const mock = await startMockApi({});
  try {
    const run = await runClaude({ args: ['-p', '--resume', command.id, 'next'], home, cwd: command.cwd, baseUrl: mock.url });
    const request = mock.messagesRequests('main')[0]?.body as { messages?: { role: string; content: unknown }[] } | undefined;
    t.ok(request, `the client loaded the session and sent it (${run.stdout}${run.stderr})`.slice(0, 400));
    const blocks = (request?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }])) as any[];
    const texts = blocks.filter((b) => b.type === 'text').map((b) => b.text as string);
    t.ok(texts.includes('Run two commands please.'), 'the prompt');
    t.same(blocks.filter((b) => b.type === 'tool_use').map((b) => b.id), ['call_exec_ok', 'call_exec_fail'], 'the calls, in order');
    t.same(blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id), ['call_exec_ok', 'call_exec_fail'], 'their results, in order');
    t.ok(texts.includes('The first command printed a greeting; the second failed.'), 'the answer');
  } finally {
    await mock.close();
  }
});

t.test('a Claude Code session continued through tx-continue: codex exec resume sends its prompt, calls and results', { skip }, async (t) => {
  const dir = scratch(t);
  const home = path.join(dir, 'home');
  const codexHome = path.join(home, '.codex');
  const r = await runBin('tx-continue', ['00000000-0000-4000-8000-0000000000b1', '--with', 'codex', '--config-dir', path.join(root, 'fixtures', 'recorded', 'tools'), '--codex-home', codexHome], '', { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home });
  t.equal(r.status, 0, r.stderr);
  const command = parseCommand(r.stdout.toString());
  t.ok(command, `the command: ${r.stdout}`);
  if (!command) return;
  mkdirSync(command.cwd, { recursive: true });
  const mock = await startMockResponses({});
  try {
    writeCodexConfig(codexHome, mock.url, { provider: 'openai' });
    const run = await runCodex({ args: ['exec', ...EXEC_FLAGS, 'resume', command.id, 'ping'], home, cwd: command.cwd });
    const input = (mock.responsesRequests()[0]?.body?.input ?? []) as any[];
    t.ok(input.length > 0, `the client loaded the rollout and sent it (${run.stdout}${run.stderr})`.slice(0, 400));
    const calls = input.filter((i) => i.type === 'function_call' || i.type === 'custom_tool_call').map((i) => i.call_id);
    const outputs = input.filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output').map((i) => i.call_id);
    t.ok(calls.length > 0, 'the calls');
    t.same(outputs, calls, 'each call answered, in order');
    const prompts = input.filter((i) => i.type === 'message' && i.role === 'user').flatMap((i) => i.content.map((c: any) => c.text));
    t.ok(prompts.length > 0, 'the prompts');
  } finally {
    await mock.close();
  }
});

t.test('a Claude Code session continued in a Codex home with a provider of its own resumes under that provider; under a profile, with --model-provider', { skip }, async (t) => {
  const mock = await startMockResponses({});
  try {
    const own = codexConfig(mock.url, { provider: 'mock' });
    // Codex 0.169.0 takes a profile at run time (--profile work: work.config.toml over config.toml), which no file says.
    const base = own.replace('model_provider = "mock"', `model_provider = "openai"\nopenai_base_url = "${mock.url}"`);
    const cases = [
      { name: 'config.toml names it', files: { 'config.toml': own }, flags: [] as string[], profile: [] as string[] },
      { name: 'the profile names it', files: { 'config.toml': base, 'work.config.toml': 'model_provider = "mock"\n' }, flags: ['--model-provider', 'mock'], profile: ['--profile', 'work'] },
    ];
    for (const c of cases) {
      const dir = scratch(t);
      const home = path.join(dir, 'home');
      const codexHome = path.join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      for (const [name, text] of Object.entries(c.files)) writeFileSync(path.join(codexHome, name), text);
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
      const args = ['00000000-0000-4000-8000-0000000000b1', '--with', 'codex', '--config-dir', path.join(root, 'fixtures', 'recorded', 'tools'), '--codex-home', codexHome];
      const r = await runBin('tx-continue', [...args, ...c.flags], '', env);
      t.equal(r.status, 0, r.stderr);
      const command = parseCommand(r.stdout.toString());
      if (!command) return t.fail(`the command: ${r.stdout}`);
      mkdirSync(command.cwd, { recursive: true });
      const before = mock.responsesRequests().length;
      const run = await runCodex({ args: ['exec', ...c.profile, ...EXEC_FLAGS, 'resume', command.id, 'ping'], home, cwd: command.cwd });
      t.notMatch(run.stdout + run.stderr, /Cannot change this thread's model provider/, `${c.name}: the client accepts the provider`);
      const input = (mock.responsesRequests()[before]?.body?.input ?? []) as any[];
      t.ok(input.some((i) => i.type === 'function_call'), `${c.name}: the client resumed the conversation and sent it ${run.stderr.slice(-300)}`);
      // The same session naming openai, as tx-native always wrote it before (or under a profile, without the flag): the client refuses it, so the checks above can fail.
      const old = await runBin('tx-continue', [...args, '--session-id', 'new', ...(c.flags.length > 0 ? [] : ['--model-provider', 'openai'])], '', env);
      const oldCommand = parseCommand(old.stdout.toString());
      if (!oldCommand) return t.fail(`the command: ${old.stdout}${old.stderr}`);
      const refused = await runCodex({ args: ['exec', ...c.profile, ...EXEC_FLAGS, 'resume', oldCommand.id, 'ping'], home, cwd: command.cwd });
      t.match(refused.stdout + refused.stderr, /Cannot change this thread's model provider from `openai` to `mock` on resume/, `${c.name}: a rollout naming openai is refused there`);
    }
  } finally {
    await mock.close();
  }
});
