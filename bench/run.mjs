#!/usr/bin/env node
// Throughput and peak memory of the txcript stages on a generated corpus, as ratios
// against `cat` and `jq` measured on the same file in the same run (medians of --runs
// rounds, each round running every row once; each command's input files are read once,
// untimed, just before it is timed).
//
//   npm run bench                      200 MB corpus, 2 MB-line corpus, start-up, 2 GB store
//   node bench/run.mjs --mb 50 --runs 3 --big 20 --store-mb 0
//   node bench/run.mjs --only startup        some sections only: corpus, big, startup, store
//
// Rows: tx-parse alone (on one thread, and cut into parts on --jobs workers)
// and piped into tx-native, tx-common and tx-stats (against `jq -c .`); the
// human-prompt question (tx-filter against the session-store guide's jq recipe), on the
// file, on one stream and with --jobs over the corpus cut into files; a corpus of
// 2 MB lines; start-up (--version, and each tool on empty input, against bare node);
// and a store of --sessions files (--store-mb MB) read by `tx-parse --jobs` against GNU
// parallel running `jq -c .` (skipped with a message when parallel is missing and cannot
// be installed).
// NODE_EXTRA_CA_CERTS is unset for the measured commands (see below; --keep-ca-certs).
// The corpus generator lives beside the repository (../shared/bench/gen-corpus.mjs) or
// is named with --gen. Corpora are cached in bench/out/.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';
import { buildStore } from './store.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = minimist(process.argv.slice(2), {
  boolean: ['keep-ca-certs'],
  default: { mb: 200, runs: 3, big: 20, 'store-mb': 2000, sessions: 10000, parts: 16, gen: join(root, '..', 'shared', 'bench', 'gen-corpus.mjs') },
});
const out = join(root, 'bench', 'out');
mkdirSync(out, { recursive: true });
if (!existsSync(args.gen)) {
  console.error(`bench: no corpus generator at ${args.gen} (use --gen FILE)`);
  process.exit(2);
}
const cores = availableParallelism();
// Node reads NODE_EXTRA_CA_CERTS at every start-up, whatever the program: with a system
// bundle that is 50-100 ms of CPU per process, more than a tool's own start. Where it is
// set, the bench measures without it (every row alike) and says so.
if (process.env.NODE_EXTRA_CA_CERTS !== undefined && !args['keep-ca-certs']) {
  console.log('bench: NODE_EXTRA_CA_CERTS is set here; the rows are measured without it (--keep-ca-certs keeps it)');
  delete process.env.NODE_EXTRA_CA_CERTS;
}

