// To Common: what one message gives (user parts, tool states, steps, reasoning, usage,
// errors), which messages --active keeps (the client's filterCompacted, a kept tail
// after the summary), and the session line; small sessions made here, exact outputs.
import t from 'tap';
import type { CommonLine, CommonMessage } from '../../lib/common.js';
import { CLEARED_TEXT, COMPACTION_TEXT, INTERRUPTED_TEXT } from '../../lib/opencode/blocks.js';
import { OpencodeToCommon } from '../../lib/opencode/to-common.js';
import type { MessageWithParts } from '../../lib/opencode/shape.js';
import { CACHED_USAGE } from '../harness/opencode/scenarios.js';
import { assistant, recordedExports, recordedLines, sessionInfo, toolPart, user } from './build.js';

function convert(lines: object[], active = false): CommonLine[] {
  const conv = new OpencodeToCommon({ active });
  for (const l of lines) conv.push(l);
  const out = [...conv.finish()].join('');
  conv.dispose();
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
const messages = (lines: object[], active = false) => convert([sessionInfo(), ...lines], active).filter((l): l is CommonMessage => l.type === 'message');
const shape = (ms: CommonMessage[]) => ms.map((m) => ({ role: m.role, content: m.content }));

t.test('a user message: its texts and files, not ignored or empty texts, nor the text/plain and directory files the client read into texts', (t) => {
  const m = user([
    { type: 'text', text: 'Called the Read tool', synthetic: true },
    { type: 'text', text: 'left out', ignored: true },
    { type: 'text', text: '' },
    { type: 'file', mime: 'text/plain', url: 'file:///a.txt', filename: 'a.txt' },
    { type: 'file', mime: 'application/x-directory', url: 'file:///d', filename: 'd' },
    { type: 'file', mime: 'image/png', url: 'data:image/png;base64,AAAA', filename: 'a.png' },
    { type: 'file', mime: 'application/pdf', url: 'data:application/pdf;base64,BBBB', filename: 'b.pdf' },
    { type: 'text', text: 'What is it?' },
  ]);
  t.same(shape(messages([m])), [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Called the Read tool' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'BBBB' }, title: 'b.pdf' },
        { type: 'text', text: 'What is it?' },
      ],
    },
  ]);
  t.same(messages([user([{ type: 'text', text: '', ignored: true }])]), [], 'a user message with nothing to send is no message');
  t.end();
});

t.test('tool parts: a tool_use, and in the next user message the result each state gives', (t) => {
  const a = assistant(
    [
      { type: 'step-start' },
      toolPart('c1', 'bash', { command: 'echo hi', description: 'Greet' }, { status: 'completed', output: 'hi\n', title: 't', metadata: {}, time: { start: 1, end: 2 } }),
      toolPart('c2', 'read', { filePath: '/x' }, { status: 'error', error: 'File not found: /x', time: { start: 1, end: 2 } }),
      toolPart('c3', 'bash', { command: 'sleep 9' }, { status: 'running', time: { start: 1 } }),
      toolPart('c4', 'bash', { command: 'make' }, { status: 'error', error: 'aborted', metadata: { interrupted: true, output: 'half done' }, time: { start: 1, end: 2 } }),
      toolPart('c5', 'read', { filePath: '/p.png' }, { status: 'completed', output: 'Image read', title: '', metadata: {}, time: { start: 1, end: 2 }, attachments: [{ type: 'file', mime: 'image/png', url: 'data:image/png;base64,CCCC' }] }),
      { type: 'step-finish', reason: 'tool-calls', cost: 0, tokens: { input: 3, output: 4, reasoning: 1, cache: { read: 7, write: 2 } } },
    ],
    { finish: 'tool-calls' },
  );
  const [call, results] = messages([a]);
  t.same(call!.content, [
    { type: 'tool_use', id: 'c1', name: 'bash', input: { command: 'echo hi', description: 'Greet' }, tool: { kind: 'bash', command: 'echo hi', description: 'Greet' } },
    { type: 'tool_use', id: 'c2', name: 'read', input: { filePath: '/x' }, tool: { kind: 'read', file_path: '/x' } },
    { type: 'tool_use', id: 'c3', name: 'bash', input: { command: 'sleep 9' }, tool: { kind: 'bash', command: 'sleep 9' } },
    { type: 'tool_use', id: 'c4', name: 'bash', input: { command: 'make' }, tool: { kind: 'bash', command: 'make' } },
    { type: 'tool_use', id: 'c5', name: 'read', input: { filePath: '/p.png' }, tool: { kind: 'read', file_path: '/p.png' } },
  ]);
  t.equal(call!.stop_reason, 'tool_use', 'tool-calls is tool_use');
  t.same(call!.usage, { input_tokens: 3, output_tokens: 5, cache_read_input_tokens: 7, cache_creation_input_tokens: 2, reasoning_output_tokens: 1 }, "the step's tokens: input without cached input (as stored), output with reasoning");
  t.equal(results!.role, 'user');
  t.same(results!.content, [
    { type: 'tool_result', tool_use_id: 'c1', content: 'hi\n' },
    { type: 'tool_result', tool_use_id: 'c2', content: 'File not found: /x', is_error: true },
    { type: 'tool_result', tool_use_id: 'c3', content: INTERRUPTED_TEXT, is_error: true },
    { type: 'tool_result', tool_use_id: 'c4', content: 'half done' },
    { type: 'tool_result', tool_use_id: 'c5', content: [{ type: 'text', text: 'Image read' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'CCCC' } }] },
  ]);
  t.end();
});

