#!/usr/bin/env node
// tx-redact's recall, false positives and speed, for docs/tx-redact.md:
//   recall      the planted set of test/redact/planted.ts (every kind of secret in every
//               place), by kind: how many are gone from the output;
//   look-alikes the texts of planted.ts that are no secrets (references, shell defaults,
//               placeholders, example keys, hashes, UUIDs): how many lines changed;
//   corpus      every real transcript beside the repository (../shared/corpus): hits by rule;
//   speed       CPU seconds (user + sys, the least of --runs) on the corpus files joined and
//               on a generated corpus (../shared/bench/gen-corpus.mjs --mb --seed 1).
//
//   npm run bench:redact                          this build
//   node bench/redact.mjs --bin OTHER/tx-redact.js   another build of tx-redact, same sets
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = minimist(process.argv.slice(2), { default: { bin: join(root, 'build', 'bin', 'tx-redact.js'), mb: 50, runs: 3, shared: process.env.TX_SHARED ?? join(root, '..', 'shared') } });
const { plantedSession, notSecretSession, readable } = await import(join(root, 'build', 'test', 'redact', 'planted.js'));
const out = join(root, 'bench', 'out');
mkdirSync(out, { recursive: true });

function redact(input, extra = []) {
  const r = spawnSync(process.execPath, [args.bin, '--report', ...extra], { input, maxBuffer: 1 << 30 });
  return { stdout: r.stdout.toString('utf8'), report: r.stderr.toString('utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)) };
}

const { lines, planted } = plantedSession(20261201);
const res = redact(lines.join('\n') + '\n');
const seen = readable(res.stdout);
const byKind = new Map();
for (const p of planted) {
  const kind = p.rules[0];
  const row = byKind.get(kind) ?? { planted: 0, found: 0 };
  row.planted++;
  if (!seen.includes(p.secret) && !res.stdout.includes(JSON.stringify(p.secret).slice(1, -1))) row.found++;
  byKind.set(kind, row);
}
const found = [...byKind.values()].reduce((a, r) => a + r.found, 0);
console.log(`recall: ${found}/${planted.length}`);
for (const [kind, row] of byKind) console.log(`  ${kind.padEnd(18)} ${row.found}/${row.planted}`);

const alike = notSecretSession();
const alikeOut = redact(alike.join('\n') + '\n');
const outLines = alikeOut.stdout.split('\n');
console.log(`look-alikes: ${alike.filter((l, i) => outLines[i] !== l).length} of ${alike.length} lines changed, ${alikeOut.report.length} hits`, count(alikeOut.report));

function count(report) {
  const c = {};
  for (const r of report) c[r.rule] = (c[r.rule] ?? 0) + 1;
  return JSON.stringify(c);
}

const corpus = ['claude-code', 'codex'].flatMap((h) => {
  const dir = join(args.shared, 'corpus', h);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, f)) : [];
});
if (corpus.length > 0) {
  let hits = [];
  for (const file of corpus) hits = hits.concat(redact(readFileSync(file)).report);
  console.log(`corpus: ${hits.length} hits in ${corpus.length} files`, count(hits));
  const joined = join(out, 'redact-corpus.jsonl');
  writeFileSync(joined, Buffer.concat(corpus.map((f) => readFileSync(f))));
  console.log(`speed: corpus joined ${cpu(joined)}`);
}
const gen = join(args.shared, 'bench', 'gen-corpus.mjs');
if (existsSync(gen)) {
  const file = join(out, `redact-gen-${args.mb}.jsonl`);
  if (!existsSync(file)) execFileSync('bash', ['-c', `node "${gen}" --mb ${args.mb} --seed 1 > "${file}"`]);
  console.log(`speed: generated ${args.mb} MB ${cpu(file)}`);
}

/** The least CPU seconds (user + sys) of --runs runs of tx-redact on a file, and its MB. */
function cpu(file) {
  const times = [];
  for (let i = 0; i < args.runs; i++) {
    const timing = join(out, 'redact-time.txt');
    spawnSync('bash', ['-c', `/usr/bin/time -f "%U %S" -o "${timing}" node "${args.bin}" "${file}" > /dev/null 2> /dev/null`]);
    const t = readFileSync(timing, 'utf8').trim().split('\n').pop().split(' ');
    times.push(Number(t[0]) + Number(t[1]));
  }
  const mb = readFileSync(file).length / 1e6;
  return `${mb.toFixed(1)} MB, ${Math.min(...times).toFixed(2)} s CPU`;
}
