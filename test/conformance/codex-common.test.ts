/**
 * tx-common against the real Codex CLI: for every recorded rollout, every Codex fixture
 * of fixtures/common, and every corpus rollout the client loads, `tx-common --active` gives, item for item, the conversation
 * `codex exec resume` sends (text, calls, results, reasoning, in order). The differences
 * tx-common(1) documents (DIFFERENCES FROM THE CLIENT, Codex) are taken out by named
 * steps in codex-compare.ts; any other difference fails.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { conformanceSkip } from '../harness/index.js';
import { recordedCodexRollouts, resumeRollout } from '../harness/codex/index.js';
import { corpusFiles, repo } from '../helpers.js';
import { commonOf } from './common-compare.js';
import { CODEX_PROMPT, abortedAtCalls, clientSide, itemsOfCommon, omittedImages } from './codex-compare.js';

const skip = conformanceSkip();
function opensWithSessionMeta(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { type?: unknown }).type === 'session_meta';
  } catch {
    return false;
  }
}

// The hand-written Codex fixtures of fixtures/common: their expected Common is judged by the client too.
const fixtures = readdirSync(repo('fixtures', 'common'))
  .filter((d) => d.startsWith('codex-'))
  .sort()
  .map((d) => repo('fixtures', 'common', d, 'input.jsonl'))
  // One the client must load opens with session_meta (an early rollout's header it no longer reads).
  .map((file) => ({ name: path.relative(repo(), path.dirname(file)), file, recorded: opensWithSessionMeta(file) }));
const rollouts = [
  ...recordedCodexRollouts().map((r) => ({ name: `${r.scenario}/${path.basename(r.file)}`, file: r.file, recorded: true })),
  ...fixtures,
  ...corpusFiles('codex').map((file) => ({ name: path.basename(file), file, recorded: false })),
];

t.test('there are recorded Codex rollouts to compare against', (t) => {
  t.ok(recordedCodexRollouts().length > 0, 'fixtures/recorded-codex holds rollouts (npm run record:codex makes them)');
  t.end();
});

for (const r of rollouts) {
  t.test(`tx-common --active gives the conversation codex exec resume rebuilds from ${r.name}`, { skip }, async (t) => {
    const resumed = await resumeRollout(r.file, { prompt: CODEX_PROMPT });
    if (!resumed.found) {
      // Only corpus files may be out of the client's reach (formats 0.169 refuses); every recorded one must load.
      if (r.recorded) t.fail(`the client did not load the recorded rollout: ${resumed.output.slice(0, 400)}`);
      else t.pass(`the client does not load this corpus file itself, nothing to compare (${resumed.output.trim().split('\n').pop()?.slice(0, 160)})`);
      return;
    }
    let ours = abortedAtCalls(itemsOfCommon(commonOf(r.file)));
    const client = clientSide(resumed.input, ours.length);
    t.ok(client.base, 'the request opens with the base instructions');
    const theirs = abortedAtCalls(client.items);
    ours = omittedImages(ours, theirs);
    t.equal(ours.length, theirs.length, 'as many items as the client');
    for (let i = 0; i < Math.max(ours.length, theirs.length); i++) t.same(ours[i], theirs[i], `item ${i + 1} (${theirs[i]?.type ?? ours[i]?.type})`);
  });
}
