#!/usr/bin/env node
// Throughput and peak memory of the txcript stages on a generated corpus, as ratios
// against `cat` and `jq -c .` on the same file in the same run.
//
//   npm run bench                      200 MB corpus, then a corpus with 2 MB lines
//   node bench/run.mjs --mb 50 --runs 3 --big 20
//
// The corpus generator lives beside the repository (../shared/bench/gen-corpus.mjs) or
// is named with --gen. Corpora are cached in bench/out/.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = minimist(process.argv.slice(2), { default: { mb: 200, runs: 3, big: 20, gen: join(root, '..', 'shared', 'bench', 'gen-corpus.mjs') } });
const out = join(root, 'bench', 'out');
mkdirSync(out, { recursive: true });
if (!existsSync(args.gen)) {
  console.error(`bench: no corpus generator at ${args.gen} (use --gen FILE)`);
  process.exit(2);
}

function corpus(name, genArgs) {
  const file = join(out, `${name}.jsonl`);
  if (!existsSync(file)) {
    console.error(`bench: generating ${file}`);
    execFileSync('bash', ['-c', `node "${args.gen}" ${genArgs} > "${file}"`], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return file;
}

const bin = (name) => `node "${join(root, 'build', 'bin', `${name}.js`)}"`;
const has = (cmd) => spawnSync('bash', ['-c', `command -v ${cmd}`]).status === 0;

/** Run a shell pipeline under GNU time: wall seconds and the largest RSS of its processes. */
function measure(pipelineText) {
  // Each stage runs under /usr/bin/time so the peak of every process is seen.
  const stages = pipelineText.split(' | ').map((s, i) => `/usr/bin/time -f "rss %M" -a -o "$T" ${s}`);
  const script = `T=$(mktemp); start=$(date +%s.%N); ${stages.join(' | ')} > /dev/null; end=$(date +%s.%N); echo "secs $(echo "$end - $start" | bc)"; cat "$T"; rm -f "$T"`;
  const text = execFileSync('bash', ['-o', 'pipefail', '-c', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const secs = Number(/secs (\S+)/.exec(text)[1]);
  const rss = Math.max(...[...text.matchAll(/rss (\d+)/g)].map((m) => Number(m[1])));
  return { secs, rssKB: rss };
}

/** tx-redact on native lines, and on records on their way back to native lines. */
function redactCases(file) {
  return [
    ['tx-redact', `${bin('tx-redact')} "${file}"`],
    ['tx-parse|redact|native', `${bin('tx-parse')} "${file}" | ${bin('tx-redact')} | ${bin('tx-native')}`],
  ];
}

function bench(file) {
  const mb = statSync(file).size / 1e6;
  const cases = [
    ['cat', `cat "${file}"`],
    ...(has('jq') ? [['jq -c .', `jq -c . "${file}"`]] : []),
    ['tx-parse', `${bin('tx-parse')} "${file}"`],
    ['tx-parse | tx-native', `${bin('tx-parse')} "${file}" | ${bin('tx-native')}`],
    ...redactCases(file),
  ];
  const results = [];
  for (const [name, cmd] of cases) {
    const runs = [];
    for (let i = 0; i < args.runs; i++) runs.push(measure(cmd));
    const secs = Math.min(...runs.map((r) => r.secs));
    const rssKB = Math.max(...runs.map((r) => r.rssKB));
    results.push({ name, secs, mbps: mb / secs, rssMB: rssKB / 1024 });
  }
  const base = Object.fromEntries(results.map((r) => [r.name, r]));
  console.log(`\n${file.replace(root + '/', '')}: ${mb.toFixed(1)} MB, best of ${args.runs}`);
  console.log('stage                    MB/s   vs cat   vs jq   peak RSS MB  vs jq');
  for (const r of results) {
    const vsJq = base['jq -c .'] ? (r.mbps / base['jq -c .'].mbps).toFixed(2) : '-';
    const rssJq = base['jq -c .'] ? (r.rssMB / base['jq -c .'].rssMB).toFixed(2) : '-';
    console.log(
      `${r.name.padEnd(22)} ${r.mbps.toFixed(1).padStart(7)} ${(r.mbps / base.cat.mbps).toFixed(3).padStart(8)} ${vsJq.padStart(7)} ${r.rssMB.toFixed(1).padStart(12)} ${rssJq.padStart(6)}`,
    );
  }
}

bench(corpus(`c${args.mb}`, `--mb ${args.mb} --seed 1`));
if (args.big > 0) bench(corpus(`c${Math.round(args.mb / 4)}-big${args.big}`, `--mb ${Math.round(args.mb / 4)} --seed 2 --big ${args.big}`));
