/**
 * The Gemini codec's to-Common against the real Gemini CLI: for every recorded chat file
 * and every public one (fixtures/public-gemini/), the Common conversation of the file
 * (--active) is, part for part, the conversation `gemini --resume ID` sends (texts, calls, results, images, in order), once the
 * differences gemini-compare.ts names are taken out; a file the client does not resume
 * (no conversation in it) has no Common messages either. The same file handed over with
 * `--session-file` gives the same conversation. The Common conversation is what a user
 * gets: `tx-parse FILE | tx-common --active`.
 */
import t from 'tap';
import path from 'node:path';
import { conformanceSkip } from '../harness/index.js';
import { publicGeminiChats, recordedGeminiChats, resumeChat } from '../harness/gemini/index.js';
import { commonOf } from '../gemini/pipeline.js';
import { GEMINI_PROMPT, clientItems, commonItems } from './gemini-compare.js';

const skip = conformanceSkip();
// Every chat resumed in a real client, two at a time: longer than tap's default timeout.
t.setTimeout(60 * 60 * 1000);
const recorded = recordedGeminiChats();
const chats = [...recorded.map((c) => ({ ...c, name: `${c.scenario}/${path.basename(c.file)}` })), ...publicGeminiChats().map((c) => ({ ...c, scenario: 'public' }))];

t.test('there are recorded Gemini chat files to compare against', (t) => {
  t.ok(recorded.length > 0, 'fixtures/recorded-gemini holds chat files (npm run record:gemini makes them)');
  t.end();
});

for (const c of chats) {
  const name = c.name;
  t.test(`Common --active of ${name} is the conversation gemini --resume rebuilds`, { skip }, async (t) => {
    const ours = commonItems((await commonOf(c.file)).messages);
    const resumed = await resumeChat(c.file, { prompt: GEMINI_PROMPT });
    if (!resumed.found) {
      t.equal(ours.length, 0, `the client does not resume this file, and Common has no conversation in it either (${resumed.output.trim().split('\n').pop()?.slice(0, 160)})`);
      return;
    }
    const theirs = clientItems(resumed.contents);
    t.equal(ours.length, theirs.length, 'as many parts as the client sent');
    for (let i = 0; i < Math.max(ours.length, theirs.length); i++) t.same(ours[i], theirs[i], `part ${i + 1} (${theirs[i]?.role ?? ours[i]?.role})`);
  });
}

const first = recorded.find((c) => c.scenario === 'tools');
t.test('the client rebuilds the same conversation from --session-file as from its store', { skip: skip || (first ? false : 'no tools recording') }, async (t) => {
  const [store, imported] = await Promise.all([resumeChat(first!.file), resumeChat(first!.file, { via: 'session-file' })]);
  t.ok(store.found && imported.found, 'both ways load the file');
  if (store.found && imported.found) t.same(clientItems(imported.contents), clientItems(store.contents), 'the same parts');
});
