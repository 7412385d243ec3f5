// From Common: what the writer makes of each block (texts, reasoning, calls and their
// results in one tool part, images, unanswered calls, stray results), that every line has
// the fields the client's import decodes, that ids ascend in the order the client sorts
// by, and that a session goes Common → OpenCode → Common with the same items: the recorded
// OpenCode sessions and the recorded Claude Code and Codex sessions.
import t from 'tap';
import type { CommonLine, CommonMessage, CommonSession } from '../../lib/common.js';
import { commonTool } from '../../lib/commands/common.js';
import { parseTool } from '../../lib/commands/parse.js';
import { isClientId } from '../../lib/opencode/ids.js';
import { OpencodeWriter, UNANSWERED_TEXT } from '../../lib/opencode/from-common.js';
import { OpencodeToCommon } from '../../lib/opencode/to-common.js';
import type { MessageWithParts, OpencodeLine } from '../../lib/opencode/shape.js';
import { jsonlFiles } from '../harness/fixtures.js';
import { repo, runTool } from '../helpers.js';
import { recordedExports, recordedLines } from './build.js';
import { itemsOfCommon } from './items.js';

const SESSION: CommonSession = { type: 'session', harness: 'claude-code', id: 'abc', title: 'T', cwd: '/w', started_at: '2026-01-01T00:00:00.000Z', model: 'claude-z' };
const msg = (role: 'user' | 'assistant', content: any[], extra: Partial<CommonMessage> = {}): CommonMessage => ({ type: 'message', id: `m${Math.random()}`, role, content, ...extra });

/** Write a Common session with the writer; its lines, and its warnings. */
function write(session: CommonSession, messages: CommonMessage[]): { lines: OpencodeLine[]; warnings: string[] } {
  const w = new OpencodeWriter(session, { now: 0 });
  const lines: OpencodeLine[] = [w.info()];
  for (const m of messages) lines.push(...w.message(m));
  lines.push(...w.finish());
  return { lines, warnings: w.warnings };
}

/** What of a Common conversation OpenCode can hold: not slash commands (a call in a user message, and its result), not web searches the API ran itself. */
function writable(messages: CommonMessage[]): CommonMessage[] {
  const dropped = new Set<string>();
  return messages.map((m) => ({
    ...m,
    content: m.content.filter((b: any) => {
      if (b.type === 'tool_use' && (m.role === 'user' || b.native_type === 'web_search_call')) {
        dropped.add(b.id);
        return false;
      }
      return !(b.type === 'tool_result' && dropped.has(b.tool_use_id));
    }),
  }));
}

function toCommon(lines: object[]): CommonMessage[] {
  const conv = new OpencodeToCommon({ active: false });
  for (const l of lines) conv.push(l);
  const text = [...conv.finish()].join('');
  conv.dispose();
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CommonLine)
    .filter((l): l is CommonMessage => l.type === 'message');
}

t.test('a call and its result become one tool part; the assistant message waits for the result', (t) => {
  const w = new OpencodeWriter(SESSION, { now: 0 });
  w.info();
  t.equal(w.message(msg('user', [{ type: 'text', text: 'list' }])).length, 1, 'the prompt is written at once');
  t.same(w.message(msg('assistant', [{ type: 'thinking', thinking: 'hm', signature: 'sig' }, { type: 'text', text: 'ok' }, { type: 'tool_use', id: 'c1', name: 'bash', input: { command: 'ls' } }], { stop_reason: 'tool_use', usage: { input_tokens: 5, output_tokens: 9, cache_read_input_tokens: 100, reasoning_output_tokens: 4 } })), [], 'the call waits');
  const [a] = w.message(msg('user', [{ type: 'tool_result', tool_use_id: 'c1', content: 'a\nb' }]));
  t.ok(a, 'the result lets it go');
  t.same(
    a!.parts.map((p) => p.type),
    ['step-start', 'reasoning', 'text', 'tool', 'step-finish'],
  );
  t.same(a!.parts[1]!.metadata, { anthropic: { signature: 'sig' } }, 'the signature where the client keeps it');
  t.match(a!.parts[3]!.state, { status: 'completed', input: { command: 'ls' }, output: 'a\nb' });
  t.same(a!.info.tokens, { total: 114, input: 5, output: 5, reasoning: 4, cache: { read: 100, write: 0 } }, "tokens in the client's sense: output without reasoning");
  t.equal(a!.info.finish, 'tool-calls');
  t.same(w.finish(), []);
  t.same(w.warnings, []);
  t.end();
});

