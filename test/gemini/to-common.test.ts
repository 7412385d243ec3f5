// The Gemini converter on the recordings and on small hand-made files: what --active
// keeps (the client's loaded list), what the full history keeps, each result once, the
// session line, usage in Common's fields.
import t from 'tap';
import type { CommonMessage } from '../../lib/common.js';
import { GeminiToCommon } from '../../lib/gemini/to-common.js';
import { statSync } from 'node:fs';
import { commonOfLines, geminiCommonOf } from './helpers.js';
import { scenarioFiles, scenarioLines } from './recorded.js';

const texts = (ms: CommonMessage[]) => ms.flatMap((m) => m.content.filter((b: any) => b.type === 'text').map((b: any) => `${m.role}: ${b.text}`));
const of = (scenario: string, active = true) => commonOfLines(scenarioLines(scenario), active);

t.test('a rewind: --active is the conversation before the rewound prompt; the full history keeps what was rewound', (t) => {
  t.same(texts(of('rewind').messages), ['user: First prompt.', 'assistant: First answer.'], '--active');
  const all = texts(of('rewind', false).messages);
  t.same(all.slice(-4), ['user: First prompt.', 'assistant: First answer.', 'user: Second prompt.', 'assistant: Second answer.'], 'full history');
  t.match(all[0], /^user: <session_context>/, 'the full history opens with the session context the model saw');
  t.end();
});

t.test('a compression: --active starts at the snapshot, marked after_compaction; the full history has the turns before it too', (t) => {
  const active = of('compression').messages;
  t.match(texts(active)[0], /^user: <state_snapshot>/, 'the snapshot opens the active conversation');
  t.equal(active[0]!.after_compaction, true, 'marked as the restart');
  t.equal(active.filter((m) => m.after_compaction).length, 1, 'once');
  t.equal(texts(active)[1], 'assistant: Got it. Thanks for the additional context!');
  const all = of('compression', false).messages;
  const at = all.findIndex((m) => m.after_compaction);
  t.ok(texts(all.slice(0, at)).includes('assistant: First answer, before any compression.'), 'the turns before the compression come first');
  const uses = (ms: CommonMessage[]) => ms.flatMap((m) => m.content.filter((b: any) => b.type === 'tool_use'));
  const results = (ms: CommonMessage[]) => ms.flatMap((m) => m.content.filter((b: any) => b.type === 'tool_result'));
  t.equal(uses(all.slice(at)).length, results(all.slice(at)).length, 'a kept call is answered again after the restart');
  t.end();
});

t.test('each tool call has exactly one result, though the client records it twice', (t) => {
  for (const scenario of ['tools', 'parallel', 'image-read', 'cancelled-tool']) {
    const ms = of(scenario).messages;
    const uses = ms.flatMap((m) => m.content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id));
    const results = ms.flatMap((m) => m.content.filter((b: any) => b.type === 'tool_result').map((b: any) => b.tool_use_id));
    t.same(results, uses, `${scenario}: one result per call, in order`);
  }
  t.end();
});

t.test('results: an error is is_error; an image read is text then the image', (t) => {
  const results = of('tools').messages.flatMap((m) => m.content.filter((b: any) => b.type === 'tool_result')) as any[];
  t.same(results.map((r) => r.is_error === true), [false, true, false, false], 'the missing file is the one error (a shell exit code is output)');
  t.match(results[1].content, /^File not found/);
  const image = of('image-read').messages.flatMap((m) => m.content.filter((b: any) => b.type === 'tool_result'))[0] as any;
  t.same(image.content.map((b: any) => b.type), ['text', 'image'], 'output text, then the image');
  t.equal(image.content[1].source.media_type, 'image/png');
  t.end();
});

t.test('a cancelled call: its error result; the info record is not conversation', (t) => {
  const ms = of('cancelled-tool').messages;
  const r = ms.flatMap((m) => m.content.filter((b: any) => b.type === 'tool_result'))[0] as any;
  t.match(r.content, /Operation Cancelled/);
  t.equal(r.is_error, true);
  t.notOk(texts(ms).some((s) => s.includes('Request cancelled.')), 'the info record is left out');
  t.end();
});

t.test('thoughts are thinking blocks, tool calls keep the file id and get a typed view', (t) => {
  const a = of('parallel').messages.find((m) => m.role === 'assistant')!;
  t.same(
    a.content.map((b: any) => b.type),
    ['thinking', 'tool_use', 'tool_use'],
  );
  t.equal((a.content[0] as any).thinking, '**Two at once** Both reads are independent.', 'the summary as the client rebuilds it');
  t.match((a.content[1] as any).id, /^read_file__/, "the file's id, tool prefix and all");
  t.same((a.content[1] as any).tool, { kind: 'read', file_path: 'notes.txt' });
  t.end();
});