t.test('each step-start opens an API message of its own, reasoning keeps its signature, and an empty text beside signed reasoning is a space', (t) => {
  const a = assistant([
    { type: 'step-start' },
    { type: 'reasoning', text: 'think', metadata: { anthropic: { signature: 'sig' } }, time: { start: 1 } },
    { type: 'text', text: '' },
    toolPart('c1', 'bash', { command: 'ls' }, { status: 'completed', output: '', title: '', metadata: {}, time: { start: 1, end: 2 } }),
    { type: 'step-finish', reason: 'tool-calls', cost: 0, tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } } },
    { type: 'step-start' },
    { type: 'text', text: 'done' },
    { type: 'step-finish', reason: 'stop', cost: 0, tokens: { input: 2, output: 2, reasoning: 0, cache: { read: 0, write: 0 } } },
  ]);
  const out = messages([a]);
  t.same(
    out.map((m) => [m.id, m.role, m.stop_reason ?? null]),
    [
      [`${a.info.id}:1`, 'assistant', 'tool_use'],
      [`${a.info.id}:1:results`, 'user', null],
      [`${a.info.id}:2`, 'assistant', 'end_turn'],
    ],
  );
  t.same(out[0]!.content.slice(0, 2), [
    { type: 'thinking', thinking: 'think', signature: 'sig' },
    { type: 'text', text: ' ' },
  ]);
  t.end();
});

t.test('an assistant message that ended in an error is left out, unless it was aborted with content', (t) => {
  const failed = assistant([{ type: 'step-start' }, { type: 'text', text: 'partial' }], { error: { name: 'APIError', data: { message: 'overloaded' } } });
  const abortedEmpty = assistant([{ type: 'step-start' }, { type: 'reasoning', text: 'hm', time: { start: 1 } }], { error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } });
  const aborted = assistant([{ type: 'step-start' }, { type: 'text', text: 'half an answ' }], { error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } });
  t.same(shape(messages([failed, abortedEmpty, aborted])), [{ role: 'assistant', content: [{ type: 'text', text: 'half an answ' }] }]);
  t.end();
});

/** A session with two compactions; the second kept a tail (the turn `tail`). */
function compacted(tailKept: boolean): { lines: MessageWithParts[]; names: Map<string, string> } {
  const names = new Map<string, string>();
  const name = <T extends MessageWithParts>(n: string, m: T) => (names.set(m.info.id, n), m);
  const u1 = name('u1', user([{ type: 'text', text: 'one' }]));
  const a1 = name('a1', assistant([{ type: 'text', text: 'first' }]));
  const c1 = name('c1', user([{ type: 'compaction', auto: true }]));
  const s1 = name('s1', assistant([{ type: 'text', text: 'summary one' }], { summary: true, parentID: c1.info.id }));
  const u2 = name('u2', user([{ type: 'text', text: 'two' }]));
  const a2 = name('a2', assistant([{ type: 'text', text: 'second' }]));
  const c2 = name('c2', user([{ type: 'compaction', auto: false, ...(tailKept ? { tail_start_id: u2.info.id } : {}) }]));
  const s2 = name('s2', assistant([{ type: 'text', text: 'summary two' }], { summary: true, parentID: c2.info.id }));
  const u3 = name('u3', user([{ type: 'text', text: 'three' }]));
  const a3 = name('a3', assistant([{ type: 'text', text: 'third' }]));
  return { lines: [u1, a1, c1, s1, u2, a2, c2, s2, u3, a3], names };
}

