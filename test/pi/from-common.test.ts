// Common → pi: the file the writer makes (a header, entries linked one after the other,
// ids derived from the session id), what each Common form becomes, and the fixpoint: every
// recorded and hand-written session, through Common and back, converts to the same Common.
// Whether the real client resumes the written file is test/conformance/pi-native.test.ts.
import t from 'tap';
import type { CommonMessage, CommonSession } from '../../lib/common.js';
import { CommonToPi, unwrapCompaction } from '../../lib/pi/from-common.js';
import { apiOf, providerOf } from '../../lib/pi/provider.js';
import { commonOfLines, piCommonOf } from './convert.js';
import { piFiles } from './lines.js';

const SESSION = '0198f3a0-0000-7000-8000-000000000001';
const session: CommonSession = { type: 'session', harness: 'claude-code', id: 'orig', cwd: '/home/u/app', started_at: '2026-04-01T08:00:00.000Z' };
const msg = (role: 'user' | 'assistant', content: any[], extra: Partial<CommonMessage> = {}): CommonMessage => ({ type: 'message', id: `m${Math.random()}`, role, content, ...extra });

function write(s: CommonSession, messages: CommonMessage[], opts: object = {}): { lines: any[]; warnings: string[] } {
  const w = new CommonToPi(s, { sessionId: SESSION, ...opts });
  const lines: any[] = [];
  for (const m of messages) lines.push(...w.message(m));
  lines.push(...w.finish());
  return { lines: JSON.parse(JSON.stringify(lines)), warnings: w.warnings };
}

/** A Common message as the fixpoint compares it: its id, and a shell command's (the entry's), are the writer's new entry ids. */
function comparable(m: CommonMessage): unknown {
  const shell = new Set((m.content as any[]).filter((b) => b.type === 'tool_use' && b.name === '!').map((b) => b.id));
  const content = (m.content as any[]).map((b) => (shell.has(b.id) ? { ...b, id: '(entry)' } : shell.has(b.tool_use_id) ? { ...b, tool_use_id: '(entry)' } : b));
  return { ...m, id: undefined, content };
}

