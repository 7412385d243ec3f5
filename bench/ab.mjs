#!/usr/bin/env node
// Two builds of the tools measured in turn on the same pipelines: each round runs every
// row with the build before, then with the build after, so that a slower minute of the
// machine weighs on both alike. Prints the median wall time of each and their ratio
// (before / after: above 1 is a gain). This machine's speed moves from one hour to the
// next by more than most changes, so compare builds this way, not across bench runs.
//
//   git worktree add /tmp/before HEAD~1 && (cd /tmp/before && npm ci && npm run build)
//   node bench/ab.mjs --before /tmp/before/build            the build after: ./build
//   node bench/ab.mjs --before A/build --after B/build --runs 7 --mb 50
//
// The corpus is bench/out/c<MB>.jsonl, as bench/run.mjs makes it (run that first).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = minimist(process.argv.slice(2), { string: ['before', 'after'], default: { after: join(root, 'build'), runs: 5, mb: 50 } });
const corpus = join(root, 'bench', 'out', `c${args.mb}.jsonl`);
if (!args.before || !existsSync(join(args.before, 'bin', 'tx-parse.js')) || !existsSync(join(args.after, 'bin', 'tx-parse.js'))) {
  console.error('usage: node bench/ab.mjs --before BUILD_DIR [--after BUILD_DIR] [--runs N] [--mb MB] (a build dir holds bin/tx-parse.js)');
  process.exit(2);
}
if (!existsSync(corpus)) {
  console.error(`bench/ab: no ${corpus}: run node bench/run.mjs --mb ${args.mb} --only corpus first`);
  process.exit(2);
}
// As in bench/run.mjs: node reads the bundle at every start-up, more than a tool's own start.
delete process.env.NODE_EXTRA_CA_CERTS;

const f = JSON.stringify(corpus);
const rows = {
  'tx-parse f': (b) => `node ${b}/tx-parse.js ${f} > /dev/null`,
  'tx-parse f | tx-native': (b) => `node ${b}/tx-parse.js ${f} | node ${b}/tx-native.js > /dev/null`,
  'cat f | tx-parse | tx-filter --human-prompts': (b) => `cat ${f} | node ${b}/tx-parse.js | node ${b}/tx-filter.js --human-prompts > /dev/null`,
  'tx-parse f | tx-common': (b) => `node ${b}/tx-parse.js ${f} | node ${b}/tx-common.js > /dev/null`,
  'tx-parse f | tx-stats': (b) => `node ${b}/tx-parse.js ${f} | node ${b}/tx-stats.js > /dev/null`,
  'tx-parse f | cat': (b) => `node ${b}/tx-parse.js ${f} | cat > /dev/null`,
};
const builds = { before: JSON.stringify(join(resolve(args.before), 'bin')), after: JSON.stringify(join(resolve(args.after), 'bin')) };
const times = new Map(Object.keys(rows).map((row) => [row, { before: [], after: [] }]));
for (let round = 0; round < args.runs; round++) {
  for (const [row, command] of Object.entries(rows)) {
    for (const [which, bin] of Object.entries(builds)) {
      const start = process.hrtime.bigint();
      const r = spawnSync('bash', ['-o', 'pipefail', '-c', command(bin)], { stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0) {
        console.error(`bench/ab: ${row} (${which}) failed with status ${r.status}`);
        process.exit(1);
      }
      times.get(row)[which].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const range = (a) => `${Math.min(...a).toFixed(0)}-${Math.max(...a).toFixed(0)}`;
console.log(`${corpus}, ${args.runs} rounds, median wall ms [range]`);
console.log(`${'pipeline'.padEnd(46)}${'before'.padStart(18)}${'after'.padStart(18)}  before/after`);
for (const [row, t] of times) {
  const cell = (a) => `${median(a).toFixed(0)} [${range(a)}]`.padStart(18);
  console.log(`${row.padEnd(46)}${cell(t.before)}${cell(t.after)}  ${(median(t.before) / median(t.after)).toFixed(2)}`);
}