function corpus(name, genArgs) {
  const file = join(out, `${name}.jsonl`);
  if (!existsSync(file)) {
    console.error(`bench: generating ${file}`);
    execFileSync('bash', ['-c', `node "${args.gen}" ${genArgs} > "${file}"`], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return file;
}

/** The corpus cut at line boundaries into `n` files (for the --jobs rows). */
function parts(file, n) {
  const dir = join(out, `${file.split('/').pop()}.parts${n}`);
  if (!existsSync(dir)) {
    mkdirSync(dir);
    execFileSync('split', ['-n', `l/${n}`, '-d', '-a', '3', '--additional-suffix=.jsonl', file, join(dir, 'p')]);
  }
  return readdirSync(dir).sort().map((f) => join(dir, f));
}

const bin = (name) => `node "${join(root, 'build', 'bin', `${name}.js`)}"`;
const has = (cmd) => spawnSync('bash', ['-c', `command -v ${cmd}`]).status === 0;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Run a shell pipeline under GNU time: wall seconds, CPU seconds of all its processes, and the largest RSS. */
function measure(pipelineText, warm) {
  // Each stage runs under /usr/bin/time so the peak of every process is seen (workers are threads of theirs).
  const stages = pipelineText.split(' | ').map((s) => `/usr/bin/time -f "rss %M cpu %U %S" -a -o "$T" ${s}`);
  // The inputs are read first, untimed: a machine may page out the data of files not read
  // for a while (a memory reclaimer such as DAMON's), and a row would then time the disk.
  const script = `${warm ? `${warm} > /dev/null; ` : ''}T=$(mktemp); start=$(date +%s.%N); ${stages.join(' | ')} > /dev/null; st="\${PIPESTATUS[*]}"; end=$(date +%s.%N); echo "status $st"; echo "secs $(echo "$end - $start" | bc)"; cat "$T"; rm -f "$T"`;
  const text = execFileSync('bash', ['-c', script], { encoding: 'utf8', maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
  const status = /status (.*)/.exec(text)[1].trim();
  if (!/^(0 ?)+$/.test(status)) throw new Error(`bench: failed (exit ${status}): ${pipelineText}`);
  const secs = Number(/secs (\S+)/.exec(text)[1]);
  const rss = Math.max(...[...text.matchAll(/rss (\d+)/g)].map((m) => Number(m[1])));
  const cpu = [...text.matchAll(/cpu (\S+) (\S+)/g)].reduce((sum, m) => sum + Number(m[1]) + Number(m[2]), 0);
  return { secs, cpu, rssKB: rss };
}

/**
 * What `time` gives for each command, over `runs` rounds. A round runs every command
 * once, so that a slower minute of the machine weighs on a row and on the row it is
 * compared with alike.
 */
function inRounds(cmds, runs, time) {
  const rs = cmds.map(() => []);
  for (let i = 0; i < runs; i++) cmds.forEach((cmd, k) => rs[k].push(time(cmd)));
  return rs;
}

/** Median wall time, median CPU time and largest RSS of each command over `runs` rounds, each after `warm` (a command that reads the inputs). */
function timedRounds(cmds, runs = args.runs, warm = '') {
  return inRounds(cmds, runs, (cmd) => measure(cmd, warm)).map((r) => ({ secs: median(r.map((x) => x.secs)), cpu: median(r.map((x) => x.cpu)), rssMB: Math.max(...r.map((x) => x.rssKB)) / 1024 }));
}

/** The rows of a table: each case timed in rounds with the others, each after `warm`. */
function rowsOf(cases, runs, withRef = true, warm = '') {
  const times = timedRounds(cases.map(([, cmd]) => cmd), runs, warm);
  return cases.map(([name, , against], k) => ({ name, against: withRef ? against : undefined, ...times[k] }));
}

// The session-store guide's human-prompt recipe, as a filter (-c, no formatting of the output).
// (Pipes written without spaces: measure() cuts a shell pipeline at " | ".)
const JQ_PROMPTS = `select(.type=="user" and .isMeta!=true and ((.message.content|type)=="string" or .message.content[0].type=="text"))|select((.message.content|if type=="string" then . else (.[0].text // "") end)|test("^(<task-notification>|<command-name>|<local-command-stdout>|<system-reminder>|This session is being continued)")|not)`;

/** Print a table; `against` names the row each ratio is taken against. */
function table(title, mb, rows) {
  const base = Object.fromEntries(rows.map((r) => [r.name, r]));
  console.log(`\n${title}`);
  // "vs ref" is wall-time speed against the row named in "ref"; "cpu vs ref" compares the
  // CPU seconds of all processes instead (steadier on a loaded machine; workers add theirs).
  console.log(`${'stage'.padEnd(46)} ${'MB/s'.padStart(7)} ${'vs cat'.padStart(7)} ${'vs ref'.padStart(7)} ${'cpu vs ref'.padStart(10)}  ${'peak RSS MB'.padStart(11)}  ref`);
  for (const r of rows) {
    const mbps = mb / r.secs;
    const refRow = r.against ? base[r.against] : undefined;
    const ref = refRow ? (refRow.secs / r.secs).toFixed(2) : '-';
    const cpuRef = refRow && r.cpu > 0 ? (refRow.cpu / r.cpu).toFixed(2) : '-';
    console.log(
      `${r.name.padEnd(46)} ${mbps.toFixed(1).padStart(7)} ${(base.cat.secs / r.secs).toFixed(3).padStart(7)} ${ref.padStart(7)} ${cpuRef.padStart(10)}  ${r.rssMB.toFixed(1).padStart(11)}  ${r.against ?? ''}`,
    );
  }
}

function corpusRows(file) {
  const mb = statSync(file).size / 1e6;
  const jq = has('jq');
  const pieces = parts(file, args.parts);
  const cases = [
    ['cat', `cat "${file}"`],
    ...(jq ? [['jq -c .', `jq -c . "${file}"`], ['jq recipe (human prompts)', `jq -c ${q(JQ_PROMPTS)} "${file}"`]] : []),
    ['tx-parse', `${bin('tx-parse')} "${file}"`, 'jq -c .'],
    [`tx-parse --jobs ${cores} (parts)`, `${bin('tx-parse')} --jobs ${cores} "${file}"`, 'jq -c .'],
    ['tx-parse | tx-native', `${bin('tx-parse')} "${file}" | ${bin('tx-native')}`, 'jq -c .'],
    ['tx-filter --human-prompts f', `${bin('tx-filter')} --human-prompts "${file}"`, 'jq recipe (human prompts)'],
    ['cat | tx-parse | tx-filter --human-prompts', `cat "${file}" | ${bin('tx-parse')} | ${bin('tx-filter')} --human-prompts`, 'jq recipe (human prompts)'],
    [`tx-filter --human-prompts --jobs ${cores} (${pieces.length} files)`, `${bin('tx-filter')} --human-prompts --jobs ${cores} ${pieces.map((p) => `"${p}"`).join(' ')}`, 'jq recipe (human prompts)'],
    ['tx-parse | tx-common', `${bin('tx-parse')} "${file}" | ${bin('tx-common')}`, 'jq -c .'],
    ['tx-parse | tx-stats', `${bin('tx-parse')} "${file}" | ${bin('tx-stats')}`, 'jq -c .'],
    ...(existsSync(join(root, 'build', 'bin', 'tx-redact.js'))
      ? [
          ['tx-redact', `${bin('tx-redact')} "${file}"`, 'jq -c .'],
          ['tx-parse | tx-redact | tx-native', `${bin('tx-parse')} "${file}" | ${bin('tx-redact')} | ${bin('tx-native')}`, 'jq -c .'],
        ]
      : []),
  ];
  const rows = rowsOf(cases, args.runs, jq, `cat "${file}" ${pieces.map((p) => `"${p}"`).join(' ')}`);
  table(`${file.replace(root + '/', '')}: ${mb.toFixed(1)} MB, medians of ${args.runs} rounds, load average ${loadavg()[0].toFixed(1)}`, mb, rows);
}

function bigRows(file) {
  const mb = statSync(file).size / 1e6;
  const cases = [
    ['cat', `cat "${file}"`],
    ...(has('jq') ? [['jq -c .', `jq -c . "${file}"`]] : []),
    ['tx-parse', `${bin('tx-parse')} "${file}"`, 'jq -c .'],
    ['tx-parse | tx-native', `${bin('tx-parse')} "${file}" | ${bin('tx-native')}`, 'jq -c .'],
  ];
  const rows = rowsOf(cases, args.runs, true, `cat "${file}"`);
  table(`${file.replace(root + '/', '')} (2 MB lines): ${mb.toFixed(1)} MB, medians of ${args.runs} rounds`, mb, rows);
}

function startup() {
  const n = 20;
  writeFileSync(join(out, 'empty.mjs'), 'export {};\n');
  // --version loads none of a tool's modules; an empty input loads all it reads with.
  const questions = { 'tx-filter': ' --human-prompts' };
  const tools = ['tx-parse', 'tx-filter', 'tx-stats', 'tx-common', 'tx-native'];
  const cases = [
    ['bare node', 'node -e 0'],
    ['node running an empty ES module', `node ${join(out, 'empty.mjs')}`],
    ...tools.map((tool) => [`${tool} --version`, `${bin(tool)} --version`]),
    ...tools.map((tool) => [`${tool}${questions[tool] ?? ''} < /dev/null`, `${bin(tool)}${questions[tool] ?? ''} < /dev/null`]),
  ];
  const ms = (cmd) => {
    const t0 = process.hrtime.bigint();
    spawnSync('bash', ['-c', cmd], { stdio: 'ignore' });
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const [bare, ...rest] = inRounds(cases.map(([, cmd]) => cmd), n, ms).map(median);
  console.log(`\nstart-up, median of ${n} rounds: bare node ${bare.toFixed(1)} ms`);
  rest.forEach((ms, k) => console.log(`${cases[k + 1][0].padEnd(36)} ${ms.toFixed(1).padStart(7)} ms  (+${(ms - bare).toFixed(1)} ms)`));
}

async function storeRows() {
  if (!(args['store-mb'] > 0)) return;
  if (!has('parallel') && process.getuid?.() === 0 && has('apt-get')) {
    console.error('bench: installing GNU parallel for the store row');
    spawnSync('bash', ['-c', 'apt-get install -y parallel >/dev/null 2>&1 || (apt-get update >/dev/null 2>&1 && apt-get install -y parallel >/dev/null 2>&1)']);
  }
  const store = join(out, `store-${args.sessions}-${args['store-mb']}`);
  if (!existsSync(join(store, 'done'))) {
    console.error(`bench: building a store of ${args.sessions} sessions (${args['store-mb']} MB) in ${store}`);
    await buildStore({ store, sessions: args.sessions, mb: args['store-mb'], seed: 1, gen: args.gen });
    writeFileSync(join(store, 'done'), '');
  }
  const list = join(out, `store-${args.sessions}-${args['store-mb']}.list`);
  execFileSync('bash', ['-c', `find "${store}" -name '*.jsonl' | sort > "${list}"`]);
  const bytes = Number(execFileSync('bash', ['-c', `xargs -a "${list}" cat | wc -c`], { encoding: 'utf8' }).trim());
  const mb = bytes / 1e6;
  // The references: jq on both cores through GNU parallel when there is one, else jq through xargs.
  const parallel = has('parallel') && has('jq');
  const jqRef = parallel ? `parallel -j${cores} -X jq -c .` : 'xargs jq -c .';
  const recipeRef = parallel ? `parallel -j${cores} -X jq recipe` : null;
  const cases = [
    ['cat', `xargs -a "${list}" cat`],
    ...(has('jq') ? [['xargs jq -c .', `xargs -a "${list}" jq -c .`]] : []),
    ...(parallel ? [[jqRef, `parallel -a "${list}" -j${cores} -X -k jq -c .`]] : []),
    [`xargs tx-parse --jobs ${cores}`, `xargs -a "${list}" ${bin('tx-parse')} --jobs ${cores}`, jqRef],
    ['xargs tx-parse --jobs 1', `xargs -a "${list}" ${bin('tx-parse')} --jobs 1`, jqRef],
    // The other tools that take --jobs, at the default (the number of cores): speed, and the
    // peak memory a store costs each (xargs runs one process per ~128 KB of file names).
    // parallel passes its command through a shell: -q keeps the recipe's quotes.
    ...(parallel ? [[recipeRef, `parallel -a "${list}" -j${cores} -X -k -q jq -c ${q(JQ_PROMPTS)}`]] : []),
    [`xargs tx-filter --human-prompts --jobs ${cores}`, `xargs -a "${list}" ${bin('tx-filter')} --human-prompts --jobs ${cores}`, recipeRef],
    [`xargs tx-stats --jobs ${cores}`, `xargs -a "${list}" ${bin('tx-stats')} --jobs ${cores}`, jqRef],
    [`xargs tx-common --jobs ${cores}`, `xargs -a "${list}" ${bin('tx-common')} --jobs ${cores}`, jqRef],
  ];
  if (!has('parallel')) console.log('\n(GNU parallel is not installed and could not be: its rows are left out)');
  const rows = rowsOf(cases, 1, true, `xargs -a "${list}" cat`);
  table(`store: ${args.sessions} sessions, ${mb.toFixed(0)} MB, one run each, ${cores} cores, load average ${loadavg()[0].toFixed(1)}`, mb, rows);
}

// --only SECTION[,SECTION] runs some of: corpus, big, startup, store.
const only = args.only === undefined ? null : new Set(String(args.only).split(','));
const runs = (section) => only === null || only.has(section);
if (runs('corpus')) corpusRows(corpus(`c${args.mb}`, `--mb ${args.mb} --seed 1`));
if (runs('big') && args.big > 0) bigRows(corpus(`c${Math.round(args.mb / 4)}-big${args.big}x2MB`, `--mb ${Math.round(args.mb / 4)} --seed 2 --big ${args.big} --big-bytes 2000000`));
if (runs('startup')) startup();
if (runs('store')) await storeRows();