t.test('the file: a version 3 header, then entries each the child of the one before, with short unique ids', (t) => {
  const { lines } = write(session, [msg('user', [{ type: 'text', text: 'Hi.' }]), msg('assistant', [{ type: 'text', text: 'Hello.' }], { model: 'claude-sonnet-4-5' })]);
  t.same(lines[0], { type: 'session', version: 3, id: SESSION, timestamp: '2026-04-01T08:00:00.000Z', cwd: '/home/u/app' });
  t.same(lines.slice(1).map((l) => l.type), ['message', 'model_change', 'message']);
  t.equal(lines[1].parentId, null, 'the first entry is the root');
  for (let i = 2; i < lines.length; i++) t.equal(lines[i].parentId, lines[i - 1].id, `entry ${i} follows entry ${i - 1}`);
  t.ok(lines.slice(1).every((l) => /^[0-9a-f]{8}$/.test(l.id)), 'ids of 8 hex digits, as pi writes them');
  t.same(lines[2], { type: 'model_change', id: lines[2].id, parentId: lines[1].id, timestamp: '2026-04-01T08:00:00.000Z', provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
  t.same(lines[3].message, { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp: Date.parse('2026-04-01T08:00:00.000Z') });
  t.end();
});

t.test('the same input gives the same bytes', (t) => {
  const messages = piCommonOf(piFiles()[0]!, true).messages;
  t.same(JSON.stringify(write(session, messages).lines), JSON.stringify(write(session, messages).lines));
  t.end();
});

t.test('every session through Common and back converts to the same Common (ids aside: the writer makes its own)', (t) => {
  for (const file of piFiles()) {
    const { session: s, messages } = piCommonOf(file, true);
    const { lines, warnings } = write(s, messages, { modelProvider: 'mock' });
    t.same(warnings, [], `${file}: nothing left out`);
    const again = commonOfLines(lines, true).slice(1) as CommonMessage[];
    t.same(again.map(comparable), messages.map(comparable), file);
  }
  t.end();
});

t.test('a compaction: the message after it becomes a compaction entry that keeps nothing before it', (t) => {
  const { lines } = write(session, [
    msg('user', [{ type: 'text', text: 'Old.' }]),
    msg('user', [{ type: 'text', text: 'The conversation history before this point was compacted into the following summary:\n\n<summary>\nWhat happened.\n</summary>' }], { after_compaction: true }),
    msg('user', [{ type: 'text', text: 'New.' }]),
  ]);
  const c = lines.find((l) => l.type === 'compaction');
  t.equal(c.summary, 'What happened.', "the client's wording taken away: it adds it again");
  t.equal(c.firstKeptEntryId, c.id, 'keeps nothing');
  t.same(commonOfLines(lines, true).slice(1).map((m: any) => m.content[0].text.slice(0, 20)), ['The conversation his', 'New.'], 'resumed from the compaction');
  t.equal(unwrapCompaction('A summary from another client.'), 'A summary from another client.', 'a summary in other words is kept whole');
  t.end();
});

t.test("a person's shell command becomes pi's bashExecution; another client's slash command, the text typed", (t) => {
  const { lines } = write(session, [
    msg('user', [
      { type: 'tool_use', id: 'c1', name: '!', input: { args: 'make test', exit_code: 2 } },
      { type: 'tool_result', tool_use_id: 'c1', content: 'FAIL', is_error: true },
      { type: 'tool_use', id: 'c2', name: '/review', input: { args: 'src/' } },
      { type: 'tool_result', tool_use_id: 'c2', content: 'Reviewed.' },
    ]),
  ]);
  t.same(lines[1].message, { role: 'bashExecution', command: 'make test', output: 'FAIL', exitCode: 2, cancelled: false, truncated: false, timestamp: Date.parse(session.started_at!) });
  t.same(lines[2].message.content, [{ type: 'text', text: '/review src/' }, { type: 'text', text: 'Reviewed.' }]);
  t.end();
});

t.test('tool results follow their call, each an entry naming its tool; text of the same message after them', (t) => {
  const { lines } = write(session, [
    msg('assistant', [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a' } }], { model: 'claude-x' }),
    msg('user', [{ type: 'text', text: 'Also this.' }, { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'A' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } }] }]),
  ]);
  const roles = lines.filter((l) => l.type === 'message').map((l) => l.message.role);
  t.same(roles, ['assistant', 'toolResult', 'user']);
  const result = lines.find((l) => l.message?.role === 'toolResult').message;
  t.same(result, { role: 'toolResult', toolCallId: 't1', toolName: 'Read', content: [{ type: 'text', text: 'A' }, { type: 'image', data: 'iVBO', mimeType: 'image/png' }], isError: false, timestamp: result.timestamp });
  t.end();
});

t.test('what the user said while calls were unanswered is written after their results, at its own time', (t) => {
  const { lines } = write(session, [
    msg('assistant', [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'sleep 5' } }, { type: 'tool_use', id: 't2', name: 'bash', input: { command: 'ls' } }], { model: 'claude-x', timestamp: '2026-04-01T08:00:01.000Z' }),
    msg('user', [{ type: 'text', text: 'Meanwhile: hurry.' }], { timestamp: '2026-04-01T08:00:02.000Z' }),
    msg('user', [{ type: 'tool_result', tool_use_id: 't1', content: 'slept' }], { timestamp: '2026-04-01T08:00:06.000Z' }),
    msg('user', [{ type: 'text', text: 'And this.' }], { timestamp: '2026-04-01T08:00:07.000Z' }),
    msg('user', [{ type: 'tool_result', tool_use_id: 't2', content: 'a b' }], { timestamp: '2026-04-01T08:00:08.000Z' }),
    msg('user', [{ type: 'text', text: 'After.' }], { timestamp: '2026-04-01T08:00:09.000Z' }),
  ]);
  const said = lines.filter((l) => l.type === 'message').map((l) => [l.message.role, l.message.toolCallId ?? l.message.content?.[0]?.text, l.timestamp]);
  t.same(said, [
    ['assistant', undefined, '2026-04-01T08:00:01.000Z'],
    ['toolResult', 't1', '2026-04-01T08:00:06.000Z'],
    ['toolResult', 't2', '2026-04-01T08:00:08.000Z'],
    ['user', 'Meanwhile: hurry.', '2026-04-01T08:00:02.000Z'],
    ['user', 'And this.', '2026-04-01T08:00:07.000Z'],
    ['user', 'After.', '2026-04-01T08:00:09.000Z'],
  ]);
  const again = commonOfLines(lines, true).slice(1) as CommonMessage[];
  t.notOk(JSON.stringify(again).includes('No result provided'), 'pi resumes it with every call answered by its own result');
  const held = write(session, [msg('assistant', [{ type: 'tool_use', id: 't9', name: 'bash', input: { command: 'x' } }], { model: 'claude-x' }), msg('user', [{ type: 'text', text: 'Never answered.' }])], { modelProvider: 'mock' }).lines;
  t.equal(held.at(-1).message.content[0].text, 'Never answered.', 'held to the end when no result comes: written by finish');
  t.end();
});

