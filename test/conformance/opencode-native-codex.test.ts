/**
 * Every recorded Codex rollout, through tx-parse | tx-common --active and the OpenCode
 * writer, loads in the real OpenCode client with the same conversation
 * (opencode-native-check.ts says how it is judged).
 */
import path from 'node:path';
import t from 'tap';
import { conformanceSkip } from '../harness/index.js';
import { jsonlFiles } from '../harness/fixtures.js';
import { repo } from '../helpers.js';
import { commonOfNative } from './opencode-native-check.js';
import { checkWrittenSession } from './opencode-native-check.js';

const skip = conformanceSkip();
// Every session starts the client two or three times (1-3 s each, far more on a loaded
// machine): the file may run past tap's usual 600 s.
t.setTimeout(60 * 60 * 1000);
const sources = jsonlFiles(repo('fixtures', 'recorded-codex'))
  .filter((f) => !f.includes('/subagents/'))
  .map((file) => ({ name: path.relative(repo('fixtures'), file), common: () => commonOfNative(file) }));

for (const src of sources) {
  t.test(`${src.name}: written as OpenCode, the client loads it and sends the same conversation`, { skip }, async (t) => {
    await checkWrittenSession(t, await src.common());
  });
}
