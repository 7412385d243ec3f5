// The kinds of pi's lines (docs/harnesses/pi.md, "Kinds"): one rule per entry type and
// message role, checked on the lines the real client wrote and on the cases it did not
// write in the recordings; and the envelope each line gives.
import t from 'tap';
import { KINDS } from '../../lib/record.js';
import { classifyPiLine, piKindReadsText } from '../../lib/pi/classify.js';
import { piEnvelope } from '../../lib/pi/codec-line.js';
import { objectsOf, piFiles } from './lines.js';

const ts = '2026-03-01T10:00:00.000Z';
const entry = (type: string, fields: object) => ({ type, id: 'ab12cd34', parentId: null, timestamp: ts, ...fields });
const message = (m: object) => entry('message', { message: m });

t.test('the rule table', (t) => {
  const cases: [string, unknown, string][] = [
    ['the header', { type: 'session', version: 3, id: 's', timestamp: ts, cwd: '/w' }, 'meta'],
    ['a prompt', message({ role: 'user', content: [{ type: 'text', text: 'Fix the bug.' }] }), 'prompt'],
    ['a prompt as a string', message({ role: 'user', content: 'Fix the bug.' }), 'prompt'],
    ['a prompt of an image alone', message({ role: 'user', content: [{ type: 'image', data: 'x', mimeType: 'image/png' }] }), 'prompt'],
    ['a skill a person invoked (/skill:name), stored expanded', message({ role: 'user', content: [{ type: 'text', text: '<skill name="review" location="/s/SKILL.md">\nbody\n</skill>\n\nsrc/' }] }), 'command'],
    ['a reply', message({ role: 'assistant', content: [] }), 'assistant'],
    ['a tool result', message({ role: 'toolResult', toolCallId: 'c', content: [] }), 'tool-result'],
    ['a shell command a person ran (!cmd)', message({ role: 'bashExecution', command: 'ls', output: '' }), 'command'],
    ["an extension's message (role custom)", message({ role: 'custom', customType: 'x', content: 'c' }), 'injected'],
    ['a version 2 hookMessage', message({ role: 'hookMessage', customType: 'x', content: 'c' }), 'injected'],
    ['a message of a role pi does not write', message({ role: 'system', content: 'c' }), 'other'],
    ['a compaction', entry('compaction', { summary: 's', firstKeptEntryId: 'x' }), 'compact'],
    ['a branch summary', entry('branch_summary', { summary: 's', fromId: 'x' }), 'injected'],
    ["an extension's message entry", entry('custom_message', { customType: 'x', content: 'c' }), 'injected'],
    ['the session name', entry('session_info', { name: 'n' }), 'title'],
    ['a model change', entry('model_change', { provider: 'p', modelId: 'm' }), 'meta'],
    ['a thinking level change', entry('thinking_level_change', { thinkingLevel: 'high' }), 'meta'],
    ["an extension's state", entry('custom', { customType: 'x', data: {} }), 'meta'],
    ['a label', entry('label', { targetId: 'x', label: 'l' }), 'meta'],
    ['an entry type of a later client', entry('later_entry', {}), 'other'],
  ];
  for (const [what, line, kind] of cases) t.equal(classifyPiLine(line), kind, what);
  t.end();
});

t.test('every recorded line has a kind of the shared list, and the recordings show the kinds the rules name', (t) => {
  const seen = new Map<string, Set<string>>();
  for (const { line } of objectsOf(piFiles())) {
    const kind = classifyPiLine(line);
    const key = line.type === 'message' ? `message:${line.message.role}` : line.type;
    if (!seen.has(key)) seen.set(key, new Set());
    seen.get(key)!.add(kind);
  }
  for (const kinds of seen.values()) for (const k of kinds) t.ok((KINDS as readonly string[]).includes(k), `${k} is a shared kind`);
  const one = (key: string) => [...(seen.get(key) ?? [])].join(',');
  t.equal(one('message:user'), 'prompt', 'the prompts the client wrote are prompts');
  t.equal(one('message:bashExecution'), 'command', 'shell commands');
  t.equal(one('custom_message'), 'injected', "an extension's messages");
  t.equal(one('session_info'), 'title', 'the session name');
  t.equal(one('compaction'), 'compact', 'compactions');
  t.end();
});

t.test('only a user message may be classified by its text', (t) => {
  t.ok(piKindReadsText(message({ role: 'user', content: 'x' })), 'a user message');
  t.notOk(piKindReadsText(message({ role: 'assistant', content: [] })), 'a reply');
  t.notOk(piKindReadsText(entry('custom_message', { customType: 'x', content: 'c' })), "an extension's message");
  t.end();
});

t.test('the envelope: only the header names its session; every entry has its timestamp; nothing is a sidechain', (t) => {
  t.same(piEnvelope({ type: 'session', version: 3, id: '0195a000-0000-7000-8000-000000000001', timestamp: ts, cwd: '/w' }), { session: '0195a000-0000-7000-8000-000000000001', timestamp: ts, sidechain: false });
  t.same(piEnvelope(message({ role: 'user', content: 'x' })), { session: null, timestamp: ts, sidechain: false });
  t.same(piEnvelope({ type: 'message', message: { role: 'user', timestamp: 1 } }), { session: null, timestamp: null, sidechain: false }, 'the message timestamp (milliseconds) is not the envelope');
  t.same(piEnvelope('not a line'), { session: null, timestamp: null, sidechain: false });
  t.end();
});
