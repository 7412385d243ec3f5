#!/usr/bin/env node
// tx-grep on a generated store, against ripgrep + jq in the same run: rg finds the
// lines holding the pattern's bytes, jq parses them and keeps the user and assistant
// text that matches (the same question, asked with the usual tools). Medians of --runs,
// whole processes, CPU seconds of every process beside wall time.
//
//   npm run bench:grep                    2 GB store of 10,000 sessions
//   node bench/grep.mjs --mb 200 --sessions 1000 --runs 3 --keep
//   node bench/grep.mjs --store DIR --before OLD/build     also an older build's rows
//
// Each run is a round that runs every row of a question once, so that a slower minute
// of the machine weighs on a row and its reference alike.
//
// The store (bench/store.mjs, from ../shared/bench/gen-corpus.mjs) is made in a temp
// dir and deleted afterwards unless --keep (or reused with --store DIR). ripgrep is
// skipped, with a message, when it is not installed (`apt-get install ripgrep`).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';
import { buildStore } from './store.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = minimist(process.argv.slice(2), {
  boolean: ['keep'],
  string: ['store', 'before'],
  default: { sessions: 10000, mb: 2000, seed: 1, runs: 3, tmp: tmpdir(), gen: join(root, '..', 'shared', 'bench', 'gen-corpus.mjs') },
});
const say = (s) => process.stderr.write(`bench:grep: ${s}\n`);
const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

let config = args.store;
if (config === undefined) {
  if (!existsSync(args.gen)) {
    say(`no corpus generator at ${args.gen} (use --gen FILE)`);
    process.exit(2);
  }
  const fs = statfsSync(args.tmp);
  if (fs.bavail * fs.bsize < args.mb * 1e6 * 1.5) {
    say(`not enough space in ${args.tmp} for ${args.mb} MB (use --mb and --sessions to scale down)`);
    process.exit(2);
  }
  config = mkdtempSync(join(args.tmp, 'tx-grep-bench-'));
  if (!args.keep) process.on('exit', () => rmSync(config, { recursive: true, force: true }));
  process.on('SIGINT', () => process.exit(130));
  say(`building a store of ${args.sessions} sessions, ${args.mb} MB, in ${config}`);
  const made = await buildStore({ store: join(config, 'projects'), sessions: args.sessions, mb: args.mb, seed: args.seed, gen: args.gen });
  say(`${made} sessions`);
}
const store = join(config, 'projects');
const noCodex = join(config, 'no-codex');
mkdirSync(noCodex, { recursive: true });
const bytes = Number(execFileSync('bash', ['-c', `du -sb ${q(store)} | cut -f1`], { encoding: 'utf8' }).trim());
const sessions = Number(execFileSync('bash', ['-c', `find ${q(store)} -name '*.jsonl' | wc -l`], { encoding: 'utf8' }).trim());
const mb = bytes / 1e6;

