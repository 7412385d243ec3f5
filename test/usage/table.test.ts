// The table a person sees on a terminal: a row per bucket (or session), their total,
// costs that leave out a model with no price marked +? and the models named.
import t from 'tap';
import { usageTable } from '../../lib/usage/table.js';
import { runBin } from '../helpers.js';

const bucket = (key: string, cost: number, unpriced: Record<string, number> = {}) => ({
  by: 'day',
  key,
  sessions: 2,
  messages: 3,
  tokens: { input_tokens: 1000, output_tokens: 20, cache_read_input_tokens: 5, cache_creation_input_tokens: 0 },
  cost_usd: cost,
  models: {},
  unpriced_models: unpriced,
});

t.test('rows, a total, and +? where a model has no price', async (t) => {
  const text = usageTable([bucket('2026-03-01', 1.5), bucket('2026-03-02', 0.25, { 'my-model': 2 })]);
  const lines = text.trimEnd().split('\n');
  t.match(lines[0], /^day\s+sessions\s+messages\s+input\s+output\s+cache read\s+cache write\s+cost USD$/);
  t.match(lines[2], /^2026-03-01\s+2\s+3\s+1,000\s+20\s+5\s+0\s+1\.50$/);
  t.match(lines[3], /^2026-03-02 .* 0\.25 \+\?$/, 'a cost that leaves a model out');
  t.match(lines[5], /^total\s+6\s+2,000\s+40\s+10\s+0\s+1\.75 \+\?$/, 'the total adds the rows up');
  t.equal(lines[7], '+? leaves out models with no price: my-model (see --prices)');
});

t.test('--table and --ndjson choose the form whatever stdout is', async (t) => {
  const file = 'fixtures/recorded/plain/projects/-tmp-txcript-rec-plain-work/00000000-0000-4000-8000-0000000000a1.jsonl';
  const table = (await runBin('tx-stats', ['--by', 'day', '--table', file])).stdout.toString();
  t.match(table, /^day {2,}sessions/, 'a table into a pipe with --table');
  const ndjson = (await runBin('tx-stats', ['--by', 'day', '--ndjson', file])).stdout.toString();
  t.equal(JSON.parse(ndjson).by, 'day', 'NDJSON with --ndjson');
});
