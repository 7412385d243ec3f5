#!/usr/bin/env node
// tx-render on generated sessions: throughput and peak memory against `cat` and
// `jq -c .` in the same run, on a 50 MB and a 200 MB session (memory should not grow
// with the session), and whether Chromium opens the 200 MB session's page.
//
//   npm run bench:render
//   node bench/render.mjs --mb 200 --runs 1 --no-open
//   node bench/render.mjs --open-only           open the page made by an earlier run
//
// The corpus generator lives beside the repository (../shared/bench/gen-corpus.mjs) or
// is named with --gen. Corpora and pages are kept in bench/out/.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = minimist(process.argv.slice(2), { boolean: ['open', 'open-only'], default: { mb: 200, runs: 1, open: true, gen: join(root, '..', 'shared', 'bench', 'gen-corpus.mjs') } });
const out = join(root, 'bench', 'out');
mkdirSync(out, { recursive: true });
if (!existsSync(args.gen)) {
  console.error(`bench: no corpus generator at ${args.gen} (use --gen FILE)`);
  process.exit(2);
}

function corpus(mb) {
  const file = join(out, `c${mb}.jsonl`);
  if (!existsSync(file)) {
    console.error(`bench: generating ${file}`);
    execFileSync('bash', ['-c', `node "${args.gen}" --mb ${mb} --seed 1 > "${file}"`], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return file;
}

const bin = (name) => `node "${join(root, 'build', 'bin', `${name}.js`)}"`;

/** Wall seconds and peak RSS (KB) of one command, its output to a file or /dev/null. */
function measure(cmd, to = '/dev/null') {
  const script = `T=$(mktemp); start=$(date +%s.%N); /usr/bin/time -f "rss %M" -o "$T" ${cmd} > "${to}"; end=$(date +%s.%N); echo "secs $(echo "$end - $start" | bc)"; cat "$T"; rm -f "$T"`;
  const text = execFileSync('bash', ['-o', 'pipefail', '-c', script], { encoding: 'utf8' });
  return { secs: Number(/secs (\S+)/.exec(text)[1]), rssKB: Number(/rss (\d+)/.exec(text)[1]) };
}

function bench(mb) {
  const file = corpus(mb);
  const size = statSync(file).size / 1e6;
  const page = join(out, `c${mb}.html`);
  const cases = [
    ['cat', `cat "${file}"`],
    ['jq -c .', `jq -c . "${file}"`],
    ['tx-render (html)', `${bin('tx-render')} "${file}"`, page],
    ['tx-render --format md', `${bin('tx-render')} --format md "${file}"`],
  ];
  const results = [];
  for (const [name, cmd, to] of cases) {
    const runs = [];
    for (let i = 0; i < args.runs; i++) runs.push(measure(cmd, to));
    results.push({ name, secs: Math.min(...runs.map((r) => r.secs)), rssMB: Math.max(...runs.map((r) => r.rssKB)) / 1024 });
  }
  const base = Object.fromEntries(results.map((r) => [r.name, r]));
  console.log(`\n${file.replace(root + '/', '')}: ${size.toFixed(1)} MB, best of ${args.runs}; page ${(statSync(page).size / 1e6).toFixed(1)} MB`);
  console.log('stage                      MB/s  vs jq   peak RSS MB');
  for (const r of results) console.log(`${r.name.padEnd(24)} ${(size / r.secs).toFixed(1).padStart(7)} ${(base['jq -c .'].secs / r.secs).toFixed(2).padStart(6)} ${r.rssMB.toFixed(1).padStart(12)}`);
  return page;
}

/** Open a page in Debian's Chromium and count its turns once loaded. */
async function open(page) {
  if (!existsSync('/usr/bin/chromium')) return console.log('no /usr/bin/chromium: page not opened');
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'tx-render-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const tab = await context.newPage();
    const start = Date.now();
    await tab.goto('file://' + page, { timeout: 0, waitUntil: 'load' });
    const loaded = (Date.now() - start) / 1000;
    // textContent, not innerText: no layout of the whole page is forced.
    const turns = await tab.evaluate(() => document.querySelectorAll('.turn').length);
    const count = await tab.evaluate(() => document.getElementById('count').textContent);
    console.log(`chromium loaded ${page.replace(root + '/', '')} in ${loaded.toFixed(1)} s: ${turns} turns, the bar says "${count}"`);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

if (args['open-only']) await open(join(out, `c${args.mb}.html`));
else {
  bench(Math.round(args.mb / 4));
  const page = bench(args.mb);
  if (args.open) await open(page);
}
