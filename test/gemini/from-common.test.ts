// The Gemini writer: every recording goes to Common and back and gives the same Common
// conversation; the same input gives the same bytes; and the shapes another harness's
// Common brings (text after a call, errors, images, commands, blocks with no Gemini form).
import t from 'tap';
import type { CommonMessage, CommonSession } from '../../lib/common.js';
import { projectHash } from '../../lib/gemini/session-context.js';
import { tokensOfUsage, usageOfTokens } from '../../lib/gemini/usage.js';
import { recordedGeminiChats } from '../harness/gemini/index.js';
import { commonOfLines, geminiCommonOf, writeGemini } from './helpers.js';

const SESSION = '7e1d0f5a-0000-4000-8000-00000000c0de';
/** A message as the model reads it: role, blocks, usage and model (ids and times are the writer's to choose). */
const gist = (m: CommonMessage) => ({ role: m.role, content: m.content, usage: m.usage, model: m.model });
/** Written lines read back as the client would read them from a file. */
const reread = (lines: object[], active = true) => commonOfLines(JSON.parse(JSON.stringify(lines)) as unknown[], active);

t.test('every recording: Common → chat file → Common gives the same conversation', (t) => {
  for (const c of recordedGeminiChats()) {
    const common = geminiCommonOf(c.file);
    const { lines, warnings } = writeGemini(common.session, common.messages, SESSION);
    t.same(warnings, [], `${c.scenario}: nothing left out`);
    const back = reread(lines);
    t.same(back.messages.map(gist), common.messages.map(gist), `${c.scenario}: the same messages`);
    if (common.messages.length > 0) t.equal(back.session.id, SESSION, 'under the new id');
    else t.same(lines, [], 'a file with no conversation writes nothing');
  }
  t.end();
});

t.test('the same input gives the same bytes', (t) => {
  const c = recordedGeminiChats().find((x) => x.scenario === 'tools')!;
  const common = geminiCommonOf(c.file);
  const a = JSON.stringify(writeGemini(common.session, common.messages, SESSION).lines);
  const b = JSON.stringify(writeGemini(common.session, common.messages, SESSION).lines);
  t.equal(a, b);
  t.end();
});

const session: CommonSession = { type: 'session', harness: 'claude-code', id: 'orig', cwd: '/home/u/proj', started_at: '2026-02-01T10:00:00.000Z', title: 'A named session' };
const msg = (id: string, role: 'user' | 'assistant', content: any[], extra: Partial<CommonMessage> = {}): CommonMessage => ({ type: 'message', id, role, content, timestamp: '2026-02-01T10:00:01.000Z', ...extra });

t.test('a foreign session: metadata, records, results in the calls, the title as summary', (t) => {
  const messages = [
    msg('u1', 'user', [{ type: 'text', text: 'Look at the image.' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }]),
    msg('a1', 'assistant', [{ type: 'thinking', thinking: 'I should read it.', signature: 'c2ln' }, { type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/x' } }], { model: 'claude-x', usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 7 } }),
    msg('u2', 'user', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'no such file', is_error: true }]),
    msg('a2', 'assistant', [{ type: 'text', text: 'It is missing.' }]),
  ];
  const { lines, warnings } = writeGemini(session, messages, SESSION);
  t.same(warnings, []);
  const [meta, user, gemini, answer, set] = lines as any[];
  t.same(meta, { sessionId: SESSION, projectHash: projectHash('/home/u/proj'), startTime: '2026-02-01T10:00:00.000Z', lastUpdated: '2026-02-01T10:00:00.000Z', kind: 'main' }, 'the metadata line, hashed from the cwd');
  t.same(user.content, [{ text: 'Look at the image.' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }], 'text and inline image');
  t.equal(gemini.type, 'gemini');
  t.equal(gemini.content, 'Reading.', 'the text as the client writes a streamed answer');
  t.same(gemini.thoughts.map((x: any) => x.description), ['I should read it.'], 'the thinking as a thought summary (a Claude signature is not kept)');
  t.same(gemini.toolCalls[0].result, [{ functionResponse: { id: 'toolu_1', name: 'Read', response: { error: 'no such file' } } }], 'the error result inside the call');
  t.equal(gemini.toolCalls[0].status, 'error');
  t.same(gemini.tokens, { input: 117, output: 5, cached: 100, thoughts: 0, tool: 0, total: 122 }, 'cache writes count as input');
  t.equal(answer.content, 'It is missing.');
  t.same(set, { $set: { lastUpdated: '2026-02-01T10:00:01.000Z', summary: 'A named session' } });
  t.equal(lines.length, 5, 'no user record for a message of results alone');
  t.end();
});

t.test('text after a call: the content holds every part in order', (t) => {
  const messages = [msg('u', 'user', [{ type: 'text', text: 'go' }]), msg('a', 'assistant', [{ type: 'tool_use', id: 'c1', name: 'run_shell_command', input: { command: 'ls' } }, { type: 'text', text: 'And then.' }])];
  const { lines } = writeGemini(session, messages, SESSION);
  const g = lines.find((l: any) => l.type === 'gemini') as any;
  t.same(g.content, [{ functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'ls' } } }, { text: 'And then.' }]);
  const back = reread(lines).messages.find((m) => m.role === 'assistant')!;
  t.same(back.content.map((b: any) => b.type), ['tool_use', 'text'], 'read back in the same order');
  t.end();
});

