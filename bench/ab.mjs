#!/usr/bin/env node
// Two builds of the tools measured in turn on the same pipelines: each round runs every
// row with the build before, then with the build after, so that a slower minute of the
// machine weighs on both alike. Prints the median wall time of each and their ratio
// (before / after: above 1 is a gain), and the median peak RSS of the largest process
// (with GNU time, when /usr/bin/time is there). This machine's speed moves from one hour to the
// next by more than most changes, so compare builds this way, not across bench runs.
//
//   git worktree add /tmp/before HEAD~1 && (cd /tmp/before && npm ci && npm run build)
//   node bench/ab.mjs --before /tmp/before/build            the build after: ./build
//   node bench/ab.mjs --before A/build --after B/build --runs 7 --mb 50
//   node bench/ab.mjs --before A/build --rows jobs         only the rows whose name matches
//   node bench/ab.mjs --before A/build --store 3000        also the --jobs tools on the first
//                                                          3,000 files of the bench's store
//
// The corpus is bench/out/c<MB>.jsonl and its 16 parts, as bench/run.mjs makes them
// (run `node bench/run.mjs --mb 50 --parts 16 --only corpus` first).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = minimist(process.argv.slice(2), { string: ['before', 'after', 'rows'], default: { after: join(root, 'build'), runs: 5, mb: 50, store: 0 } });
const corpus = join(root, 'bench', 'out', `c${args.mb}.jsonl`);
if (!args.before || !existsSync(join(args.before, 'bin', 'tx-parse.js')) || !existsSync(join(args.after, 'bin', 'tx-parse.js'))) {
  console.error('usage: node bench/ab.mjs --before BUILD_DIR [--after BUILD_DIR] [--runs N] [--mb MB] [--rows REGEX] [--store N] (a build dir holds bin/tx-parse.js)');
  process.exit(2);
}
const parts = `${corpus}.parts16`;
if (!existsSync(corpus) || !existsSync(parts)) {
  console.error(`bench/ab: no ${corpus} or its parts: run node bench/run.mjs --mb ${args.mb} --parts 16 --only corpus first`);
  process.exit(2);
}
// As in bench/run.mjs: node reads the bundle at every start-up, more than a tool's own start.
delete process.env.NODE_EXTRA_CA_CERTS;

