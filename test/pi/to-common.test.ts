// pi → Common: the session line, the order of the tree (--active: the path to the last
// entry, the latest compaction's summary first; without it: the file's order), the
// client's repairs under --active only, and the block mapping. The conformance tests hold
// the same conversions against the real client; these pin each rule on the smallest file.
import t from 'tap';
import type { CommonMessage } from '../../lib/common.js';
import { PiToCommon } from '../../lib/pi/to-common.js';
import { jsonlFiles } from '../harness/fixtures.js';
import { repo } from '../helpers.js';
import { commonOfLines, piCommonOf } from './convert.js';

const fixture = (name: string) => repo('fixtures', 'pi', `${name}.jsonl`);
const recorded = (scenario: string) => jsonlFiles(repo('fixtures', 'recorded-pi', scenario))[0]!;
const texts = (messages: CommonMessage[]) => messages.map((m) => m.content.map((b: any) => b.text ?? b.type).join('|'));

t.test('the session line: id, cwd and start from the header, the name from session_info, the model of the first reply', (t) => {
  const { session } = piCommonOf(recorded('session-commands'));
  t.equal(session.harness, 'pi');
  t.match(session.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/, 'the header id (a UUIDv7)');
  t.equal(session.cwd, '/tmp/txcript-rec-pi/session-commands/work');
  t.equal(session.title, 'Named by a person');
  t.equal(session.custom_title, 'Named by a person', 'a name a person gave');
  t.equal(session.model, 'claude-mock', 'the first reply, not the model switched to later');
  t.match(session.started_at, /^\d{4}-\d\d-\d\dT/);
  t.end();
});

t.test('a branch: --active follows the path to the last entry, the history keeps both branches in file order', (t) => {
  const active = piCommonOf(fixture('branch-without-summary'), true).messages;
  t.same(texts(active), ['First.', 'First answer.', 'Second, asked again.', 'Second answer, kept.'], 'the path through the label entry to the root');
  const all = piCommonOf(fixture('branch-without-summary'), false).messages;
  t.same(texts(all), ['First.', 'First answer.', 'Second, left behind.', 'Second answer, left behind.', 'Second, asked again.', 'Second answer, kept.']);
  t.same(active.map((m) => m.id), ['d0000001', 'd0000002', 'd0000005', 'd0000006'], 'message ids are entry ids');
  t.end();
});

t.test('a branch left with a summary: the summary is user text in the client wording, on the path', (t) => {
  const active = piCommonOf(recorded('branch'), true).messages;
  t.equal(active.length, 6);
  t.match((active[2]!.content[0] as any).text, /^The following is a summary of a branch that this conversation came back from:\n\n<summary>\nThe user explored[\s\S]*The branch left asked a second question\.<\/summary>$/);
  t.notOk(texts(active).some((s) => s.includes('on the branch to be left')), 'the reply of the branch left is not resumed');
  t.ok(texts(piCommonOf(recorded('branch'), false).messages).some((s) => s.includes('on the branch to be left')), 'the history keeps it');
  t.end();
});