t.test('what pi cannot hold is left out and said', (t) => {
  const { lines, warnings } = write(session, [
    msg('user', [{ type: 'text', text: 'Look.' }, { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }]),
    msg('assistant', [{ type: 'text', text: 'Made it.' }, { type: 'artifact', id: 'a1', name: 'report', source: { type: 'text', text: 'r' } }, { type: 'server_tool_use', id: 's1' }]),
  ]);
  t.same(warnings, ['an image given by URL (pi keeps images inline) on a user message has no pi form, left out', 'a artifact block on an assistant message has no pi form, left out', 'a server_tool_use block on an assistant message has no pi form, left out']);
  t.same(lines[1].message.content, [{ type: 'text', text: 'Look.' }]);
  t.end();
});

t.test('thinking keeps its signature; redacted thinking is thinking marked redacted, as pi stores it', (t) => {
  const { lines } = write(session, [msg('assistant', [{ type: 'thinking', thinking: 'Hm.', signature: 'sig' }, { type: 'redacted_thinking', data: 'enc' }, { type: 'text', text: 'Ok.' }], { model: 'claude-x', stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 2, cache_read_input_tokens: 7 } })]);
  const m = lines.find((l) => l.message?.role === 'assistant').message;
  t.same(m.content, [{ type: 'thinking', thinking: 'Hm.', thinkingSignature: 'sig' }, { type: 'thinking', thinking: '[Reasoning redacted]', thinkingSignature: 'enc', redacted: true }, { type: 'text', text: 'Ok.' }]);
  t.same([m.usage.input, m.usage.output, m.usage.cacheRead, m.usage.totalTokens], [5, 2, 7, 14]);
  t.end();
});

t.test('the session name is a session_info entry at the end; an empty session writes nothing', (t) => {
  const named = write({ ...session, title: 'Fix the flaky test' }, [msg('user', [{ type: 'text', text: 'Hi.' }])]).lines;
  t.same(named.at(-1), { type: 'session_info', id: named.at(-1).id, parentId: named.at(-2).id, timestamp: '2026-04-01T08:00:00.000Z', name: 'Fix the flaky test' });
  t.same(write({ ...session, title: 'Named' }, []).lines, []);
  t.end();
});

t.test('the provider a reply names: asked for, else the agent directory\'s, else what its model suggests', (t) => {
  t.equal(providerOf('claude-opus-4-6'), 'anthropic');
  t.equal(providerOf('gpt-5.5'), 'openai');
  t.equal(providerOf('gemini-3-pro'), 'google');
  t.equal(providerOf('llama-4'), 'unknown');
  t.equal(apiOf('openai'), 'openai-responses');
  const reply = [msg('assistant', [{ type: 'text', text: 'x' }], { model: 'claude-mock' })];
  const source = (opts: object) => {
    const { lines } = write(session, reply, opts);
    t.same([lines[1].provider, lines[1].modelId], [lines[2].message.provider, lines[2].message.model], 'the model change names what the reply names');
    return [lines[2].message.provider, lines[2].message.api];
  };
  t.same(source({}), ['anthropic', 'anthropic-messages'], 'nothing said: the provider the name suggests');
  t.same(source({ modelProvider: 'mock' }), ['mock', 'anthropic-messages'], 'asked for');
  const config = t.testdir({
    'models.json': JSON.stringify({ providers: { proxy: { baseUrl: 'http://127.0.0.1:1', api: 'openai-completions', models: [{ id: 'claude-mock' }] }, other: { api: 'google-generative-ai', models: [{ id: 'else', api: 'anthropic-messages' }] } } }),
  });
  t.same(source({ config }), ['proxy', 'openai-completions'], "the models.json provider that lists the model, with its API");
  t.same(source({ config, modelProvider: 'other' }), ['other', 'google-generative-ai'], "asked for a provider of models.json: its API");
  const defaults = t.testdir({ 'settings.json': JSON.stringify({ defaultProvider: 'bedrock-proxy', defaultModel: 'claude-mock' }) });
  t.same(source({ config: defaults }), ['bedrock-proxy', 'anthropic-messages'], "settings.json's default provider, when its default model is this one");
  const broken = t.testdir({ 'models.json': '{not json', 'settings.json': '[]' });
  t.same(source({ config: broken }), ['anthropic', 'anthropic-messages'], 'files that are not JSON objects are not read');
  t.end();
});