t.test('an error result is a call in state error; an unanswered call is one too; a stray result is left out and said', (t) => {
  const { lines, warnings } = write(SESSION, [
    msg('user', [{ type: 'text', text: 'go' }]),
    msg('assistant', [
      { type: 'tool_use', id: 'c1', name: 'read', input: { filePath: '/x' } },
      { type: 'tool_use', id: 'c2', name: 'bash', input: { command: 'sleep 9' } },
    ]),
    msg('user', [{ type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'no such file' }], is_error: true }, { type: 'tool_result', tool_use_id: 'zz', content: 'stray' }, { type: 'text', text: 'next' }]),
  ]);
  const a = lines[2] as MessageWithParts;
  t.match(a.parts[1]!.state, { status: 'error', error: 'no such file' });
  t.match(a.parts[2]!.state, { status: 'error', error: UNANSWERED_TEXT });
  t.same(warnings, ['a tool_result for zz, which no call before it made, left out']);
  t.equal((lines[3] as MessageWithParts).parts[0]!.text, 'next', 'the text after the results is a new prompt');
  t.end();
});

t.test('images become file parts with data URLs, in prompts and in results', (t) => {
  const img = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } };
  const { lines } = write(SESSION, [msg('user', [img, { type: 'text', text: 'what?' }]), msg('assistant', [{ type: 'tool_use', id: 'c1', name: 'read', input: {} }]), msg('user', [{ type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'read' }, img] }])]);
  t.match((lines[1] as MessageWithParts).parts[0], { type: 'file', mime: 'image/png', url: 'data:image/png;base64,AAAA' });
  t.match((lines[2] as MessageWithParts).parts[1]!.state.attachments, [{ type: 'file', mime: 'image/png', url: 'data:image/png;base64,AAAA' }]);
  t.end();
});

/** The fields the client's import decodes and requires (Session.Info, MessageV2.Info, MessageV2.Part of 1.18.33). */
function missingFields(line: any, first: boolean): string[] {
  const need = (o: any, keys: string[]) => keys.filter((k) => o?.[k] === undefined);
  if (first) return need(line, ['id', 'slug', 'projectID', 'directory', 'title', 'version', 'time']);
  const info = line.info;
  const out = need(info, ['id', 'sessionID', 'role', 'time', 'agent']);
  if (info.role === 'user') out.push(...need(info, ['model']));
  else out.push(...need(info, ['parentID', 'modelID', 'providerID', 'mode', 'path', 'cost', 'tokens']));
  for (const p of line.parts) {
    out.push(...need(p, ['id', 'sessionID', 'messageID', 'type']));
    if (p.type === 'tool') out.push(...need(p, ['callID', 'tool', 'state']), ...need(p.state, p.state.status === 'completed' ? ['input', 'output', 'title', 'metadata', 'time'] : ['input']));
    if (p.type === 'step-finish') out.push(...need(p, ['reason', 'cost', 'tokens']));
    if (p.type === 'reasoning') out.push(...need(p, ['text', 'time']));
  }
  return out;
}

/** Common of a Claude Code or Codex session file, through tx-parse | tx-common. */
async function commonOfNative(file: string): Promise<CommonLine[]> {
  const records = await runTool(parseTool, [file], []);
  const common = await runTool(commonTool, [], [records.stdout]);
  return common.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CommonLine);
}

