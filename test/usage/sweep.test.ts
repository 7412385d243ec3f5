// Over every real session (both corpora beside the checkout and every recording):
// each session has a cost, and each model with tokens a cost or a name among the
// unpriced; and buckets add up to the sessions, by day in several time zones, by
// week, month, block, project, model and session, the same with --jobs 1 and 2.
import t from 'tap';
import { runBin } from '../helpers.js';
import { TOKEN_KINDS } from '../../lib/usage/event.js';
import { nanosOf } from '../../lib/usage/cost.js';
import { usageFiles } from './events.js';

type Obj = Record<string, any>;
const lines = (b: Buffer): Obj[] =>
  b
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

const files = usageFiles();
const summaries = lines((await runBin('tx-stats', ['--jobs', '2', ...files])).stdout);

t.test('every session has a cost, and every model with tokens a cost or a named unknown price', async (t) => {
  t.ok(summaries.length >= 25, `${summaries.length} sessions from ${files.length} files`);
  const problems: string[] = [];
  let priced = 0;
  for (const s of summaries) {
    if (typeof s.cost_usd !== 'number') problems.push(`${s.session}: cost_usd ${s.cost_usd}`);
    for (const [model, m] of Object.entries<Obj>(s.tokens.by_model)) {
      const tokens = TOKEN_KINDS.reduce((a, k) => a + m[k], 0);
      if (typeof m.cost_usd === 'number') {
        if (tokens > 0) priced++;
        continue;
      }
      if (m.cost_usd !== null) problems.push(`${s.session} ${model}: cost_usd ${m.cost_usd}`);
      else if (!(s.coverage.unpriced_models[model] > 0)) problems.push(`${s.session} ${model}: null cost, not named in coverage.unpriced_models`);
    }
    for (const model of Object.keys(s.coverage.unpriced_models)) if (s.tokens.by_model[model]?.cost_usd !== null) problems.push(`${s.session} ${model}: named unpriced, has a cost`);
  }
  t.same(problems, [], 'no session without a cost, no model priced at 0 for want of a price');
  t.ok(priced > 20, `${priced} models with tokens priced`);
  const unknown = new Set(summaries.flatMap((s) => Object.keys(s.coverage.unpriced_models)));
  t.comment(`models with no price: ${[...unknown].join(', ') || 'none'}`);
});

/** Messages, each token kind and the cost (in nanodollars) summed over objects. */
function totals(objects: Obj[], messages: string): number[] {
  const out = [0, 0, 0, 0, 0, 0];
  for (const o of objects) {
    out[0] += o[messages];
    TOKEN_KINDS.forEach((k, i) => (out[i + 1] += o.tokens[k]));
    out[5] += nanosOf(o.cost_usd);
  }
  return out;
}

const whole = totals(summaries, 'api_messages');

for (const [by, tz] of [
  ['day', 'UTC'],
  ['day', 'America/Los_Angeles'],
  ['day', 'Asia/Kathmandu'],
  ['week', 'Europe/Paris'],
  ['month', 'UTC'],
  ['hour', 'Asia/Kolkata'],
  ['block', 'UTC'],
  ['project', 'UTC'],
  ['model', 'UTC'],
  ['session', 'UTC'],
] as const) {
  t.test(`--by ${by} --tz ${tz}: the buckets add up to the sessions, the same with --jobs 1 and 2`, async (t) => {
    const one = await runBin('tx-stats', ['--by', by, '--tz', tz, '--jobs', '1', ...files]);
    const two = await runBin('tx-stats', ['--by', by, '--tz', tz, '--jobs', '2', ...files]);
    t.equal(one.status, 0);
    t.ok(two.stdout.equals(one.stdout), '--jobs 2 writes what --jobs 1 writes');
    const buckets = lines(one.stdout);
    t.ok(buckets.every((b) => b.by === by), `${buckets.length} ${by} buckets`);
    t.same(totals(buckets, 'messages'), whole, 'messages, tokens of each kind and cost add up to the sessions');
    const keys = buckets.map((b) => `${b.key}\0${b.harness ?? ''}`);
    t.equal(new Set(keys).size, keys.length, 'one bucket per key');
    if (by === 'session') t.equal(buckets.length, summaries.filter((s) => s.api_messages > 0).length, 'a bucket for each session with messages');
  });
}
