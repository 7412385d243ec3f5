/**
 * tx-common against the real OpenCode client: for every recorded session, the Common
 * conversation (`--active`) is, block for block, what `opencode run --session ID` sends
 * once txcript's own transaction has written the session into a fresh store (placed in the
 * folder it is resumed in). The request-time differences are taken out
 * by the named steps of opencode-compare.ts; any other difference fails.
 */
import t from 'tap';
import { conformanceSkip } from '../harness/index.js';
import { recordedOpencodeExports, resumeExport, type LoadVia } from '../harness/opencode/index.js';
import { clientSide, commonOfExport, messagesOf, ourSide } from './opencode-compare.js';

const skip = conformanceSkip();
// Every session starts the client two or three times (1-3 s each, far more on a loaded
// machine): the file may run past tap's usual 600 s.
t.setTimeout(60 * 60 * 1000);
const via: LoadVia = 'sql';

for (const { scenario, file } of recordedOpencodeExports()) {
  t.test(`tx-common --active gives the conversation the client rebuilds from ${scenario}/${file.split('/').pop()} (loaded by ${via})`, { skip }, async (t) => {
    const resumed = await resumeExport(file, { via });
    if (!resumed.found) {
      t.fail(`the client did not load the session: ${resumed.output.slice(0, 600)}`);
      return;
    }
    const ours = ourSide(messagesOf(commonOfExport(file)));
    const theirs = clientSide(resumed.messages);
    t.equal(ours.length, theirs.length, 'as many messages as the client');
    for (let i = 0; i < Math.max(ours.length, theirs.length); i++) t.same(ours[i], theirs[i], `message ${i + 1} (${theirs[i]?.role ?? ours[i]?.role})`);
  });
}
