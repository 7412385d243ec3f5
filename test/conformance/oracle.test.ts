/**
 * The oracle itself: the real CLI, resumed on a file, tells a loadable session
 * from an unloadable one, and loads every recorded fixture.
 */
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { conformanceSkip, recordedFixtures, resumeConversation } from '../harness/index.js';

const skip = conformanceSkip();
const sessions = recordedFixtures().filter((f) => f.kind === 'session');
const plain = sessions.find((f) => f.scenario === 'plain');

interface Msg {
  role: string;
  content: unknown;
}
const texts = (messages: unknown[]): string => JSON.stringify(messages);

/**
 * The messages less the client's own role:"system" entries: the environment it runs in
 * and, after the new prompt, an "# Environment" update whenever the cwd, the OS version
 * or the date differ from the recording's (on another machine or another day, always).
 */
function conversationOf(messages: Msg[]): Msg[] {
  return messages.filter((m) => m.role !== 'system');
}

t.test('the oracle finds a recorded session and returns the conversation the CLI rebuilt from it', { skip }, async (t) => {
  if (!plain) return t.fail('fixtures/recorded/plain is missing: run npm run record');
  const r = await resumeConversation(plain.file);
  t.equal(r.found, true, 'found');
  if (!r.found) return;
  const all = r.messages as Msg[];
  const last = all.at(-1);
  if (last?.role === 'system') t.match(texts([last]), /# Environment/, 'what follows the prompt, if anything, is the client\'s environment update');
  const msgs = conversationOf(all);
  t.ok(texts(msgs).includes('Hello, who are you?'), 'first prompt is in the messages');
  t.ok(texts(msgs).includes('What did I ask you before?'), 'the prompt of the --resume run is in the messages');
  t.ok(texts(msgs).includes('Hello! I am a mock assistant.'), 'assistant text is in the messages');
  t.equal(msgs.at(-1)?.role, 'user', 'the last message is the new prompt');
  t.ok(texts([msgs.at(-1)]).includes('next'), 'the new prompt is "next"');
});

t.test('the oracle reports found:false for a file of bookkeeping lines only (no user or assistant line)', { skip }, async (t) => {
  if (!plain) return t.fail('fixtures/recorded/plain is missing: run npm run record');
  const dir = t.testdir();
  const kept = readFileSync(plain.file, 'utf8')
    .split('\n')
    .filter((l) => {
      if (!l) return false;
      const type = (JSON.parse(l) as { type?: string }).type;
      return type !== 'user' && type !== 'assistant' && type !== 'attachment' && type !== 'system';
    });
  t.ok(kept.length > 0, 'the plain fixture has bookkeeping lines');
  const file = path.join(dir, `${plain.sessionId}.jsonl`);
  writeFileSync(file, kept.join('\n') + '\n');
  const r = await resumeConversation(file);
  t.equal(r.found, false, 'not found');
  if (!r.found) t.match(r.output, /No conversation found with session ID/);
});

t.test('the oracle reports found:false for an empty file (an id the store has no conversation for)', { skip }, async (t) => {
  const dir = t.testdir();
  const file = path.join(dir, '00000000-0000-4000-8000-00000000dead.jsonl');
  writeFileSync(file, '');
  const r = await resumeConversation(file, { cwd: '/tmp/txcript-oracle-empty' });
  t.equal(r.found, false, 'not found');
  if (!r.found) t.match(r.output, /No conversation found with session ID: 00000000-0000-4000-8000-00000000dead/);
});

/** Tool-use ids of the file's assistant lines, unless a compaction cut the older ones off. */
function toolUseIds(file: string): { ids: string[]; compacted: boolean } {
  const ids: string[] = [];
  let compacted = false;
  for (const l of readFileSync(file, 'utf8').split('\n')) {
    if (!l) continue;
    const o = JSON.parse(l) as { type?: string; subtype?: string; message?: { content?: unknown } };
    if (o.type === 'system' && o.subtype === 'compact_boundary') compacted = true;
    if (o.type === 'assistant' && Array.isArray(o.message?.content)) {
      for (const b of o.message.content as Array<{ type?: string; id?: string }>) if (b.type === 'tool_use' && b.id) ids.push(b.id);
    }
  }
  return { ids, compacted };
}

for (const f of sessions) {
  t.test(`the real CLI loads recorded fixture ${f.scenario}/${path.basename(f.file)} with every tool call of the file`, { skip }, async (t) => {
    const r = await resumeConversation(f.file);
    t.equal(r.found, true, 'found');
    if (!r.found) return;
    t.ok(r.messages.length >= 2, `rebuilt ${r.messages.length} messages`);
    const { ids, compacted } = toolUseIds(f.file);
    const sent = texts(r.messages);
    if (!compacted) for (const id of ids) t.ok(sent.includes(JSON.stringify(id)), `tool_use ${id} is in the rebuilt conversation`);
  });
}
