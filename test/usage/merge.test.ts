// tx-stats --merge of per-file outputs equals one run over all the files, byte for
// byte (a property, over random sets of real files and every grouping): summaries
// merged in file order, buckets in any order, and hour buckets into 5-hour blocks.
import t from 'tap';
import { prng, runTool } from '../helpers.js';
import { statsTool } from '../../lib/commands/stats.js';
import { usageFiles } from './events.js';

const files = usageFiles();
const stats = async (args: string[], input: (Buffer | string)[] = []) => {
  const r = await runTool(statsTool, ['--ndjson', '--tz', 'Europe/Berlin', '--jobs', '1', ...args], input);
  if (r.status !== 0) throw new Error(`tx-stats ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** Each file's own output, computed once per grouping. */
const perFile = new Map<string, Buffer[]>();
async function outputs(by: string | null): Promise<Buffer[]> {
  const key = by ?? '';
  if (!perFile.has(key)) {
    const list: Buffer[] = [];
    for (const f of files) list.push(await stats([...(by ? ['--by', by] : []), f]));
    perFile.set(key, list);
  }
  return perFile.get(key)!;
}

const SEED = Number(process.env.TX_SEED ?? 20261205);
const random = prng(SEED);
const groupings = [null, 'day', 'week', 'month', 'hour', 'block', 'project', 'model', 'session'];

t.test(`merged per-file outputs equal the whole, for random sets of files (seed ${SEED})`, async (t) => {
  t.ok(files.length >= 20, `${files.length} files`);
  for (let round = 0; round < 24; round++) {
    const by = groupings[round % groupings.length];
    const chosen = files.map((f, i) => [f, i] as const).filter(() => random() < 0.5);
    const whole = await stats([...(by ? ['--by', by] : []), ...chosen.map(([f]) => f)]);
    // Blocks do not merge; the hours they are made of do.
    const parts = await outputs(by === 'block' ? 'hour' : by);
    let pieces = chosen.map(([, i]) => parts[i]);
    // Summaries keep the order files were read in; buckets come in any order.
    if (by !== null) pieces = pieces.map((p) => [random(), p] as const).sort((a, b) => a[0] - b[0]).map(([, p]) => p);
    const merged = await stats(['--merge', ...(by === 'block' ? ['--by', 'block'] : [])], pieces);
    t.ok(merged.equals(whole), `${by ?? 'summaries'} of ${chosen.length} files: ${whole.length} bytes, the same`);
  }
});

t.test('--merge says what it cannot merge, and skips it', async (t) => {
  const block = await stats(['--by', 'block', files[0]]);
  const r = await runTool(statsTool, ['--merge'], [block, 'not json\n', '{"a":1}\n']);
  t.match(r.stderr, /blocks do not merge exactly/);
  t.match(r.stderr, /stdin:\d+: not JSON, skipped/);
  t.match(r.stderr, /not a tx-stats session summary or bucket/);
  t.equal(r.stdout.length, 0, 'nothing merged');
});
