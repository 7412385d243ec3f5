// The classification rule table of lib/gemini/classify.ts, one rule at a time: lines the
// real client wrote where a recording has one, a small hand-made line (said so) where none
// does; and the envelope each line gives.
import t from 'tap';
import { classifyGeminiLine, geminiKindReadsText } from '../../lib/gemini/classify.js';
import { geminiEnvelope } from '../../lib/gemini/envelope.js';
import { recordedLine } from './recorded.js';

const text = (m: any) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content));

t.test('recorded lines, one per rule', (t) => {
  const cases: [string, string, (l: any) => boolean, string][] = [
    ['plain', 'the metadata line', (l) => typeof l.projectHash === 'string', 'meta'],
    ['plain', 'a $set of lastUpdated', (l) => l.$set?.lastUpdated !== undefined && !l.$set.messages, 'meta'],
    ['plain', 'the first checkpoint (the session context)', (l) => Array.isArray(l.$set?.messages), 'meta'],
    ['resume', 'a $set of the session id on resume', (l) => l.$set?.sessionId !== undefined, 'meta'],
    ['compression', "a compression's checkpoint (holds the snapshot)", (l) => Array.isArray(l.$set?.messages) && JSON.stringify(l).includes('<state_snapshot>'), 'compact'],
    ['rewind', 'a rewind', (l) => typeof l.$rewindTo === 'string', 'system'],
    ['plain', 'a typed prompt', (l) => l.type === 'user', 'prompt'],
    ['image-prompt', 'a prompt with an image inline', (l) => l.type === 'user', 'prompt'],
    ['plain', 'an answer', (l) => l.type === 'gemini', 'assistant'],
    ['tools', 'an answer with its tool calls', (l) => l.type === 'gemini' && Array.isArray(l.toolCalls), 'assistant'],
    ['tools', 'the results, as a user record of functionResponse parts', (l) => l.type === 'user' && text(l).includes('functionResponse'), 'tool-result'],
    ['image-read', 'a result followed by the image it read', (l) => l.type === 'user' && text(l).includes('inlineData'), 'tool-result'],
    ['cancelled-tool', 'the info record of a cancelled request', (l) => l.type === 'info', 'system'],
  ];
  for (const [scenario, what, pick, kind] of cases) t.equal(classifyGeminiLine(recordedLine(scenario, pick)), kind, `${scenario}: ${what} is ${kind}`);
  t.end();
});

t.test('hand-made lines for the rules no recording shows', (t) => {
  const user = (content: unknown) => ({ id: 'u1', timestamp: '2026-01-01T00:00:00.000Z', type: 'user', content });
  t.equal(classifyGeminiLine({ $set: { summary: 'Greeting a mock model' } }), 'title', 'the summary the client generated is a title');
  t.equal(classifyGeminiLine(user([{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }])), 'injected', 'the session context is injected');
  t.equal(classifyGeminiLine(user([{ text: '<hook_context>x</hook_context>' }])), 'injected', 'hook context is injected');
  t.equal(classifyGeminiLine(user([{ text: '<state_snapshot>\n</state_snapshot>' }])), 'injected', 'a snapshot the client wrote is injected');
  t.equal(classifyGeminiLine(user('/compress')), 'command', 'a slash command (a string content) is a command');
  t.equal(classifyGeminiLine(user([{ text: '?' }])), 'command', 'a help request is a command');
  t.equal(classifyGeminiLine({ id: 'e', timestamp: 't', type: 'error', content: 'boom' }), 'system', 'an error record is system');
  t.equal(classifyGeminiLine({ id: 'w', timestamp: 't', type: 'warning', content: 'hm' }), 'system', 'a warning record is system');
  t.equal(classifyGeminiLine({ id: 'x', timestamp: 't', type: 'later-kind', content: [] }), 'other', 'an unknown record type is other');
  t.equal(classifyGeminiLine({ foo: 1 }), 'other', 'a line of no known shape is other');
  t.end();
});

t.test('which lines the kind may read the text of', (t) => {
  t.ok(geminiKindReadsText({ id: 'u', timestamp: 't', type: 'user', content: 'x' }), 'a user record');
  t.ok(geminiKindReadsText({ $set: { messages: [] } }), 'a checkpoint');
  t.notOk(geminiKindReadsText({ id: 'g', timestamp: 't', type: 'gemini', content: 'x' }), 'not an answer');
  t.notOk(geminiKindReadsText({ $set: { lastUpdated: 't' } }), 'not another update');
  t.end();
});

t.test('the envelope: the metadata line and a $set of sessionId name the session; records carry their time; nothing is a sidechain', (t) => {
  const meta = recordedLine('plain', (l) => typeof l.projectHash === 'string');
  t.same(geminiEnvelope(meta), { session: meta.sessionId, timestamp: meta.startTime, sidechain: false }, 'metadata line');
  const set = recordedLine('resume', (l) => l.$set?.sessionId !== undefined);
  t.equal(geminiEnvelope(set).session, set.$set.sessionId, '$set of sessionId');
  const rec = recordedLine('plain', (l) => l.type === 'gemini');
  t.same(geminiEnvelope(rec), { session: null, timestamp: rec.timestamp, sidechain: false }, 'a record names no session');
  t.same(geminiEnvelope({ $rewindTo: 'x' }), { session: null, timestamp: null, sidechain: false }, 'a rewind says nothing');
  t.end();
});
