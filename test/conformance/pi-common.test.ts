/**
 * pi's Common against the real pi client: for every recorded session, the codec's
 * conversion under --active (lib/pi, called directly until the registry wires pi into
 * tx-common) gives, message for message, the conversation `pi -p --session FILE` sends:
 * the path to the file's last entry, the latest compaction's summary first, the client's
 * repairs (aborted replies left out, "No result provided" for a call without a result).
 * The differences pi-compare.ts names (the prompt of the resume run, cache_control, a
 * person's shell command as a `!` command) are taken out; any other difference fails.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { conformanceSkip } from '../harness/index.js';
import { recordedPiSessions, resumeSession } from '../harness/pi/index.js';
import { pool, repo } from '../helpers.js';
import { piCommonOf } from '../pi/convert.js';
import { PI_PROMPT, apiOfCommon, clientConversation, promptSent } from './pi-compare.js';

const skip = conformanceSkip();
// The hand-written files of fixtures/pi reach rules the recordings do not; the client judges them too.
const handWritten = readdirSync(repo('fixtures', 'pi'))
  .filter((f) => f.endsWith('.jsonl'))
  .sort()
  .map((f) => ({ scenario: 'fixtures/pi', file: repo('fixtures', 'pi', f) }));
const sessions = [...recordedPiSessions(), ...handWritten];

t.test('there are recorded pi sessions to compare against', (t) => {
  t.ok(recordedPiSessions().length >= 9, 'fixtures/recorded-pi holds the recorded scenarios (npm run record:pi makes them)');
  t.ok(handWritten.length >= 6, 'fixtures/pi holds the hand-written files');
  t.end();
});

t.test('the conversion under --active is the conversation pi --session rebuilds', { skip }, async (t) => {
  const resumed = await pool(sessions, 2, (s) => resumeSession(s.file, { prompt: PI_PROMPT }));
  sessions.forEach((s, i) => {
    t.test(`${s.scenario}/${path.basename(s.file)}`, async (t) => {
      const r = resumed[i]!;
      if (!r.found) return t.fail(`the client did not load the recorded session: ${r.output.slice(0, 600)}`);
      t.equal(promptSent(r.messages), PI_PROMPT, 'the request ends with the prompt of the resume run');
      const theirs = clientConversation(r.messages);
      const ours = apiOfCommon(piCommonOf(s.file, true).messages);
      t.equal(ours.length, theirs.length, 'as many messages as the client sent');
      for (let k = 0; k < Math.max(ours.length, theirs.length); k++) if (!t.same(ours[k], theirs[k], `message ${k + 1} (${theirs[k]?.role ?? ours[k]?.role})`)) break;
    });
  });
});