t.test('commands a person ran, results of no call of the message before, and blocks with no Gemini form', (t) => {
  const messages = [
    msg('u', 'user', [{ type: 'tool_use', id: 'cmd1', name: '/model', input: { args: 'opus' } }, { type: 'tool_result', tool_use_id: 'cmd1', content: 'Set model to opus' }]),
    msg('a', 'assistant', [{ type: 'redacted_thinking', data: 'xx' }, { type: 'text', text: 'ok' }]),
    msg('u2', 'user', [{ type: 'tool_result', tool_use_id: 'read_file__9', content: 'late' }, { type: 'document', source: {} }]),
  ];
  const { lines, warnings } = writeGemini(session, messages, SESSION);
  const users = lines.filter((l: any) => l.type === 'user') as any[];
  t.same(users[0].content, [{ text: '/model opus' }, { text: 'Set model to opus' }], 'the command as typed, its output as text');
  t.same(users[1].content, [{ functionResponse: { id: 'read_file__9', name: 'read_file', response: { output: 'late' } } }], 'a stray result as a response part, named by its id');
  t.equal(warnings.length, 2, 'two blocks left out, each said');
  t.match(warnings.join('\n'), /redacted_thinking/);
  t.match(warnings.join('\n'), /document/);
  t.end();
});

t.test('record ids stay unique (the client keys records by id)', (t) => {
  const messages = [msg('same', 'user', [{ type: 'text', text: 'a' }]), msg('same', 'assistant', [{ type: 'text', text: 'b' }]), msg('same', 'user', [{ type: 'text', text: 'c' }])];
  const ids = writeGemini(session, messages, SESSION).lines.filter((l: any) => typeof l.id === 'string').map((l: any) => l.id);
  t.same(ids, ['same', 'same#2', 'same#3']);
  t.end();
});

t.test('usage and tokens are inverses', (t) => {
  const tokens = { input: 145, output: 12, cached: 40, thoughts: 9, tool: 0, total: 166 };
  t.same(tokensOfUsage(usageOfTokens(tokens)!), tokens);
  t.equal(usageOfTokens(null), null);
  t.end();
});

t.test('a compaction: an empty checkpoint before the message after it; read back, that message starts the conversation again', (t) => {
  const session: CommonSession = { type: 'session', harness: 'claude-code', id: 's', started_at: '2026-01-01T00:00:00.000Z' };
  const m = (id: string, role: 'user' | 'assistant', text: string, after = false): CommonMessage => ({ type: 'message', id, role, content: [{ type: 'text', text }], ...(after ? { after_compaction: true } : {}) });
  const messages = [m('u1', 'user', 'Before.'), m('a1', 'assistant', 'Old answer.'), m('u2', 'user', 'Summary of before.', true), m('a2', 'assistant', 'New answer.')];
  const { lines } = writeGemini(session, messages, SESSION);
  const at = lines.findIndex((l) => JSON.stringify(l) === '{"$set":{"messages":[]}}');
  t.ok(at > 0, 'an empty checkpoint is written');
  t.equal((lines[at + 1] as { id?: string }).id, 'u2', 'right before the message after the compaction');
  const all = reread(lines, false);
  t.same(
    all.messages.map((x) => [x.id, x.after_compaction === true]),
    [
      ['u1', false],
      ['a1', false],
      ['u2', true],
      ['a2', false],
    ],
    'the whole file: the message after the checkpoint marked after_compaction',
  );
  t.same(
    reread(lines, true).messages.map((x) => x.id),
    ['u2', 'a2'],
    '--active: what the client resumes, from the compaction on',
  );
  const first = writeGemini(session, [m('u2', 'user', 'Summary.', true), m('a2', 'assistant', 'Answer.')], SESSION).lines;
  t.notOk(
    first.some((l) => JSON.stringify(l).includes('"messages":[]')),
    'a compaction at the start needs no checkpoint',
  );
  t.end();
});
