/**
 * Every recorded OpenCode session, through lib/opencode's Common and back to OpenCode, loads
 * in the real client with the same conversation (opencode-native-check.ts says how it is
 * judged).
 */
import path from 'node:path';
import t from 'tap';
import { conformanceSkip } from '../harness/index.js';
import { recordedOpencodeExports } from '../harness/opencode/index.js';
import { commonOfExport } from './opencode-compare.js';
import { checkWrittenSession } from './opencode-native-check.js';

const skip = conformanceSkip();
// Every session starts the client two or three times (1-3 s each, far more on a loaded
// machine): the file may run past tap's usual 600 s.
t.setTimeout(60 * 60 * 1000);
const sources = recordedOpencodeExports().map(({ scenario, file }) => ({ name: `opencode ${scenario}/${path.basename(file)}`, common: async () => commonOfExport(file, true) }));

for (const src of sources) {
  t.test(`${src.name}: written as OpenCode, the client loads it and sends the same conversation`, { skip }, async (t) => {
    await checkWrittenSession(t, await src.common());
  });
}
