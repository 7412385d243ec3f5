/**
 * A Gemini CLI session continued in Codex, with the real client: every recorded Gemini
 * chat file (and every public one under fixtures/public-gemini/) goes through
 * `tx-parse | tx-common --active | tx-native --harness codex --install` into a scratch
 * CODEX_HOME, and `codex exec resume ID` must send the same conversation, made
 * continuable and mapped as tx-native(1) says: user texts, assistant texts, reasoning,
 * tool calls and results, in order (to-codex.ts). (That `tx-common --active` is the
 * conversation Gemini CLI itself resumes is gemini-common.test.ts's claim.)
 */
import path from 'node:path';
import t from 'tap';
import { conformanceSkip } from '../harness/index.js';
import { publicGeminiChats, recordedGeminiChats } from '../harness/gemini/index.js';
import { pool } from '../helpers.js';
import { assertMapped, convertAndResume } from './to-codex.js';

const skip = conformanceSkip();
// Every chat resumed in a real client, two at a time: longer than tap's default timeout.
t.setTimeout(60 * 60 * 1000);

const chats = [...recordedGeminiChats().map((c) => ({ name: `${c.scenario}/${path.basename(c.file)}`, file: c.file })), ...publicGeminiChats().map((c) => ({ name: c.name, file: c.file }))];

t.test('Gemini CLI → Codex: codex exec resume sends the conversation of every recorded and public chat file, mapped', { skip }, async (t) => {
  t.ok(chats.length >= 12, 'there are Gemini chat files to convert');
  const outcomes = await pool(chats, 2, (c) => convertAndResume(c.file));
  chats.forEach((c, i) => {
    t.test(c.name, async (t) => {
      assertMapped(t, outcomes[i]!, 'gemini');
    });
  });
});
