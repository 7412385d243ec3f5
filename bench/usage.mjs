#!/usr/bin/env node
// tx-stats --by day against ccusage daily on one generated store, in the same run:
// wall seconds, CPU seconds and peak RSS of each, medians of --runs, and whether both
// counted the same days.
//
//   npm run build
//   (mkdir -p /tmp/txcript-ccusage && cd /tmp/txcript-ccusage && npm install ccusage@17.2.1)
//   node bench/usage.mjs --ccusage /tmp/txcript-ccusage/node_modules/.bin/ccusage [--sessions 2000 --mb 400 --runs 3]
//
// The store is the corpus generator's (../shared/bench/gen-corpus.mjs, or --gen) cut into
// sessions by bench/store.mjs, laid out as CLAUDE_CONFIG_DIR/projects/<project>/<id>.jsonl
// so that ccusage reads it (under env -i, --offline) and tx-stats is given its project folders.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';
import { buildStore } from './store.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = minimist(process.argv.slice(2), { default: { sessions: 2000, mb: 400, runs: 3, seed: 1, jobs: 2, gen: join(root, '..', 'shared', 'bench', 'gen-corpus.mjs') } });
if (!args.ccusage || !existsSync(args.ccusage)) {
  console.error('usage: node bench/usage.mjs --ccusage PATH/TO/ccusage [--sessions N] [--mb N] [--runs N] [--store DIR]');
  process.exit(2);
}
if (!existsSync(args.gen)) {
  console.error(`bench: no corpus generator at ${args.gen} (use --gen FILE)`);
  process.exit(2);
}
const config = args.store ?? join(root, 'bench', 'out', `usage-${args.sessions}-${args.mb}`);
const projects = join(config, 'projects');
if (!existsSync(projects)) {
  mkdirSync(projects, { recursive: true });
  console.error(`bench: building ${args.sessions} sessions of ${args.mb} MB in ${projects}`);
  await buildStore({ store: projects, sessions: args.sessions, mb: args.mb, seed: args.seed, gen: args.gen });
}
const dirs = readdirSync(projects).sort().map((d) => join(projects, d));
const size = Number(execFileSync('du', ['-sb', projects], { encoding: 'utf8' }).split('\t')[0]) / 1e6;
const files = dirs.reduce((n, d) => n + readdirSync(d).filter((f) => f.endsWith('.jsonl')).length, 0);

/** Wall, user+system CPU seconds and peak RSS (MB) of one command, and its output. */
function timed(argv, env) {
  // execFileSync gives stderr only on failure: /usr/bin/time writes to a file instead.
  const tf = join(config, 'time.txt');
  const t0 = process.hrtime.bigint();
  const out = execFileSync('/usr/bin/time', ['-o', tf, '-f', '%U %S %M', ...argv], { env, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const [u, s, m] = execFileSync('tail', ['-1', tf], { encoding: 'utf8' }).trim().split(' ').map(Number);
  return { wall, cpu: u + s, rss: m / 1024, out };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cases = [
  ['tx-stats --by day', () => timed([process.execPath, join(root, 'build', 'bin', 'tx-stats.js'), '--by', 'day', '--tz', 'UTC', '--ndjson', '--jobs', String(args.jobs), ...dirs], process.env)],
  ['tx-stats --by day --jobs 1', () => timed([process.execPath, join(root, 'build', 'bin', 'tx-stats.js'), '--by', 'day', '--tz', 'UTC', '--ndjson', '--jobs', '1', ...dirs], process.env)],
  ['ccusage daily --json --offline', () => timed([args.ccusage, 'daily', '--json', '--offline', '--timezone', 'UTC'], { PATH: '/usr/bin:/bin', HOME: config, TZ: 'UTC', CLAUDE_CONFIG_DIR: config })],
];
const results = new Map(cases.map(([name]) => [name, []]));
let outputs = {};
for (let i = 0; i < args.runs; i++) {
  // Interleaved, so a slow minute of this shared machine falls on all of them.
  for (const [name, run] of cases) {
    const r = run();
    results.get(name).push(r);
    outputs[name] = r.out;
  }
}
const ours = outputs['tx-stats --by day'].split('\n').filter(Boolean).map((l) => JSON.parse(l));
const theirs = JSON.parse(outputs['ccusage daily --json --offline']).daily;
console.log(`\n${files} sessions, ${size.toFixed(0)} MB (${projects}); medians of ${args.runs}; load average ${execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' ')}`);
console.log('| command | wall s | CPU s | peak RSS MB | days | output tokens | cost USD |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, rs] of results) {
  const isOurs = name.startsWith('tx-stats');
  const days = isOurs ? ours.length : theirs.length;
  const output = isOurs ? ours.reduce((a, b) => a + b.tokens.output_tokens, 0) : theirs.reduce((a, d) => a + d.outputTokens, 0);
  const cost = isOurs ? ours.reduce((a, b) => a + b.cost_usd, 0) : theirs.reduce((a, d) => a + d.totalCost, 0);
  console.log(`| \`${name}\` | ${median(rs.map((r) => r.wall)).toFixed(2)} | ${median(rs.map((r) => r.cpu)).toFixed(2)} | ${median(rs.map((r) => r.rss)).toFixed(0)} | ${days} | ${output.toLocaleString('en-US')} | ${cost.toFixed(2)} |`);
}