/** Run a shell pipeline (stages split at " | ") under GNU time: wall seconds, CPU seconds of all its processes, peak RSS, and output lines. */
function measure(pipelineText) {
  const stages = pipelineText.split(' | ').map((s) => `/usr/bin/time -f "rss %M cpu %U %S" -a -o "$T" ${s}`);
  const script = `T=$(mktemp); O=$(mktemp); start=$(date +%s.%N); ${stages.join(' | ')} > "$O"; st="\${PIPESTATUS[*]}"; end=$(date +%s.%N); echo "status $st"; echo "secs $(echo "$end - $start" | bc)"; echo "lines $(wc -l < "$O")"; cat "$T"; rm -f "$T" "$O"`;
  const text = execFileSync('bash', ['-c', script], { encoding: 'utf8', maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
  const status = /status (.*)/.exec(text)[1].trim();
  // grep-like tools exit 1 when nothing matched; anything else is a failure.
  if (!/^([01] ?)+$/.test(status)) throw new Error(`bench:grep: failed (exit ${status}): ${pipelineText}`);
  return {
    secs: Number(/secs (\S+)/.exec(text)[1]),
    lines: Number(/lines (\d+)/.exec(text)[1]),
    rssKB: Math.max(...[...text.matchAll(/rss (\d+)/g)].map((m) => Number(m[1]))),
    cpu: [...text.matchAll(/cpu (\S+) (\S+)/g)].reduce((sum, m) => sum + Number(m[1]) + Number(m[2]), 0),
  };
}

/** Medians of runs of each command, run in rounds (every command once per round). */
function timedRounds(cmds) {
  const rs = cmds.map(() => []);
  for (let i = 0; i < args.runs; i++) cmds.forEach((cmd, k) => rs[k].push(measure(cmd)));
  return rs.map((r) => ({ secs: median(r.map((x) => x.secs)), cpu: median(r.map((x) => x.cpu)), rssMB: Math.max(...r.map((x) => x.rssKB)) / 1024, lines: r[0].lines }));
}
const timed = (cmd) => timedRounds([cmd])[0];

const txGrepOf = (build) => (flags) => `node ${q(join(build, 'bin', 'tx-grep.js'))} ${flags} --config-dir ${q(config)} --codex-home ${q(noCodex)}`;
const txGrep = txGrepOf(join(root, 'build'));
const before = args.before ? txGrepOf(args.before) : null;
const hasRg = spawnSync('bash', ['-c', 'command -v rg']).status === 0;
if (!hasRg) say('rg is not installed (apt-get install ripgrep): the rg + jq rows are left out');

// The user and assistant text of a Claude Code line, as jq says it (pipes without spaces: measure() cuts at " | ").
const JQ_TEXTS = `select(.type=="user" or .type=="assistant")|.message.content|if type=="string" then . else (.[]?|select(.type=="text" or .type=="thinking")|(.text // .thinking)) end|strings`;

/** The questions: tx-grep flags, the rg flags and the jq test that ask the same. */
const QUESTIONS = [
  { name: 'fixed string, rare', tx: `-F ${q('fix the')}`, rg: `-F -e ${q('fix the')}`, jq: `select(contains("fix the"))` },
  { name: '-i, common word', tx: `-i refactor`, rg: `-i -F -e refactor`, jq: `select(test("refactor";"i"))` },
  { name: 'regular expression', tx: q('deploy (stream|value)'), rg: `-e ${q('deploy (stream|value)')}`, jq: `select(test("deploy (stream|value)"))` },
];

const cores = availableParallelism();
console.log(`\nbench:grep: store of ${mb.toFixed(0)} MB (${sessions} session files), ${args.runs} runs each, ${cores} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const cat = timed(`find ${q(store)} -name *.jsonl -print0 | xargs -0 cat`);
console.log(`cat of every file: ${cat.secs.toFixed(2)} s (${(mb / cat.secs).toFixed(0)} MB/s)`);
console.log(`\n${'question'.padEnd(22)} ${'command'.padEnd(26)} ${'s'.padStart(7)} ${'MB/s'.padStart(7)} ${'CPU s'.padStart(7)} ${'RSS MB'.padStart(7)} ${'hits'.padStart(7)}  vs rg+jq (wall, CPU)`);
for (const question of QUESTIONS) {
  const named = [];
  if (hasRg) {
    named.push(['rg alone', `rg --no-filename --no-line-number ${question.rg} ${q(store)}`]);
    named.push(['rg | jq', `rg --no-filename --no-line-number ${question.rg} ${q(store)} | jq -c ${q(JQ_TEXTS + '|' + question.jq)}`]);
  }
  if (before) {
    named.push([`before --jobs ${cores}`, before(`${question.tx} --jobs ${cores}`)]);
    named.push(['before --jobs 1', before(`${question.tx} --jobs 1`)]);
  }
  named.push([`tx-grep --jobs ${cores}`, txGrep(`${question.tx} --jobs ${cores}`)]);
  named.push(['tx-grep --jobs 1', txGrep(`${question.tx} --jobs 1`)]);
  const results = timedRounds(named.map(([, cmd]) => cmd));
  const rows = named.map(([name], k) => [name, results[k]]);
  const ref = hasRg ? results[1] : null;
  for (const [name, r] of rows) {
    const vs = ref && (name.startsWith('tx-grep') || name.startsWith('before')) ? `${(ref.secs / r.secs).toFixed(2)}x, ${(ref.cpu / r.cpu).toFixed(2)}x` : '';
    console.log(`${question.name.padEnd(22)} ${name.padEnd(26)} ${r.secs.toFixed(2).padStart(7)} ${(mb / r.secs).toFixed(0).padStart(7)} ${r.cpu.toFixed(2).padStart(7)} ${r.rssMB.toFixed(0).padStart(7)} ${String(r.lines).padStart(7)}  ${vs}`);
  }
}
console.log('\n(hits: output lines; rg alone counts lines holding the bytes, rg | jq and tx-grep count matching texts)');
