// A typed prompt of the conversation the client resumes is a typed prompt of the copy
// written through Common: `tx-parse | tx-common --active | tx-native` keeps what
// `tx-filter --human-prompts` finds, even where Common holds a prompt in one user
// message with a text the client wrote before it (an interruption, a reminder).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { filterTool } from '../../lib/commands/filter.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import { corpusFiles, runTool } from '../helpers.js';

/** The texts of the human prompts `tx-filter --human-prompts --view` finds in session lines, with their line uuids. */
async function prompts(session: Buffer | string): Promise<{ text: string; uuid: string | null }[]> {
  const records = await runTool(parseTool, [], [session]);
  const found = await runTool(filterTool, ['--human-prompts'], [records.stdout]);
  const views = await runTool(filterTool, ['--human-prompts', '--view'], [found.stdout]);
  const uuids = found.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l).line?.uuid as string | undefined) ?? null);
  return views.stdout.toString('utf8').split('\n').filter(Boolean).map((l, i) => ({ text: JSON.parse(l).text as string, uuid: uuids[i] ?? null }));
}

/** The session written back through Common (the active conversation), as tx-native writes it. */
async function copyOf(session: Buffer | string): Promise<Buffer> {
  const records = await runTool(parseTool, [], [session]);
  const common = await runTool(commonTool, ['--active'], [records.stdout]);
  const native = await runTool(nativeTool, [], [common.stdout]);
  if (native.status !== 0) throw new Error(native.stderr);
  return native.stdout;
}

/** The uuids of the lines the client resumes: from the last main-chain message back through its parents. */
function activeChain(text: string): Set<string> {
  const parents = new Map<string, string | null>();
  let leaf: string | null = null;
  for (const l of text.split('\n')) {
    let line: any;
    try {
      line = JSON.parse(l);
    } catch {
      continue;
    }
    if (!line || typeof line.uuid !== 'string') continue;
    parents.set(line.uuid, typeof line.parentUuid === 'string' ? line.parentUuid : null);
    if ((line.type === 'user' || line.type === 'assistant') && line.isSidechain !== true) leaf = line.uuid;
  }
  const chain = new Set<string>();
  for (let u = leaf; u !== null && u !== undefined && !chain.has(u); u = parents.get(u) ?? null) chain.add(u);
  return chain;
}

const S = '11111111-2222-4333-8444-555555555555';
const base = (uuid: string, parent: string | null) => ({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/w', sessionId: S, version: '2.1.100', gitBranch: '', uuid, timestamp: '2026-01-01T00:00:00.000Z' });

t.test('a prompt typed after an interruption of a tool call stays a typed prompt in the copy', async (t) => {
  // As the client writes it: the call refused, the interruption, then the prompt, each a line of its own.
  const lines = [
    { ...base('u1', null), type: 'user', message: { role: 'user', content: 'list the files' } },
    { ...base('a1', 'u1'), type: 'assistant', message: { id: 'msg_1', role: 'assistant', model: 'claude-test', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] } },
    { ...base('u2', 'a1'), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: "The user doesn't want to proceed with this tool use.", is_error: true }] } },
    { ...base('u3', 'u2'), type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] } },
    { ...base('u4', 'u3'), type: 'user', message: { role: 'user', content: 'how can we know which agent is active ?' } },
    { ...base('a2', 'u4'), type: 'assistant', message: { id: 'msg_2', role: 'assistant', model: 'claude-test', content: [{ type: 'text', text: 'By its name.' }] } },
  ];
  const session = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  const original = (await prompts(session)).map((p) => p.text);
  t.same(original, ['list the files', 'how can we know which agent is active ?'], 'two typed prompts in the original');
  const copy = await copyOf(session);
  t.same((await prompts(copy)).map((p) => p.text), original, 'the same two in the copy');
  // The interruption is still a line the client wrote, not a prompt.
  const interrupted = copy.toString('utf8').split('\n').filter((l) => l.includes('[Request interrupted by user for tool use]'));
  t.equal(interrupted.length, 1, 'the interruption is written');
  t.notOk(interrupted[0].includes('which agent'), 'on a line of its own, before the prompt');
});

t.test('prompts on both sides of an interruption in one user message stay two prompts', async (t) => {
  const common = [
    { type: 'session', harness: 'claude-code', id: S, cwd: '/w', started_at: '2026-01-01T00:00:00.000Z' },
    { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: 'do i add it to actions secrets?' }, { type: 'text', text: '[Request interrupted by user]' }, { type: 'text', text: 'ok, added; now the action?' }] },
    { type: 'message', id: 'a1', role: 'assistant', content: [{ type: 'text', text: 'Yes.' }] },
  ];
  const native = await runTool(nativeTool, [], [common.map((l) => JSON.stringify(l)).join('\n') + '\n']);
  t.equal(native.status, 0, native.stderr);
  t.same((await prompts(native.stdout)).map((p) => p.text), ['do i add it to actions secrets?', 'ok, added; now the action?']);
});

t.test('a typed text and an image after a reminder start their own line; a reminder after a prompt stays with it', async (t) => {
  const common = [
    { type: 'session', harness: 'claude-code', id: S, cwd: '/w', started_at: '2026-01-01T00:00:00.000Z' },
    { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: '<system-reminder>files changed</system-reminder>' }, { type: 'text', text: 'look at this' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
    { type: 'message', id: 'a1', role: 'assistant', content: [{ type: 'text', text: 'I see.' }] },
    { type: 'message', id: 'u2', role: 'user', content: [{ type: 'text', text: 'and now?' }, { type: 'text', text: '<system-reminder>still here</system-reminder>' }] },
  ];
  const native = await runTool(nativeTool, [], [common.map((l) => JSON.stringify(l)).join('\n') + '\n']);
  t.equal(native.status, 0, native.stderr);
  const users = native.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((l) => l.type === 'user').map((l) => l.message.content);
  t.same(users, [
    '<system-reminder>files changed</system-reminder>',
    [{ type: 'text', text: 'look at this' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }],
    [{ type: 'text', text: 'and now?' }, { type: 'text', text: '<system-reminder>still here</system-reminder>' }],
  ]);
  t.same((await prompts(native.stdout)).map((p) => p.text.split('\n')[0]), ['look at this', 'and now?'], 'both typed prompts are prompts of the copy');
});

const corpus = corpusFiles('claude-code');
t.test('every corpus session: each typed prompt of the active conversation is a typed prompt of the copy', { skip: corpus.length === 0 ? 'no corpus beside the checkout (../shared/corpus)' : false }, async (t) => {
  for (const file of corpus) {
    const bytes = readFileSync(file);
    const chain = activeChain(bytes.toString('utf8'));
    const active = (await prompts(bytes)).filter((p) => p.uuid !== null && chain.has(p.uuid)).map((p) => p.text);
    const copied = (await prompts(await copyOf(bytes))).map((p) => p.text);
    const left = [...copied];
    const lost = active.filter((text) => {
      const at = left.indexOf(text);
      if (at < 0) return true;
      left.splice(at, 1);
      return false;
    });
    t.same(lost, [], `${path.basename(file)}: ${active.length} typed prompts of the active conversation, all in the copy`);
  }
});
