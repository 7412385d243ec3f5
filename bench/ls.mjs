#!/usr/bin/env node
// tx-ls on a large generated store: time and bytes read to list every session,
// against a full tx-parse of the same files.
//
//   npm run bench:ls                     10,000 sessions, about 2 GB
//   node bench/ls.mjs --sessions 1000 --mb 200 --keep
//
// The store (bench/store.mjs) is made in a temp dir and deleted afterwards unless
// --keep. Bytes read are the processes' own read() totals (rchar in /proc/PID/io,
// Linux), minus what the same bin reads to list an empty store (node and its modules).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';
import { buildStore } from './store.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = minimist(process.argv.slice(2), {
  boolean: ['keep'],
  default: { sessions: 10000, mb: 2000, seed: 1, tmp: tmpdir(), gen: join(root, '..', 'shared', 'bench', 'gen-corpus.mjs') },
});
const say = (s) => process.stderr.write(`bench:ls: ${s}\n`);

const fs = statfsSync(args.tmp);
const free = fs.bavail * fs.bsize;
if (free < args.mb * 1e6 * 1.5) {
  say(`only ${(free / 1e9).toFixed(1)} GB free in ${args.tmp}; need about ${((args.mb * 1.5) / 1000).toFixed(1)} GB (use --mb and --sessions to scale down)`);
  process.exit(2);
}

const store = mkdtempSync(join(args.tmp, 'tx-ls-bench-'));
const cleanup = () => {
  if (!args.keep) rmSync(store, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

/** Run a node bin with args, stdout to /dev/null; wall time and bytes it read. */
function measure(bin, binArgs) {
  const probe = `
    const fs = require('node:fs');
    process.on('exit', () => { const io = fs.readFileSync('/proc/self/io', 'utf8'); const cpu = process.cpuUsage(); fs.writeSync(3, io.match(/rchar: (\\d+)/)[1] + ' ' + (cpu.user + cpu.system)); });
    process.argv.splice(1, 1, ${JSON.stringify(bin)});
    import(${JSON.stringify(bin)});`;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-e', probe, 'x', ...binArgs], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${bin} ${binArgs.slice(0, 3).join(' ')}… exited ${r.status}: ${r.stderr.toString().slice(0, 500)}`);
  const [rchar, cpu] = r.output[3].toString().split(' ').map(Number);
  return { ms, rchar, cpuMs: cpu / 1000 };
}

const lsBin = join(root, 'build', 'bin', 'tx-ls.js');
const parseBin = join(root, 'build', 'bin', 'tx-parse.js');

say(`building a store of ${args.sessions} sessions (${args.mb} MB) in ${store}`);
const t0 = Date.now();
const made = await buildStore({ store, sessions: args.sessions, mb: args.mb, seed: args.seed, gen: args.gen });
const files = [];
for (const dir of readdirSync(store)) for (const f of readdirSync(join(store, dir))) files.push(join(store, dir, f));
const du = spawnSync('du', ['-sb', store], { encoding: 'utf8' }).stdout.split('\t')[0];
say(`${made} sessions, ${(Number(du) / 1e9).toFixed(2)} GB, built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

// Warm the page cache once so every run below reads from memory alike.
spawnSync('bash', ['-c', `cat ${JSON.stringify(store)}/*/*.jsonl > /dev/null`]);

const empty = mkdtempSync(join(args.tmp, 'tx-ls-empty-'));
const base = measure(lsBin, ['--root', empty]);
say(`node alone (an empty store): ${(base.ms / 1000).toFixed(2)} s, ${(base.cpuMs / 1000).toFixed(2)} s CPU, ${base.rchar} bytes read`);
rmSync(empty, { recursive: true, force: true });
const rows = [];
const row = (name, m, extra = 0) => {
  const bytes = m.rchar - base.rchar * (1 + extra);
  rows.push({ name, seconds: +(m.ms / 1000).toFixed(2), cpu_seconds: +(m.cpuMs / 1000).toFixed(2), bytes_read: bytes, mb_read: +(bytes / 1e6).toFixed(1) });
};
row('tx-ls (head, then a byte search for titles)', measure(lsBin, ['--root', store]));
row('tx-ls --deep', measure(lsBin, ['--root', store, '--deep']));
row('tx-ls --lines', measure(lsBin, ['--root', store, '--lines']));
// tx-parse in batches so the argument list stays short; node's own reads are subtracted per batch.
const batch = 2000;
let parse = { ms: 0, rchar: 0, cpuMs: 0 };
let batches = 0;
for (let i = 0; i < files.length; i += batch, batches++) {
  const m = measure(parseBin, files.slice(i, i + batch));
  parse = { ms: parse.ms + m.ms, rchar: parse.rchar + m.rchar, cpuMs: parse.cpuMs + m.cpuMs };
}
row(`tx-parse of every file (${batches} runs)`, parse, batches - 1);
const cat = Date.now();
spawnSync('bash', ['-c', `cat ${JSON.stringify(store)}/*/*.jsonl > /dev/null`]);
rows.push({ name: 'cat of every file', seconds: +((Date.now() - cat) / 1000).toFixed(2), bytes_read: Number(du), mb_read: +(Number(du) / 1e6).toFixed(1) });

console.log(JSON.stringify({ sessions: made, store_bytes: Number(du), node_baseline_bytes: base.rchar, node_baseline_seconds: +(base.ms / 1000).toFixed(2), page_cache: 'warm', load_average: loadavg()[0] }));
for (const r of rows) console.log(JSON.stringify(r));
