/**
 * tx-common against the real client: for every recorded session, `tx-common --active`
 * gives, message for message and block for block, the conversation Claude Code sends
 * when it resumes that file. The differences tx-common(1) documents under DIFFERENCES
 * FROM THE CLIENT are taken out of both sides first, each by its own named step, so a
 * difference that is not documented fails the test.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { conformanceSkip, recordedFixtures, resumeConversation } from '../harness/index.js';
import { PROMPT, clientSide, commonOf, commonSide, normaliseResults, textsOf } from './common-compare.js';

const skip = conformanceSkip();
/** A file whose first conversational line is a sidechain line: a subagent's own transcript. */
function isSubagentFile(file: string): boolean {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try {
      const o = JSON.parse(line);
      if (o.type === 'user' || o.type === 'assistant') return o.isSidechain === true;
    } catch {
      // not a line to judge by
    }
  }
  return false;
}

// More session files to compare (colon-separated paths), e.g. a corpus of real transcripts.
const extra = (process.env.TX_COMMON_EXTRA ?? '').split(':').filter(Boolean).map((file) => ({ scenario: 'extra', file }));
const sessions = [...recordedFixtures().filter((f) => f.kind === 'session'), ...extra];

t.test('there are recorded sessions to compare against', (t) => {
  t.ok(sessions.length > 0, `${sessions.length} recorded sessions (fixtures/recorded; npm run record makes them)`);
  t.end();
});

for (const f of sessions) {
  t.test(`tx-common --active gives the conversation the real client resumes from ${f.scenario}/${path.basename(f.file)}`, { skip }, async (t) => {
    const r = await resumeConversation(f.file, { prompt: PROMPT });
    const ours = commonOf(f.file);
    if (!r.found && ours.length > 0 && ours.every((m) => m.sidechain === undefined) && isSubagentFile(f.file)) {
      t.pass('a subagent transcript: the client does not resume it on its own');
      return;
    }
    t.equal(r.found, true, 'the client found the session');
    if (!r.found) return;
    const expected = normaliseResults(clientSide(r.messages, ours));
    const actual = normaliseResults(commonSide(ours, textsOf(r.messages as { content: unknown }[])));
    t.equal(actual.length, expected.length, 'as many messages as the client');
    for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
      t.same(actual[i], expected[i], `message ${i + 1} (${expected[i]?.role ?? actual[i]?.role})`);
    }
  });
}