t.test('compactions: --active starts at the latest summary, then what it kept, then what followed', (t) => {
  const active = piCommonOf(recorded('compaction'), true).messages;
  t.equal(active[0]!.after_compaction, true, 'the summary starts the model’s conversation');
  t.match((active[0]!.content[0] as any).text, /^The conversation history before this point was compacted into the following summary:\n\n<summary>\n## Goal\nSecond compaction/);
  t.same(texts(active).slice(1), ['Third answer, after the first compaction.', 'Give a fourth answer.', 'Fourth answer, after the second compaction.'], 'the reply the second compaction kept, then the turn after it');
  const all = piCommonOf(recorded('compaction'), false).messages;
  t.equal(all.filter((m) => m.after_compaction).length, 2, 'without --active, each summary where its compaction stands');
  t.equal(texts(all)[0], 'Give a first answer.', 'and the history before the first');
  t.end();
});

t.test('a version 1 file: entries linked in file order, a compaction keeping from a line index', (t) => {
  const active = piCommonOf(fixture('version-1'), true).messages;
  t.same(texts(active).slice(1), ['Second.', 'Second answer.', 'Third.', 'Third answer.']);
  t.same(active.map((m) => m.id), ['line-6', 'line-4', 'line-5', 'line-7', 'line-8'], 'entries without ids go by their line');
  t.end();
});

t.test('calls without results: under --active each gets the client’s "No result provided"; the history invents none', (t) => {
  const active = piCommonOf(fixture('dangling-calls'), true).messages;
  t.same(active[2]!.content, [
    { type: 'tool_result', tool_use_id: 'call_one', content: 'one\n', is_error: false },
    { type: 'tool_result', tool_use_id: 'call_two', content: 'No result provided', is_error: true },
  ], 'with the results of its reply');
  t.same(active.at(-1), { type: 'message', id: 'a0000006:no-result', role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_three', content: 'No result provided', is_error: true }], timestamp: '2026-03-01T10:00:06.000Z' }, 'a message of its own at the end');
  const all = piCommonOf(fixture('dangling-calls'), false).messages;
  t.notOk(JSON.stringify(all).includes('No result provided'));
  t.end();
});

t.test('a failed reply: left out under --active, the results around it one message; kept in the history with its stop reason', (t) => {
  const active = piCommonOf(fixture('failed-reply'), true).messages;
  t.same(active.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  t.same((active[2]!.content as any[]).map((b) => [b.tool_use_id, b.content]), [['call_a', 'A'], ['call_b', 'No result provided'], ['call_b', 'B']], 'as the client sends them');
  const all = piCommonOf(fixture('failed-reply'), false).messages;
  t.same(all.find((m) => m.id === 'b0000004')?.stop_reason, 'error');
  t.end();
});

t.test('thinking: under --active as the client sends it; in the history as written', (t) => {
  const [, reply] = piCommonOf(fixture('thinking'), true).messages;
  t.same(reply!.content, [
    { type: 'text', text: 'Unsigned thoughts.' },
    { type: 'redacted_thinking', data: 'cmVkYWN0ZWQtZGF0YQ==' },
    { type: 'thinking', thinking: 'Signed thoughts.', signature: 'c2lnLXNpZ25lZA==' },
    { type: 'text', text: 'Done thinking.' },
  ]);
  const [, written] = piCommonOf(fixture('thinking'), false).messages;
  t.same((written!.content as any[]).map((b) => b.type), ['thinking', 'thinking', 'redacted_thinking', 'thinking', 'text', 'text']);
  t.end();
});

t.test('usage in Common’s fields: input without cached input, stop reasons in the API’s names', (t) => {
  const [, reply] = piCommonOf(fixture('failed-reply'), true).messages;
  t.same(reply!.usage, { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3, cache_creation_input_tokens: 2 });
  t.equal(reply!.stop_reason, 'tool_use');
  t.equal(piCommonOf(fixture('failed-reply'), true).messages.at(-1)!.stop_reason, 'end_turn');
  t.end();
});

t.test('shell commands a person ran are `!` commands; one kept out of the context (!!) is not resumed', (t) => {
  const active = piCommonOf(fixture('shell-and-roles'), true).messages;
  t.same(active[0]!.content, [
    { type: 'tool_use', id: 'e0000002', name: '!', input: { args: 'false', exit_code: 1 }, tool: { kind: 'command', name: '!', args: 'false' } },
    { type: 'tool_result', tool_use_id: 'e0000002', content: '', is_error: true },
  ]);
  t.same((active[1]!.content[0] as any).input, { args: 'sleep 9', cancelled: true }, 'a cancelled command');
  t.same(texts(active).slice(2), ["A hook's message.", 'A prompt as a string.', 'Seen.'], 'a version 2 hookMessage is user text; a blank prompt is not sent');
  const all = piCommonOf(fixture('shell-and-roles'), false).messages;
  t.same((all[0]!.content[0] as any).input, { args: 'ls secret', exit_code: 0, exclude_from_context: true }, 'the history keeps it, marked');
  t.end();
});

t.test('tool calls carry typed views of pi’s tools', (t) => {
  const uses = piCommonOf(recorded('tools'), true).messages.flatMap((m) => (m.content as any[]).filter((b) => b.type === 'tool_use'));
  t.same(
    uses.map((u) => u.tool),
    [
      { kind: 'bash', command: 'echo hello from bash' },
      { kind: 'bash', command: 'ls /nonexistent-dir-for-fixture' },
      { kind: 'read', file_path: 'notes.txt' },
      { kind: 'read', file_path: 'missing.txt' },
      { kind: 'write', file_path: 'new.txt', content: 'first line\n' },
      { kind: 'edit', file_path: 'new.txt', old_string: 'first line', new_string: 'first line, edited' },
    ],
  );
  t.end();
});

t.test('images: a prompt’s image and a tool result holding one', (t) => {
  const [prompt, , result] = piCommonOf(recorded('image'), true).messages;
  t.same((prompt!.content[1] as any).source.media_type, 'image/png');
  const content = (result!.content[0] as any).content;
  t.same(content.map((b: any) => b.type), ['text', 'image'], 'a result with an image keeps its blocks');
  t.end();
});

t.test('lines that are no conversation, a cycle of parents, and a second header', (t) => {
  const ts = '2026-03-01T10:00:00.000Z';
  const u = (id: string, parentId: string | null, text: string) => ({ type: 'message', id, parentId, timestamp: ts, message: { role: 'user', content: text } });
  const cycle = commonOfLines([{ type: 'session', version: 3, id: 's1', timestamp: ts }, u('aaaaaaaa', 'bbbbbbbb', 'one'), u('bbbbbbbb', 'aaaaaaaa', 'two')], true);
  t.same(texts(cycle.slice(1) as CommonMessage[]), ['one', 'two'], 'a cycle ends the walk up');
  const noise = commonOfLines([null, 7, [], { type: 'session', version: 3, id: 's1', timestamp: ts }, { type: 'label', id: 'x', timestamp: ts }], true);
  t.same(noise.length, 1, 'only the session line');
  const c = new PiToCommon({ active: true });
  c.push({ type: 'session', version: 3, id: 's1', timestamp: ts }, 1);
  t.notOk(c.startsNewSession({ type: 'session', id: 's1' }), 'the same header again');
  t.ok(c.startsNewSession({ type: 'session', id: 's2' }), 'another session’s header');
  c.dispose();
  t.end();
});
