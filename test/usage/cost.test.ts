// Each message is priced as the price database itself prices it: every message of the
// corpus and of the recordings, Claude Code and Codex, against @pydantic/genai-prices'
// own calcPrice (uncached input, output, cache reads, cache writes at 5 minutes and at
// an hour, the tier of the message's context, the prices in force at its time); and
// what is done without a price, or with a --prices file.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';
import { repo } from '../helpers.js';
import { Pricing, messageNanos, nanosOf } from '../../lib/usage/cost.js';
import type { UsageEvent } from '../../lib/usage/event.js';
import { parsePrices, PriceFileError } from '../../lib/usage/price-file.js';
import { databasePrices } from '../../lib/usage/prices.js';
import { eventsOf, usageFiles } from './events.js';

const db = createRequire(import.meta.url)('@pydantic/genai-prices') as typeof import('@pydantic/genai-prices');

/** What the database's own calculator says a message costs, in dollars (null: no price). */
function databaseCost(e: UsageEvent): number | null {
  const u = e.tokens;
  const usage = {
    input_tokens: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens,
    output_tokens: u.output_tokens,
    cache_read_tokens: u.cache_read_input_tokens,
    cache_write_tokens: u.cache_creation_input_tokens,
    cache_write_1h_tokens: e.cache_1h,
  };
  const r = db.calcPrice(usage, e.model, Number.isNaN(e.time) ? undefined : { timestamp: new Date(e.time) });
  return r ? r.total_price : null;
}

const event = (model: string, tokens: Partial<UsageEvent['tokens']>, more: Partial<UsageEvent> = {}): UsageEvent => ({
  model,
  time: Date.parse('2026-06-01T12:00:00Z'),
  tokens: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, ...tokens },
  cache_1h: 0,
  project: null,
  ...more,
});

t.test('every message of the corpus and the recordings costs what the database calculates, to the nanodollar', async (t) => {
  const files = usageFiles();
  const events = eventsOf(files);
  let compared = 0;
  let withHour = 0;
  const off: string[] = [];
  for (const { file, event: e, nanos } of events) {
    const expected = databaseCost(e);
    const zero = Object.values(e.tokens).every((n) => n === 0);
    if (expected === null) {
      if (!(nanos === null || (zero && nanos === 0))) off.push(`${file}: ${e.model} has no price in the database, priced ${nanos}`);
      continue;
    }
    compared++;
    if (e.cache_1h > 0) withHour++;
    if (nanos === null || Math.abs(nanos - expected * 1e9) > 0.5 + expected * 1e-6) off.push(`${file}: ${e.model} ${JSON.stringify(e.tokens)} 1h ${e.cache_1h}: ${nanos} against ${expected * 1e9}`);
  }
  t.same(off.slice(0, 5), [], 'no message priced otherwise');
  t.ok(compared > 2000, `${compared} messages compared`);
  t.ok(files.length === 0 || withHour > 0 || compared > 0, `${withHour} with cache writes for an hour`);
  t.comment(`${events.length} messages from ${files.length} files; ${compared} priced; ${withHour} with 1-hour cache writes`);
});

t.test('a message over a long-context tier is priced at the tier, every kind, as the database does', async (t) => {
  const prices = databasePrices('claude-sonnet-4-5-20250929');
  t.ok(prices, 'the database prices Sonnet 4.5');
  const small = event('claude-sonnet-4-5-20250929', { input_tokens: 100_000, output_tokens: 1000 });
  const large = event('claude-sonnet-4-5-20250929', { input_tokens: 100_000, cache_read_input_tokens: 150_000, output_tokens: 1000 });
  t.equal(messageNanos(prices!, small), nanosOf(databaseCost(small)!), 'under 200k: the base prices');
  t.equal(messageNanos(prices!, large), nanosOf(databaseCost(large)!), 'over 200k of context (input and cache reads): the tier');
  // The same 100k uncached input and 1000 output cost more per token once the context is over the tier.
  t.ok(messageNanos(prices!, large) - messageNanos(prices!, event('claude-sonnet-4-5-20250929', { cache_read_input_tokens: 150_000 })) > messageNanos(prices!, small), 'the tier raises the uncached input and output too');
});

t.test('cache writes for an hour cost the 1-hour price, the rest the 5-minute price', async (t) => {
  const p = new Pricing();
  const five = event('claude-opus-4-6', { cache_creation_input_tokens: 1_000_000 });
  const hour = event('claude-opus-4-6', { cache_creation_input_tokens: 1_000_000 }, { cache_1h: 1_000_000 });
  const half = event('claude-opus-4-6', { cache_creation_input_tokens: 1_000_000 }, { cache_1h: 500_000 });
  t.equal(p.nanos(five), nanosOf(databaseCost(five)!));
  t.equal(p.nanos(hour), nanosOf(databaseCost(hour)!));
  t.ok(p.nanos(hour)! > p.nanos(five)!, 'an hour costs more than five minutes');
  t.equal(p.nanos(half), (p.nanos(hour)! + p.nanos(five)!) / 2, 'half and half costs the mean');
});

t.test('a model without a price costs null, never 0; a message of no tokens costs 0', async (t) => {
  const p = new Pricing();
  t.equal(p.nanos(event('no-such-model-xyz', { input_tokens: 10 })), null);
  t.equal(p.nanos(event('<synthetic>', {})), 0, 'no tokens, nothing to pay, whatever the model');
});

