/**
 * pi's Common against the real pi client: for every pi session the tests hold (recorded,
 * hand-written, public), `tx-parse | tx-common --active` gives, message for message, the
 * conversation `pi -p --session FILE` sends: the path to the file's last entry, the
 * latest compaction's summary first, the client's repairs (aborted replies left out, "No
 * result provided" for a call without a result). The differences pi-compare.ts names (the
 * prompt of the resume run, cache_control, a person's shell command as a `!` command,
 * another model's thinking sent as text) are taken out; any other difference fails.
 */
import path from 'node:path';
import t from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { parseTool } from '../../lib/commands/parse.js';
import type { CommonLine, CommonMessage } from '../../lib/common.js';
import { conformanceSkip } from '../harness/index.js';
import { piSessions, recordedPiSessions, resumeSession } from '../harness/pi/index.js';
import { pool, runTool } from '../helpers.js';
import { PI_PROMPT, apiOfCommon, clientConversation, promptSent } from './pi-compare.js';

const skip = conformanceSkip();
const sessions = piSessions();

/** tx-parse | tx-common --active of a session file, in process: its Common messages. */
async function activeCommon(file: string): Promise<CommonMessage[]> {
  const parsed = await runTool(parseTool, [file], []);
  const common = await runTool(commonTool, ['--active'], [parsed.stdout]);
  return common.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CommonLine)
    .filter((l): l is CommonMessage => l.type === 'message');
}

t.test('there are pi sessions to compare against', (t) => {
  t.ok(recordedPiSessions().length >= 10, 'fixtures/recorded-pi holds the recorded scenarios (npm run record:pi makes them)');
  t.ok(sessions.filter((s) => s.scenario === 'fixtures/pi').length >= 6, 'fixtures/pi holds the hand-written files');
  t.ok(sessions.filter((s) => s.scenario === 'fixtures/public-pi').length >= 2, 'fixtures/public-pi holds the public sessions');
  t.end();
});

t.test('tx-common --active is the conversation pi --session rebuilds', { skip }, async (t) => {
  const resumed = await pool(sessions, 2, (s) => resumeSession(s.file, { prompt: PI_PROMPT }));
  for (const [i, s] of sessions.entries()) {
    const ours = apiOfCommon(await activeCommon(s.file));
    t.test(`${s.scenario}/${path.basename(s.file)}`, async (t) => {
      const r = resumed[i]!;
      if (!r.found) return t.fail(`the client did not load the session: ${r.output.slice(0, 600)}`);
      t.equal(promptSent(r.messages), PI_PROMPT, 'the request ends with the prompt of the resume run');
      const theirs = clientConversation(r.messages);
      t.equal(ours.length, theirs.length, 'as many messages as the client sent');
      for (let k = 0; k < Math.max(ours.length, theirs.length); k++) if (!t.same(ours[k], theirs[k], `message ${k + 1} (${theirs[k]?.role ?? ours[k]?.role})`)) break;
    });
  }
});