t.test('usage in Common fields: input without cached reads, output with thoughts', (t) => {
  const lines = scenarioLines('plain');
  const tokens = lines.find((l) => l.type === 'gemini' && l.tokens).tokens;
  const a = of('plain').messages.find((m) => m.role === 'assistant')!;
  t.same(a.usage, {
    input_tokens: tokens.input - tokens.cached,
    output_tokens: tokens.output + tokens.thoughts,
    cache_read_input_tokens: tokens.cached,
    cache_creation_input_tokens: 0,
    reasoning_output_tokens: tokens.thoughts,
    total_tokens: tokens.total,
  });
  t.ok(tokens.cached > 0 && tokens.thoughts > 0, 'the recording has both counts');
  t.end();
});

t.test('the session line: id, started_at from the first metadata line, cwd from the session context (checked against the hash)', (t) => {
  const lines = scenarioLines('resume-same-minute');
  const metas = lines.filter((l) => typeof l.projectHash === 'string');
  t.equal(metas.length, 2, 'the recording has two metadata lines');
  const { session } = commonOfLines(lines, true);
  t.equal(session.id, metas[0].sessionId);
  t.equal(session.started_at, metas[0].startTime, 'the first start, not the resume');
  t.equal(session.cwd, '/tmp/txcript-rec-gemini/resume-same-minute/work');
  t.equal(session.harness, 'gemini');
  t.end();
});

t.test('hand-made: a re-appended record replaces its first version in place; an unknown $rewindTo clears all; $set.summary is the title', (t) => {
  const meta = { sessionId: 's1', projectHash: 'h', startTime: '2026-01-01T00:00:00.000Z', lastUpdated: '2026-01-01T00:00:00.000Z', kind: 'main' };
  const u = (id: string, text: string) => ({ id, timestamp: '2026-01-01T00:00:01.000Z', type: 'user', content: [{ text }] });
  const g = (id: string, content: string) => ({ id, timestamp: '2026-01-01T00:00:02.000Z', type: 'gemini', content, thoughts: [], model: 'm' });
  const lines = [meta, u('a', 'one'), g('b', 'first'), u('c', 'two'), g('b', 'first, revised'), { $set: { summary: 'A test' } }];
  const r = commonOfLines(lines, true);
  t.same(texts(r.messages), ['user: one', 'assistant: first, revised', 'user: two'], 'replaced where it stood');
  t.equal(r.session.title, 'A test');
  t.equal(r.session.ai_title, 'A test');
  t.same(commonOfLines([...lines, { $rewindTo: 'nope' }], true).messages, [], 'a rewind to an id not in the list clears it, as the client does');
  t.same(texts(commonOfLines([...lines, { $rewindTo: 'nope' }], false).messages), ['user: one', 'assistant: first, revised', 'user: two'], 'the full history keeps it');
  t.end();
});

t.test('hand-made: a legacy gemini record (thoughts and calls beside the content) and a slash command', (t) => {
  const meta = { sessionId: 's1', projectHash: 'h' };
  const rec = {
    id: 'g1',
    timestamp: 't',
    type: 'gemini',
    content: 'Reading.',
    thoughts: [{ subject: 'Plan', description: 'Read it.', timestamp: 't' }],
    toolCalls: [{ id: 'read_file__1', name: 'read_file', args: { file_path: 'x' }, result: 'the text', status: 'success', timestamp: 't' }],
  };
  const r = commonOfLines([meta, { id: 'u0', timestamp: 't', type: 'user', content: '/help' }, rec], true);
  t.equal(r.messages.length, 2, 'the slash command is not resumed');
  t.same(
    r.messages[0]!.content.map((b: any) => b.type),
    ['thinking', 'text', 'tool_use'],
    'thoughts, content, calls: the order the client rebuilds',
  );
  t.same(r.messages[1]!.content, [{ type: 'tool_result', tool_use_id: 'read_file__1', content: 'the text' }], 'a string result is the output');
  t.equal(commonOfLines([meta, { id: 'u0', timestamp: 't', type: 'user', content: '/help' }, rec], false).messages.length, 3, 'the full history keeps the command');
  t.end();
});

t.test('on stdin, a metadata line of another session begins a new one; a second metadata line of the same does not', (t) => {
  const c = new GeminiToCommon({ active: true });
  t.notOk(c.startsNewSession({ sessionId: 's1', projectHash: 'h' }), 'nothing read yet');
  c.push({ sessionId: 's1', projectHash: 'h' });
  t.notOk(c.startsNewSession({ sessionId: 's1', projectHash: 'h' }), 'the same session (a resume in the same minute)');
  t.ok(c.startsNewSession({ sessionId: 's2', projectHash: 'h' }), 'another session');
  t.notOk(c.startsNewSession({ id: 'x', timestamp: 't', type: 'user', content: 'x' }), 'a record');
  c.dispose();
  t.end();
});

t.test('a file with no conversation (the extra file a resume leaves) has a session line and no messages', (t) => {
  const files = scenarioFiles('resume').sort((a, b) => statSync(a).size - statSync(b).size);
  t.equal(files.length, 2, 'the resume left two files');
  const { session, messages } = geminiCommonOf(files[0]!);
  t.same(messages, []);
  t.equal(session.id, geminiCommonOf(files[1]!).session.id, 'of the same session');
  t.end();
});