t.test('--active starts at the last compaction whose summary completed; the whole history without it', (t) => {
  const { lines, names } = compacted(false);
  const ids = (ms: CommonMessage[]) => ms.map((m) => names.get(m.id)).join(' ');
  t.equal(ids(messages(lines, true)), 'c2 s2 u3 a3');
  t.equal(ids(messages(lines, false)), 'u1 a1 c1 s1 u2 a2 c2 s2 u3 a3');
  const active = messages(lines, true);
  t.same(active[0]!.content, [{ type: 'text', text: COMPACTION_TEXT }], 'the compaction part is sent as the question the summary answers');
  t.equal(active[0]!.after_compaction, true, 'marked as the restart');
  t.end();
});

t.test('--active puts a kept tail after the summary, as the client sends it', (t) => {
  const { lines, names } = compacted(true);
  t.equal(
    messages(lines, true)
      .map((m) => names.get(m.id))
      .join(' '),
    'c2 s2 u2 a2 u3 a3',
  );
  t.end();
});

t.test('a summary that did not complete does not cut the conversation', (t) => {
  const { lines, names } = compacted(false);
  const s2 = lines[7]!;
  s2.info.error = { name: 'APIError' };
  t.equal(
    messages(lines, true)
      .map((m) => names.get(m.id))
      .join(' '),
    'c1 s1 u2 a2 c2 u3 a3',
    'back to the first compaction; the failed summary itself is left out',
  );
  t.end();
});

t.test('a pruned tool output is cleared under --active, as the client sends it, and kept in the whole history', (t) => {
  const a = assistant([toolPart('c1', 'bash', { command: 'cat big' }, { status: 'completed', output: 'big output', title: '', metadata: {}, time: { start: 1, end: 2, compacted: 3 } })]);
  t.same(messages([a], true)[1]!.content, [{ type: 'tool_result', tool_use_id: 'c1', content: CLEARED_TEXT }]);
  t.same(messages([a], false)[1]!.content, [{ type: 'tool_result', tool_use_id: 'c1', content: 'big output' }]);
  t.end();
});

t.test('the session line: id, title, directory, version, first model, start, parent', (t) => {
  const [s] = convert([sessionInfo({ parentID: 'ses_parent' }), assistant([{ type: 'text', text: 'x' }], { modelID: 'claude-y' })]);
  t.same(s, { type: 'session', harness: 'opencode', id: 'ses_000000000000TestSession000', title: 'A test', cwd: '/home/user/project', version: '1.18.33', model: 'claude-y', started_at: '2023-11-14T22:13:20.000Z', parent: { session: 'ses_parent' } });
  t.end();
});

t.test('on stdin, the info of another session begins a new session', (t) => {
  const conv = new OpencodeToCommon({ active: false });
  t.notOk(conv.startsNewSession(sessionInfo()), 'not before the first');
  conv.push(sessionInfo());
  t.notOk(conv.startsNewSession(sessionInfo()), 'not the same session again');
  t.ok(conv.startsNewSession(sessionInfo({ id: 'ses_other' })), 'another session');
  conv.dispose();
  t.end();
});

t.test('every recorded session converts, in both modes, to messages of alternating sense (no empty message, only user and assistant)', (t) => {
  for (const { scenario, file } of recordedExports()) {
    for (const active of [false, true]) {
      const ms = messages(recordedLines(file).slice(1), active);
      t.ok(ms.length > 0 && ms.every((m) => m.content.length > 0 && (m.role === 'user' || m.role === 'assistant')), `${scenario}${active ? ' --active' : ''}: ${ms.length} messages`);
    }
  }
  t.end();
});

t.test("the client's stored tokens give the API's usage back: input without the cache, the cache counts apart", (t) => {
  const doc = recordedExports().find((d) => d.scenario === 'cached-usage');
  if (!doc) {
    t.fail('fixtures/recorded-opencode/cached-usage is missing (npm run record:opencode cached-usage)');
    return t.end();
  }
  const answer = messages(recordedLines(doc.file).slice(1)).find((m) => m.role === 'assistant')!;
  t.same(answer.usage, { ...CACHED_USAGE, reasoning_output_tokens: 0 }, 'what the mock reported for the answer');
  t.end();
});
