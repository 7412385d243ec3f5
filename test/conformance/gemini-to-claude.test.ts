/**
 * A Gemini CLI session continued in Claude Code, with the real client: every recorded
 * Gemini chat file (and every public one under fixtures/public-gemini/) goes through
 * `tx-parse | tx-common --active | tx-native --install` into a scratch store, and
 * `claude -p --resume ID` loads it and sends the same conversation: the same user texts,
 * assistant texts, tool calls and results, in order (to-claude.ts; that
 * `tx-common --active` is the conversation Gemini CLI itself resumes is
 * gemini-common.test.ts's claim). Gemini's thoughts are left out, as any reasoning of
 * another vendor is; a call without a result is answered by a placeholder.
 */
import path from 'node:path';
import t from 'tap';
import { conformanceSkip } from '../harness/index.js';
import { publicGeminiChats, recordedGeminiChats } from '../harness/gemini/index.js';
import { pool } from '../helpers.js';
import { assertContinued, convertAndResume } from './to-claude.js';

const skip = conformanceSkip();
// Every chat resumed in a real client, two at a time: longer than tap's default timeout.
t.setTimeout(60 * 60 * 1000);

const chats = [...recordedGeminiChats().map((c) => ({ name: `${c.scenario}/${path.basename(c.file)}`, file: c.file })), ...publicGeminiChats().map((c) => ({ name: c.name, file: c.file }))];

t.test('there are Gemini chat files to continue', (t) => {
  t.ok(recordedGeminiChats().length >= 12, 'fixtures/recorded-gemini holds every scenario');
  t.end();
});

t.test('every Gemini chat file, continued in Claude Code, is sent as the same conversation', { skip }, async (t) => {
  // Two clients at a time: each resume waits on the client more than on this machine.
  const outcomes = await pool(chats, 2, (c) => convertAndResume(c.file));
  chats.forEach((c, k) => {
    t.test(c.name, async (t) => {
      assertContinued(t, outcomes[k]!);
    });
  });
});