t.test('recorded sessions of every harness go Common → OpenCode → Common with the same items, every line complete and ids ascending', async (t) => {
  const sources: { name: string; common: CommonLine[] }[] = [];
  for (const { scenario, file } of recordedExports()) {
    const conv = new OpencodeToCommon({ active: false });
    for (const l of recordedLines(file)) conv.push(l);
    sources.push({ name: `opencode ${scenario}`, common: [...conv.finish()].join('').split('\n').filter(Boolean).map((l) => JSON.parse(l)) });
    conv.dispose();
  }
  for (const file of [...jsonlFiles(repo('fixtures', 'recorded')), ...jsonlFiles(repo('fixtures', 'recorded-codex'))].filter((f) => !f.includes('/subagents/'))) {
    sources.push({ name: file.slice(repo('fixtures').length + 1), common: await commonOfNative(file) });
  }
  t.ok(sources.length > 20, `${sources.length} sessions`);
  for (const { name, common } of sources) {
    const session = common.find((l): l is CommonSession => l.type === 'session')!;
    const before = common.filter((l): l is CommonMessage => l.type === 'message');
    const { lines } = write(session, before);
    t.same(lines.flatMap((l, i) => missingFields(l, i === 0)), [], `${name}: every field the client requires`);
    const messages = lines.slice(1) as MessageWithParts[];
    const ids = messages.flatMap((m) => [m.info.id, ...m.parts.map((p) => p.id)]);
    t.ok(ids.every((id, i) => isClientId(id, id.startsWith('msg_') ? 'message' : 'part')), `${name}: ids of the client's shape`);
    const sortedWithin = messages.every((m) => m.parts.every((p, i) => i === 0 || p.id > m.parts[i - 1]!.id));
    const sortedAcross = messages.every((m, i) => i === 0 || m.info.time.created > messages[i - 1]!.info.time.created || (m.info.time.created === messages[i - 1]!.info.time.created && m.info.id > messages[i - 1]!.info.id));
    t.ok(sortedWithin && sortedAcross, `${name}: parts and messages in the order the client sorts them by`);
    t.same(itemsOfCommon(toCommon(lines)), itemsOfCommon(writable(before)), `${name}: the same items, but for slash commands and the API's own searches`);
  }
});

t.test('a slash command a person ran and a search the API ran itself are left out, each said; the prompt around them stays', (t) => {
  const { lines, warnings } = write(SESSION, [
    msg('user', [{ type: 'tool_use', id: 'cmd1', name: '/greet', input: { args: 'Ada' } }, { type: 'tool_result', tool_use_id: 'cmd1', content: 'greeted' }, { type: 'text', text: 'Greet Ada.' }]),
    msg('assistant', [{ type: 'tool_use', id: 'ws1', name: 'web_search', input: { query: 'q' }, native_type: 'web_search_call' }, { type: 'text', text: 'Nothing found.' }]),
  ]);
  t.same(warnings, ['a slash command (/greet) has no OpenCode part, left out', 'a web search the API ran itself (no result to give back), left out']);
  t.same(
    (lines.slice(1) as MessageWithParts[]).map((m) => m.parts.filter((p) => p.type === 'text' || p.type === 'tool').map((p) => p.type + ':' + (p.text ?? p.tool))),
    [['text:Greet Ada.'], ['text:Nothing found.']],
  );
  t.end();
});

t.test('the user messages name the model the session continues with: the assistant\'s so far, or the one asked for', (t) => {
  const m = [msg('user', [{ type: 'text', text: 'a' }]), msg('assistant', [{ type: 'text', text: 'b' }], { model: 'gpt-5.5' }), msg('user', [{ type: 'text', text: 'c' }])];
  const own = write({ ...SESSION, model: undefined }, m).lines.slice(1) as MessageWithParts[];
  t.same(own[2]!.info.model, { providerID: 'openai', modelID: 'gpt-5.5' }, "the assistant's model, its provider guessed");
  const w = new OpencodeWriter(SESSION, { now: 0, continueWith: { providerID: 'anthropic', modelID: 'claude-mock' } });
  const lines = m.flatMap((x) => w.message(x));
  t.same(lines.filter((l) => l.info.role === 'user').map((l) => l.info.model), [{ providerID: 'anthropic', modelID: 'claude-mock' }, { providerID: 'anthropic', modelID: 'claude-mock' }]);
  t.equal(lines.find((l) => l.info.role === 'assistant')!.info.modelID, 'gpt-5.5', 'the answers keep their own model');
  t.end();
});
