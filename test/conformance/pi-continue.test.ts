/**
 * tx-continue between pi and the other clients, with the real clients, one session each
 * way: a recorded pi session continued in Claude Code (`tx-continue ID --with
 * claude-code`, then the printed `claude --resume ID`) and in Codex (`codex exec resume
 * ID`), and a recorded Claude Code session and Codex rollout continued in pi (`pi
 * --session ID` in the printed directory, which finds the copy by id). Each client must
 * send the session's prompt, its tool calls and their results, in order. (Every session
 * is compared in full by pi-to-others.test.ts and to-pi.test.ts; this proves the
 * command's own path: lookup in the stores, install, the printed command.)
 */
import path from 'node:path';
import t from 'tap';
import { conformanceSkip, repoRoot, runClaude, startMockApi } from '../harness/index.js';
import { EXEC_FLAGS, runCodex, startMockResponses, writeCodexConfig } from '../harness/codex/index.js';
import { recordedPiSessions, resumeInstalled } from '../harness/pi/index.js';
import { runBin } from '../helpers.js';
import { env, printedCommand, scratch } from './continue-run.js';
import { clientConversation } from './pi-compare.js';

const skip = conformanceSkip();
const root = repoRoot();

const piTools = recordedPiSessions().find((s) => s.scenario === 'tools')!;
const PI_ID = path.basename(piTools.file).replace(/^.*_/, '').replace(/\.jsonl$/, '');

/** The blocks of a request's messages, in order. */
function blocksOf(messages: { role: string; content: unknown }[]): any[] {
  return messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }]));
}

t.test('a pi session continued through tx-continue: claude --resume sends its prompt, calls and results', { skip }, async (t) => {
  const dir = scratch(t, 'tx-continue-pi-');
  const home = path.join(dir, 'home');
  const r = await runBin('tx-continue', [PI_ID.slice(0, 13), '--with', 'claude-code', '--pi-home', path.join(root, 'fixtures', 'recorded-pi', 'tools'), '--config-dir', path.join(home, '.claude')], '', env(home));
  const command = printedCommand(t, r);
  if (!command) return;
  t.equal(command.id, PI_ID, 'the copy keeps the session id');
  const mock = await startMockApi({});
  try {
    const run = await runClaude({ args: ['-p', '--resume', command.id, 'next'], home, cwd: command.cwd, baseUrl: mock.url });
    const request = mock.messagesRequests('main')[0]?.body as { messages?: { role: string; content: unknown }[] } | undefined;
    t.ok(request, `the client loaded the session and sent it (${run.stdout}${run.stderr})`.slice(0, 400));
    const blocks = blocksOf(request?.messages ?? []);
    t.ok(blocks.some((b) => b.type === 'text' && b.text === 'Run two commands, read two files, then write and edit one.'), 'the prompt');
    const calls = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
    t.equal(calls.length, 6, 'the six calls');
    t.same(blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id), calls, 'their results, in order');
  } finally {
    await mock.close();
  }
});

t.test('a pi session continued through tx-continue: codex exec resume sends its prompt, calls and results', { skip }, async (t) => {
  const dir = scratch(t, 'tx-continue-pi-');
  const home = path.join(dir, 'home');
  const codexHome = path.join(home, '.codex');
  const r = await runBin('tx-continue', [PI_ID, '--with', 'codex', '--pi-home', path.join(root, 'fixtures', 'recorded-pi', 'tools'), '--codex-home', codexHome], '', env(home));
  const command = printedCommand(t, r);
  if (!command) return;
  const mock = await startMockResponses({});
  try {
    writeCodexConfig(codexHome, mock.url, { provider: 'openai' });
    const run = await runCodex({ args: ['exec', ...EXEC_FLAGS, 'resume', command.id, 'ping'], home, cwd: command.cwd });
    const input = (mock.responsesRequests()[0]?.body?.input ?? []) as any[];
    t.ok(input.length > 0, `the client loaded the rollout and sent it (${run.stdout}${run.stderr})`.slice(0, 400));
    const calls = input.filter((i) => i.type === 'function_call').map((i) => i.call_id);
    t.equal(calls.length, 6, 'the six calls');
    t.same(input.filter((i) => i.type === 'function_call_output').map((i) => i.call_id), calls, 'each answered, in order');
    const prompts = input.filter((i) => i.type === 'message' && i.role === 'user').flatMap((i) => i.content.map((c: any) => c.text));
    t.ok(prompts.includes('Run two commands, read two files, then write and edit one.'), 'the prompt');
  } finally {
    await mock.close();
  }
});

t.test('a Claude Code session continued through tx-continue: pi --session finds it by id and sends its prompt, calls and results', { skip }, async (t) => {
  const dir = scratch(t, 'tx-continue-pi-');
  const home = path.join(dir, 'home');
  const agent = path.join(home, '.pi', 'agent');
  const r = await runBin('tx-continue', ['00000000-0000-4000-8000-0000000000b1', '--with', 'pi', '--config-dir', path.join(root, 'fixtures', 'recorded', 'tools'), '--pi-home', agent], '', env(home));
  const command = printedCommand(t, r);
  if (!command) return;
  t.equal(command.store, agent, 'the command names the store');
  const resumed = await resumeInstalled({ home, cwd: command.cwd, id: command.id });
  if (!resumed.found) return t.fail(`pi did not load it: ${resumed.output.slice(0, 600)}`);
  const blocks = blocksOf(clientConversation(resumed.messages));
  t.ok(blocks.some((b) => b.type === 'text' && b.text === 'Exercise the tools please.'), 'the prompt');
  const calls = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
  t.ok(calls.length > 0, 'the calls');
  t.same(blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id), calls, 'each answered, in order');
  const again = await runBin('tx-continue', ['00000000-0000-4000-8000-0000000000b1', '--with', 'pi', '--config-dir', path.join(root, 'fixtures', 'recorded', 'tools'), '--pi-home', agent], '', env(home));
  t.equal(again.status, 1, 'continued twice: refused');
  t.match(again.stderr, /pi already has session 00000000-0000-4000-8000-0000000000b1 .*resume it with: cd \S+ && PI_CODING_AGENT_DIR=\S+ pi --session 00000000-0000-4000-8000-0000000000b1/);
});

t.test('a Codex session continued through tx-continue: pi --session finds it by id and sends its prompt, calls and results', { skip }, async (t) => {
  const dir = scratch(t, 'tx-continue-pi-');
  const home = path.join(dir, 'home');
  const agent = path.join(home, '.pi', 'agent');
  const r = await runBin('tx-continue', ['01a22f95-cea0', '--with', 'pi', '--codex-home', path.join(root, 'fixtures', 'recorded-codex', 'exec'), '--pi-home', agent], '', env(home));
  const command = printedCommand(t, r);
  if (!command) return;
  const resumed = await resumeInstalled({ home, cwd: command.cwd, id: command.id });
  if (!resumed.found) return t.fail(`pi did not load it: ${resumed.output.slice(0, 600)}`);
  const blocks = blocksOf(clientConversation(resumed.messages));
  const texts = blocks.filter((b) => b.type === 'text').map((b) => b.text);
  t.ok(texts.includes('Run two commands please.'), 'the prompt');
  t.same(blocks.filter((b) => b.type === 'tool_use').map((b) => b.id), ['call_exec_ok', 'call_exec_fail'], 'the calls, in order');
  t.same(blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id), ['call_exec_ok', 'call_exec_fail'], 'their results, in order');
  t.ok(texts.includes('The first command printed a greeting; the second failed.'), 'the answer');
});