t.test('a --prices file overrides the database, adds models by name or prefix, and can withdraw a price', async (t) => {
  // As read from a file: JSON.parse makes "__proto__" an ordinary key, as a user's file would.
  const file = parsePrices(
    JSON.parse(
      JSON.stringify({
        'claude-opus-4-6': { input_mtok: 1, output_mtok: 2 },
        'my-proxy-*': { input_mtok: { base: 1, tiers: [{ start: 10, price: 3 }] }, output_mtok: 4, cache_read_mtok: 0.5 },
        'my-proxy-special': { input_mtok: 7 },
        'gpt-5.5': null,
      }).replace(/}$/, ',"__proto__":{"input_mtok":9}}'),
    ),
    'p.json',
  );
  const p = new Pricing(file);
  t.equal(p.nanos(event('claude-opus-4-6', { input_tokens: 1_000_000, output_tokens: 1_000_000 })), 3e9, 'the file over the database: $1 + $2');
  t.equal(p.nanos(event('my-proxy-a', { input_tokens: 5, output_tokens: 1 })), 5 * 1000 + 4 * 1000, 'a prefix, under its tier');
  t.equal(p.nanos(event('my-proxy-a', { input_tokens: 5, cache_read_input_tokens: 10 })), 5 * 3000 + 10 * 500, 'over the tier: 15 tokens of context');
  t.equal(p.nanos(event('my-proxy-special', { input_tokens: 1 })), 7000, 'an exact name before a prefix');
  t.equal(p.nanos(event('gpt-5.5', { input_tokens: 1 })), null, 'null withdraws the price');
  t.equal(p.nanos(event('__proto__', { input_tokens: 1 })), 9000, 'a name from the data is an ordinary name');
  t.equal(p.nanos(event('claude-sonnet-4-6', { input_tokens: 1_000_000 })), nanosOf(databaseCost(event('claude-sonnet-4-6', { input_tokens: 1_000_000 }))!), 'others from the database');
  for (const [bad, why] of [
    [[], /not a JSON object/],
    [{ m: { input: 1 } }, /unknown price key "input"/],
    [{ m: { input_mtok: -1 } }, /a price is a number/],
    [{ m: { cache_read_mtok: 1 } }, /needs input_mtok or output_mtok/],
    [{ m: { input_mtok: { base: 1, tiers: [{ start: 1.5, price: 2 }] } } }, /a tier is/],
  ] as const) t.throws(() => parsePrices(bad, 'p.json'), { constructor: PriceFileError, message: why }, JSON.stringify(bad));
});

t.test('prices change at their date: a message is priced at the prices of its own time', async (t) => {
  const prices = databasePrices('claude-opus-4-6');
  const dated = prices!.variants.filter((v) => v.constraint?.type === 'start_date');
  if (dated.length === 0) {
    t.pass('the database has no dated prices for claude-opus-4-6');
    return;
  }
  const from = (dated[0].constraint as { from: number }).from;
  const big = { input_tokens: 300_000, output_tokens: 1000 };
  const before = event('claude-opus-4-6', big, { time: from - 1 });
  const after = event('claude-opus-4-6', big, { time: from });
  t.equal(messageNanos(prices!, before), nanosOf(databaseCost(before)!), 'the day before');
  t.equal(messageNanos(prices!, after), nanosOf(databaseCost(after)!), 'the day it changed');
  t.not(messageNanos(prices!, before), messageNanos(prices!, after), 'the prices differ');
});

t.test('the man page, the help and package.json name the database version installed', async (t) => {
  const pinned = JSON.parse(readFileSync(repo('package.json'), 'utf8')).dependencies['@pydantic/genai-prices'];
  t.match(pinned, /^\d+\.\d+\.\d+$/, 'pinned to one version, so the numbers are reproducible');
  const installed = JSON.parse(readFileSync(repo('node_modules', '@pydantic', 'genai-prices', 'package.json'), 'utf8')).version;
  t.equal(installed, pinned, 'the version installed');
  t.ok(readFileSync(repo('man', 'tx-stats.1'), 'utf8').includes(`@pydantic/genai\\-prices ${pinned}`), 'tx-stats(1) names it');
  t.ok(readFileSync(repo('lib', 'commands', 'stats.ts'), 'utf8').includes(`@pydantic/genai-prices ${pinned}`), 'tx-stats --help names it');
});

t.test('tx-stats --prices FILE: every message of a model at the prices of the file, on workers too', async (t) => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { runBin } = await import('../helpers.js');
  const file = join(mkdtempSync(join(tmpdir(), 'tx-stats-prices-')), 'prices.json');
  // A dollar a million tokens of every kind: cache reads and writes are priced as input.
  writeFileSync(file, JSON.stringify({ 'claude-opus-5-5': { input_mtok: 1, output_mtok: 1 } }));
  const sessions = ['plain', 'tools'].map((s) => repo('fixtures', 'recorded', s));
  const { readdirSync } = await import('node:fs');
  const files = sessions.flatMap((d) => readdirSync(join(d, 'projects'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')).map((f) => join(d, 'projects', f)));
  const r = await runBin('tx-stats', ['--jobs', '2', '--prices', file, ...files]);
  t.equal(r.status, 0);
  const summaries = r.stdout.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  t.ok(summaries.length >= 2, `${summaries.length} sessions`);
  for (const s of summaries) {
    const m = s.tokens.by_model['claude-opus-5-5'];
    if (!m) continue;
    const tokens = m.input_tokens + m.output_tokens + m.cache_read_input_tokens + m.cache_creation_input_tokens;
    t.equal(nanosOf(m.cost_usd), tokens * 1000, `${s.session}: ${tokens} tokens at $1 a million`);
  }
  const bad = await runBin('tx-stats', ['--prices', file + '.missing', files[0]]);
  t.equal(bad.status, 2, 'a price file that cannot be read is a usage error');
});
