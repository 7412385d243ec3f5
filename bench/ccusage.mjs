#!/usr/bin/env node
// tx-stats against ccusage on the same real sessions: tokens per session and per day,
// side by side, every difference explained; costs for the models both price.
//
//   npm run build
//   (mkdir -p /tmp/txcript-ccusage && cd /tmp/txcript-ccusage && npm install ccusage@17.2.1)
//   node bench/ccusage.mjs --ccusage /tmp/txcript-ccusage/node_modules/.bin/ccusage [--corpus DIR]
//
// ccusage is run as its README says (CLAUDE_CONFIG_DIR=DIR ccusage session --json --offline)
// on a scratch CLAUDE_CONFIG_DIR/projects/<file>/<file>.jsonl layout (ccusage's session is the
// folder a file is in), under env -i, TZ=UTC. Each difference is explained by recounting the
// files two ways here, independently of both tools: ccusage's way (the first line of each
// message.id + requestId, across all files, in the order of their first timestamp) and
// the messages' final usage (the last line of each message.id within its file).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const ccusage = opt('--ccusage');
const corpus = opt('--corpus', join(ROOT, '..', 'shared', 'corpus', 'claude-code'));
if (!ccusage) {
  process.stderr.write('usage: node bench/ccusage.mjs --ccusage PATH/TO/ccusage [--corpus DIR]\n');
  process.exit(2);
}
const files = readdirSync(corpus).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(corpus, f));
const scratch = mkdtempSync(join(tmpdir(), 'txcript-ccusage-'));
for (const f of files) {
  const dir = join(scratch, 'claude', 'projects', basename(f, '.jsonl'));
  mkdirSync(dir, { recursive: true });
  copyFileSync(f, join(dir, basename(f)));
}
const env = { PATH: '/usr/bin:/bin', HOME: scratch, TZ: 'UTC', CLAUDE_CONFIG_DIR: join(scratch, 'claude') };
const run = (cmd, argv, e = env) => execFileSync(cmd, argv, { env: e, maxBuffer: 1 << 28, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const ccSessions = JSON.parse(run(ccusage, ['session', '--json', '--offline'])).sessions;
const ccDaily = JSON.parse(run(ccusage, ['daily', '--json', '--offline', '--timezone', 'UTC'])).daily;
const stats = (argv) => run(process.execPath, [join(ROOT, 'build', 'bin', 'tx-stats.js'), '--ndjson', '--jobs', '1', ...argv], process.env).split('\n').filter(Boolean).map((l) => JSON.parse(l));
rmSync(scratch, { recursive: true, force: true });

const KINDS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'];
const CC = { input_tokens: 'inputTokens', output_tokens: 'outputTokens', cache_read_input_tokens: 'cacheReadTokens', cache_creation_input_tokens: 'cacheCreationTokens' };
const zero = () => Object.fromEntries(KINDS.map((k) => [k, 0]));
const add = (a, u) => KINDS.forEach((k) => (a[k] += typeof u[k] === 'number' ? u[k] : 0));

// The recount: each file's lines with usage, as ccusage reads them and as the final usage.
const lines = new Map();
for (const f of files) {
  const list = [];
  for (const text of readFileSync(f, 'utf8').split('\n')) {
    let l;
    try {
      l = JSON.parse(text);
    } catch {
      continue;
    }
    const u = l?.message?.usage;
    if (!u || typeof u.input_tokens !== 'number' || typeof u.output_tokens !== 'number' || typeof l.timestamp !== 'string' || Number.isNaN(Date.parse(l.timestamp))) continue;
    list.push(l);
  }
  lines.set(f, list);
}
const earliest = (f) => Math.min(...lines.get(f).map((l) => Date.parse(l.timestamp)), Infinity);
const { Pricing } = await import(join(ROOT, 'build', 'lib', 'usage', 'cost.js'));
const pricing = new Pricing();
/** A line's usage priced by tx-stats' rules; with `hour` false its 1-hour cache writes as 5-minute ones, as ccusage prices them. */
const priceLine = (l, hour) => {
  const u = l.message.usage;
  const tokens = Object.fromEntries(KINDS.map((k) => [k, typeof u[k] === 'number' ? u[k] : 0]));
  const cache1h = hour ? (u.cache_creation?.ephemeral_1h_input_tokens ?? 0) : 0;
  return pricing.nanos({ model: l.message.model ?? 'unknown', time: Date.parse(l.timestamp), tokens, cache_1h: cache1h, project: null });
};
/** By model: ccusage's own lines priced by tx-stats, with and without the 1-hour price of cache writes. */
const ccLinesPriced = new Map();
const seen = new Set();
const ccWay = new Map();
const ccDropped = new Map();
for (const f of [...files].sort((a, b) => earliest(a) - earliest(b))) {
  const kept = zero();
  const dropped = zero();
  for (const l of lines.get(f)) {
    const hash = l.message.id != null && l.requestId != null ? `${l.message.id}:${l.requestId}` : null;
    if (hash && seen.has(hash)) {
      // Dropped: either a later line of a message already counted (ccusage keeps the first), or its copy in another file.
      if (!lines.get(f).some((o) => o !== l && o.message.id === l.message.id && o.requestId === l.requestId && lines.get(f).indexOf(o) < lines.get(f).indexOf(l))) add(dropped, l.message.usage);
      continue;
    }
    if (hash) seen.add(hash);
    add(kept, l.message.usage);
    const e = ccLinesPriced.get(l.message.model) ?? { hour: 0, five: 0 };
    e.hour += priceLine(l, true) ?? 0;
    e.five += priceLine(l, false) ?? 0;
    ccLinesPriced.set(l.message.model, e);
  }
  ccWay.set(f, kept);
  ccDropped.set(f, dropped);
}
const firstVsLast = new Map();
for (const f of files) {
  // Per message id (within the file): what its last line says beyond its first.
  const first = new Map();
  const last = new Map();
  for (const l of lines.get(f)) {
    if (l.type !== 'assistant' || typeof l.message.id !== 'string') continue;
    if (!first.has(l.message.id)) first.set(l.message.id, l.message.usage);
    last.set(l.message.id, l.message.usage);
  }
  const grew = zero();
  for (const [id, u] of last) KINDS.forEach((k) => (grew[k] += (u[k] ?? 0) - (first.get(id)[k] ?? 0)));
  firstVsLast.set(f, grew);
}

// Ours: one tx-stats run per file (a file is one session folder for ccusage).
const ours = new Map();
const ourCost = new Map();
for (const f of files) {
  const t = zero();
  let cost = 0;
  for (const s of stats([f])) {
    add(t, s.tokens);
    cost += s.cost_usd;
  }
  ours.set(f, t);
  ourCost.set(f, cost);
}
const ccBy = new Map(ccSessions.map((s) => [s.sessionId, s]));
const fmt = (n) => n.toLocaleString('en-US');
const out = [];
out.push('### Tokens per session (corpus file): ccusage 17.2.1 and tx-stats', '');
out.push('| session file | output ccusage | output tx-stats | difference | explained: later lines of a message (ccusage keeps the first) | explained: copies in other files (ccusage dedups across files) | input+cache ccusage | input+cache tx-stats | cost ccusage | cost tx-stats |');
out.push('|---|---|---|---|---|---|---|---|---|---|');
const sum = { cc: zero(), ours: zero(), grew: 0, copies: 0, ccCost: 0, ourCost: 0 };
let unexplained = 0;
let predicted = 0;
for (const f of files) {
  const name = basename(f, '.jsonl');
  const cc = ccBy.get(name);
  const c = zero();
  if (cc) for (const k of KINDS) c[k] = cc[CC[k]];
  const o = ours.get(f);
  add(sum.cc, c);
  add(sum.ours, o);
  // ccusage's counts equal the recount of its way: the explanation is the difference between the two ways.
  if (KINDS.every((k) => ccWay.get(f)[k] === c[k])) predicted++;
  const grew = firstVsLast.get(f);
  const copies = zero();
  // A message copied from an earlier file (a resumed session): counted in both files here, once by ccusage.
  KINDS.forEach((k) => (copies[k] = o[k] - grew[k] - c[k]));
  sum.grew += grew.output_tokens;
  sum.copies += copies.output_tokens;
  const rest = (o.output_tokens - c.output_tokens) - grew.output_tokens - copies.output_tokens;
  if (rest !== 0) unexplained++;
  const inCache = (t) => t.input_tokens + t.cache_read_input_tokens + t.cache_creation_input_tokens;
  sum.ccCost += cc?.totalCost ?? 0;
  sum.ourCost += ourCost.get(f);
  if (c.output_tokens === o.output_tokens && inCache(c) === inCache(o) && !cc?.totalCost && !ourCost.get(f)) continue;
  out.push(`| ${name.slice(0, 48)} | ${fmt(c.output_tokens)} | ${fmt(o.output_tokens)} | ${fmt(o.output_tokens - c.output_tokens)} | ${fmt(grew.output_tokens)} | ${fmt(copies.output_tokens)} | ${fmt(inCache(c))} | ${fmt(inCache(o))} | ${(cc?.totalCost ?? 0).toFixed(4)} | ${ourCost.get(f).toFixed(4)} |`);
}
out.push(`| **all ${files.length}** | **${fmt(sum.cc.output_tokens)}** | **${fmt(sum.ours.output_tokens)}** | ${fmt(sum.ours.output_tokens - sum.cc.output_tokens)} | ${fmt(sum.grew)} | ${fmt(sum.copies)} | ${fmt(sum.cc.input_tokens + sum.cc.cache_read_input_tokens + sum.cc.cache_creation_input_tokens)} | ${fmt(sum.ours.input_tokens + sum.ours.cache_read_input_tokens + sum.ours.cache_creation_input_tokens)} | ${sum.ccCost.toFixed(2)} | ${sum.ourCost.toFixed(2)} |`, '');
out.push(`ccusage's counts equal the recount of its rule for ${predicted} of ${files.length} files; differences left unexplained: ${unexplained}.`, '');
out.push(`Input, cache reads and cache writes by kind, all files: ccusage ${KINDS.filter((k) => k !== 'output_tokens').map((k) => `${k} ${fmt(sum.cc[k])}`).join(', ')}; tx-stats ${KINDS.filter((k) => k !== 'output_tokens').map((k) => `${k} ${fmt(sum.ours[k])}`).join(', ')}.`, '');

// Per day (UTC).
const ourDays = new Map(stats(['--by', 'day', '--tz', 'UTC', ...files]).map((b) => [b.key, b]));
out.push('### Tokens and cost per day (UTC)', '', '| day | output ccusage | output tx-stats | input+cache ccusage | input+cache tx-stats | cost ccusage | cost tx-stats |', '|---|---|---|---|---|---|---|');
for (const d of ccDaily) {
  const o = ourDays.get(d.date);
  out.push(`| ${d.date} | ${fmt(d.outputTokens)} | ${fmt(o?.tokens.output_tokens ?? 0)} | ${fmt(d.inputTokens + d.cacheReadTokens + d.cacheCreationTokens)} | ${fmt(o ? o.tokens.input_tokens + o.tokens.cache_read_input_tokens + o.tokens.cache_creation_input_tokens : 0)} | ${d.totalCost.toFixed(4)} | ${(o?.cost_usd ?? 0).toFixed(4)} |`);
}
out.push('', `Days only tx-stats has: ${[...ourDays.keys()].filter((k) => !ccDaily.some((d) => d.date === k)).join(', ') || 'none'}.`, '');

// Costs by model, for the models both price (ccusage prices a model it does not know at 0).
const ourModels = new Map(stats(['--by', 'model', ...files]).map((b) => [b.key, b]));
const ccModels = new Map();
for (const s of ccSessions) for (const m of s.modelBreakdowns) {
  const e = ccModels.get(m.modelName) ?? { cost: 0, output: 0, tokens: 0 };
  e.cost += m.cost;
  e.output += m.outputTokens;
  e.tokens += m.inputTokens + m.outputTokens + m.cacheReadTokens + m.cacheCreationTokens;
  ccModels.set(m.modelName, e);
}
out.push('### Cost by model', '', "The middle columns price ccusage's own lines (the first of each message) by tx-stats' rules: with cache writes all at the 5-minute price, as ccusage prices them, then at their own duration. So the steps from ccusage's cost to tx-stats' are: the price data, the cache duration, the messages' final tokens.", '', '| model | cost ccusage | its lines, our prices, 5m writes | its lines, our prices, 1h writes | cost tx-stats | output ccusage | output tx-stats | note |', '|---|---|---|---|---|---|---|---|');
for (const [m, c] of [...ccModels].sort()) {
  const o = ourModels.get(m);
  const note = c.cost === 0 && c.tokens > 0 ? 'ccusage has no offline price: priced at 0' : o?.cost_usd === null ? 'no price in the database' : '';
  const p = ccLinesPriced.get(m) ?? { hour: 0, five: 0 };
  out.push(`| ${m} | ${c.cost.toFixed(4)} | ${(p.five / 1e9).toFixed(4)} | ${(p.hour / 1e9).toFixed(4)} | ${o ? (o.cost_usd === null ? 'null' : o.cost_usd.toFixed(4)) : '-'} | ${fmt(c.output)} | ${fmt(o?.tokens.output_tokens ?? 0)} | ${note} |`);
}
process.stdout.write(out.join('\n') + '\n');