const f = JSON.stringify(corpus);
const ps = readdirSync(parts).sort().map((name) => JSON.stringify(join(parts, name))).join(' ');
const rows = {
  'tx-parse f': (b) => `node ${b}/tx-parse.js ${f} > /dev/null`,
  'tx-parse f | tx-native': (b) => `node ${b}/tx-parse.js ${f} | node ${b}/tx-native.js > /dev/null`,
  'cat f | tx-parse | tx-filter --human-prompts': (b) => `cat ${f} | node ${b}/tx-parse.js | node ${b}/tx-filter.js --human-prompts > /dev/null`,
  'tx-parse f | tx-common': (b) => `node ${b}/tx-parse.js ${f} | node ${b}/tx-common.js > /dev/null`,
  'tx-parse f | tx-stats': (b) => `node ${b}/tx-parse.js ${f} | node ${b}/tx-stats.js > /dev/null`,
  'tx-parse f | cat': (b) => `node ${b}/tx-parse.js ${f} | cat > /dev/null`,
  'tx-filter --human-prompts f': (b) => `node ${b}/tx-filter.js --human-prompts ${f} > /dev/null 2>&1`,
  'tx-common f': (b) => `node ${b}/tx-common.js ${f} > /dev/null 2>&1`,
  'tx-stats f': (b) => `node ${b}/tx-stats.js ${f} > /dev/null 2>&1`,
  'tx-parse --jobs 2, 16 files': (b) => `node ${b}/tx-parse.js --jobs 2 ${ps} > /dev/null`,
  'tx-filter --human-prompts --jobs 2, 16 files': (b) => `node ${b}/tx-filter.js --human-prompts --jobs 2 ${ps} > /dev/null 2>&1`,
  'tx-common --jobs 2, 16 files': (b) => `node ${b}/tx-common.js --jobs 2 ${ps} > /dev/null 2>&1`,
  'tx-stats --jobs 2, 16 files': (b) => `node ${b}/tx-stats.js --jobs 2 ${ps} > /dev/null 2>&1`,
};
// --store N: the first N files of the store bench/run.mjs builds (--only store), through xargs as a user would.
const storeList = join(tmpdir(), `tx-ab-${process.pid}.list`);
if (args.store > 0) {
  const list = readdirSync(join(root, 'bench', 'out')).find((name) => /^store-.*\.list$/.test(name));
  if (!list) {
    console.error('bench/ab: no store in bench/out: run node bench/run.mjs --only store first');
    process.exit(2);
  }
  const files = readFileSync(join(root, 'bench', 'out', list), 'utf8').split('\n').filter(Boolean).slice(0, args.store);
  writeFileSync(storeList, files.join('\n') + '\n');
  for (const [tool, flags] of [['tx-parse', ''], ['tx-filter', ' --human-prompts'], ['tx-stats', ''], ['tx-common', '']]) {
    rows[`${tool}${flags} --jobs 2, store of ${files.length}`] = (b) => `xargs -d '\\n' -a ${JSON.stringify(storeList)} node ${b}/${tool}.js${flags} --jobs 2 > /dev/null 2>&1`;
  }
}
for (const row of Object.keys(rows)) if (args.rows && !new RegExp(args.rows).test(row)) delete rows[row];
const gnuTime = existsSync('/usr/bin/time');
const rssFile = join(tmpdir(), `tx-ab-${process.pid}.rss`);
const builds = { before: JSON.stringify(join(resolve(args.before), 'bin')), after: JSON.stringify(join(resolve(args.after), 'bin')) };
const times = new Map(Object.keys(rows).map((row) => [row, { before: [], after: [] }]));
const peaks = new Map(Object.keys(rows).map((row) => [row, { before: [], after: [] }]));
for (let round = 0; round < args.runs; round++) {
  for (const [row, command] of Object.entries(rows)) {
    for (const [which, bin] of Object.entries(builds)) {
      const start = process.hrtime.bigint();
      // GNU time's %M is the largest peak of the processes bash waited for.
      const argv = ['bash', '-o', 'pipefail', '-c', command(bin)];
      const r = gnuTime ? spawnSync('/usr/bin/time', ['-f', '%M', '-o', rssFile, ...argv], { stdio: ['ignore', 'ignore', 'inherit'] }) : spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0) {
        console.error(`bench/ab: ${row} (${which}) failed with status ${r.status}`);
        process.exit(1);
      }
      times.get(row)[which].push(Number(process.hrtime.bigint() - start) / 1e6);
      if (gnuTime) peaks.get(row)[which].push(Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024);
    }
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const range = (a) => `${Math.min(...a).toFixed(0)}-${Math.max(...a).toFixed(0)}`;
if (gnuTime) rmSync(rssFile, { force: true });
rmSync(storeList, { force: true });
console.log(`${corpus}, ${args.runs} rounds, median wall ms [range]${gnuTime ? ', median peak RSS MB' : ''}`);
console.log(`${'pipeline'.padEnd(46)}${'before'.padStart(18)}${'after'.padStart(18)}  before/after${gnuTime ? '  RSS before  after' : ''}`);
for (const [row, t] of times) {
  const cell = (a) => `${median(a).toFixed(0)} [${range(a)}]`.padStart(18);
  const p = peaks.get(row);
  const rss = gnuTime ? `${median(p.before).toFixed(0).padStart(12)}${median(p.after).toFixed(0).padStart(7)}` : '';
  console.log(`${row.padEnd(46)}${cell(t.before)}${cell(t.after)}  ${(median(t.before) / median(t.after)).toFixed(2).padStart(12)}${rss}`);
}
