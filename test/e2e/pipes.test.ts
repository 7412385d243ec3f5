// A tool's stdout that is a pipe (or a socket) is written with a blocking write of each
// 64 KB piece the moment it fills, as cat writes; its stdin that is a pipe is read with
// blocking reads, as cat reads, and nothing ahead of the reader (see Descriptor in
// lib/core/output/output.ts and lib/core/input/pipe-input.ts). The bytes must be those a file gives
// or takes; a descriptor made non-blocking, or a signal handler installed, hands the
// rest to node's stream, still whole and in order; a live pipeline still shows each
// line as it comes.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { repo, unevenSession } from '../helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'tx-pipes-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

// About 3 MB of session lines of uneven length.
const lines = unevenSession(11, 3_000_000, 100_000, 'y', 'ü');
const file = join(scratch, 's.jsonl');
writeFileSync(file, lines.join('\n') + '\n');
const size = statSync(file).size;

const bin = (name: string) => repo('build', 'bin', `${name}.js`);
// The tools run as a user runs them: the preload tap adds to NODE_OPTIONS installs signal handlers, which send a tool to node's streams.
const sh = (script: string) => execFileSync('bash', ['-c', `unset NODE_OPTIONS; ${script}`], { maxBuffer: 1 << 28 });
/** The records of the file, as tx-parse writes them to a file. */
const expected = sh(`node "${bin('tx-parse')}" < "${file}"`);
const records = join(scratch, 'records');
writeFileSync(records, expected);

/**
 * A preload that counts the calls of fs.readSync on descriptor 0 or fs.writeSync on
 * descriptor 1 (`calls`) and those that found it non-blocking (`eagain`), runs `setup`
 * (and `afterCall` after each call on the descriptor), and says at exit whether the
 * descriptor is still blocking.
 */
function preload(name: string, fd: 0 | 1, setup = '', afterCall = ''): string {
  const path = join(scratch, `${name}.cjs`);
  const call = fd === 0 ? 'readSync' : 'writeSync';
  writeFileSync(
    path,
    `const fs = require('node:fs'); const original = fs.${call}; let calls = 0; let eagain = 0;
     fs.${call} = function (fd, ...rest) {
       if (fd === ${fd}) calls++;
       try { return original.call(this, fd, ...rest); } catch (e) { if (fd === ${fd} && e.code === 'EAGAIN') eagain++; throw e; } finally { if (fd === ${fd}) { ${afterCall} } }
     };
     require('node:module').syncBuiltinESMExports();
     ${setup}
     process.on('exit', () => {
       const flags = parseInt(/flags:\\s*(\\d+)/.exec(fs.readFileSync('/proc/self/fdinfo/${fd}', 'utf8'))[1], 8);
       fs.writeFileSync(${JSON.stringify(join(scratch, `${name}.report`))}, JSON.stringify({ calls, eagain, blocking: (flags & 0o4000) === 0 }));
     });`,
  );
  return path;
}
const report = (name: string) => JSON.parse(readFileSync(join(scratch, `${name}.report`), 'utf8'));

const procfs = (() => {
  try {
    readFileSync('/proc/self/fdinfo/0');
    return true;
  } catch {
    return false;
  }
})();
const needsProc = { skip: procfs ? false : 'no /proc/self/fdinfo to see whether a descriptor blocks' };

t.test('tx-parse into a pipe writes each 64 KB piece with a blocking write, and the bytes are those it writes to a file', needsProc, async (t) => {
  const pre = preload('write', 1);
  const out = sh(`node --require "${pre}" "${bin('tx-parse')}" < "${file}" | cat`);
  t.ok(out.equals(expected), 'the same bytes through the pipe');
  const r = report('write');
  t.ok(r.calls >= Math.floor(expected.length / 65536), `a blocking write per 64 KB piece (${r.calls} for ${expected.length} bytes)`);
  t.equal(r.blocking, true, "descriptor 1 stays blocking: node's stream was never made");
  t.equal(r.eagain, 0, 'no write found the pipe non-blocking');
});

t.test('tx-parse into a file, or into /dev/null: blocking writes that fill one 64 KB piece again, and the file holds the bytes written into a pipe', async (t) => {
  // Node writes a file synchronously too; what changes is that a piece written is done
  // with and filled again, where a new piece per 64 KB left freed memory to the allocator.
  const pieces = join(scratch, 'pieces');
  const pre = preload(
    'file',
    1,
    `const alloc = Buffer.allocUnsafe; let made = 0;
     Buffer.allocUnsafe = function (size) { if (size === 65536) made++; return alloc.call(Buffer, size); };
     process.on('exit', () => fs.appendFileSync(${JSON.stringify(pieces)}, made + '\\n'));`,
  );
  const out = join(scratch, 'file-out');
  sh(`node --require "${pre}" "${bin('tx-parse')}" < "${file}" > "${out}"`);
  t.ok(readFileSync(out).equals(expected), 'the file holds the records');
  const r = report('file');
  t.ok(r.calls >= Math.floor(expected.length / 65536), `a blocking write per 64 KB piece (${r.calls} for ${expected.length} bytes)`);
  sh(`node --require "${pre}" "${bin('tx-parse')}" < "${file}" > /dev/null`);
  const made = readFileSync(pieces, 'utf8').trim().split('\n').map(Number);
  t.same(made, [1, 1], `one piece made for the file and one for /dev/null (${made.join(', ')}), for ${Math.ceil(expected.length / 65536)} pieces written each`);
});

t.test('tx-render into a pipe: a page, written with blocking writes (whether stdout is a terminal is asked without making its stream)', needsProc, async (t) => {
  const pre = preload('render', 1);
  const page = sh(`node --require "${pre}" "${bin('tx-render')}" < "${file}" | cat`);
  t.ok(page.equals(sh(`node "${bin('tx-render')}" < "${file}" > "${scratch}/page"; cat "${scratch}/page"`)), 'the page it writes to a file');
  t.match(page.subarray(0, 200).toString(), /<!doctype html>/i, 'HTML, as for any output that is not a terminal');
  const r = report('render');
  t.ok(r.calls > 0, `blocking writes (${r.calls})`);
  t.equal(r.blocking, true, "descriptor 1 stays blocking: node's stream was never made");
});

t.test('cat FILE | tx-parse reads the pipe with blocking reads and gives the records tx-parse < FILE gives', needsProc, async (t) => {
  const pre = preload('read', 0);
  t.ok(sh(`cat "${file}" | node --require "${pre}" "${bin('tx-parse')}"`).equals(expected), 'the same records');
  const r = report('read');
  t.ok(r.calls >= Math.floor(size / 65536), `a blocking read per pipeful at least (${r.calls} for ${size} bytes)`);
  t.equal(r.blocking, true, "descriptor 0 stays blocking: node's stream was never made");
  t.equal(r.eagain, 0, 'no read found the pipe non-blocking');
});

t.test('records through pipes both ways: tx-native, tx-filter, tx-stats and tx-common give what they give between files', async (t) => {
  t.ok(sh(`cat "${records}" | node "${bin('tx-native')}" | cat`).equals(readFileSync(file)), 'tx-native gives the session back');
  for (const [name, args] of [['tx-filter', '--kind assistant'], ['tx-stats', ''], ['tx-common', '']]) {
    const between = sh(`node "${bin(name)}" ${args} < "${records}" > "${scratch}/out"; cat "${scratch}/out"`);
    t.ok(between.length > 0 && sh(`cat "${records}" | node "${bin(name)}" ${args} | cat`).equals(between), `${name}: the same output`);
  }
});

t.test('descriptor 1 made non-blocking: what a blocking write cannot take goes through the stream, whole and in order', needsProc, async (t) => {
  // Making process.stdout makes the pipe non-blocking; the reader waits, so the pipe fills.
  const pre = preload('write-nonblocking', 1, 'process.stdout;');
  t.ok(sh(`node --require "${pre}" "${bin('tx-parse')}" < "${file}" | (sleep 0.5; cat)`).equals(expected), 'the same bytes');
  const r = report('write-nonblocking');
  t.equal(r.blocking, false, 'the descriptor was non-blocking');
  t.ok(r.eagain >= 1, `a write found the pipe full (${r.eagain}) and the stream took over`);
});

t.test('descriptor 0 made non-blocking: node\'s stream reads the rest, and the records are the same', needsProc, async (t) => {
  // Making process.stdin makes the pipe non-blocking; the writer starts late, so the first read finds it empty.
  const pre = preload('read-nonblocking', 0, 'process.stdin;');
  t.ok(sh(`(sleep 0.3; cat "${file}") | node --require "${pre}" "${bin('tx-parse')}"`).equals(expected), 'the same records');
  const r = report('read-nonblocking');
  t.equal(r.blocking, false, 'the descriptor was non-blocking');
  t.ok(r.eagain >= 1, `a read found the pipe empty (${r.eagain}) and the stream took over`);
});

t.test('a signal handler installed: node\'s streams read and write (a blocked call would hold the handler back)', needsProc, async (t) => {
  for (const fd of [0, 1] as const) {
    const pre = preload(`handled-${fd}`, fd, "process.on('SIGHUP', () => {});");
    t.ok(sh(`cat "${file}" | node --require "${pre}" "${bin('tx-parse')}" | cat`).equals(expected), 'the same records');
    t.equal(report(`handled-${fd}`).calls, 0, `no blocking ${fd === 0 ? 'read of descriptor 0' : 'write to descriptor 1'}`);
  }
});

t.test('a signal handler installed after the first blocking call: the stream goes on from there, the bytes whole and in order', needsProc, async (t) => {
  for (const fd of [0, 1] as const) {
    const pre = preload(`later-${fd}`, fd, '', "if (calls === 1) process.on('SIGHUP', () => {});");
    t.ok(sh(`cat "${file}" | node --require "${pre}" "${bin('tx-parse')}" | cat`).equals(expected), 'the same records');
    const r = report(`later-${fd}`);
    t.equal(r.calls, 1, `one blocking ${fd === 0 ? 'read' : 'write'}, then the stream`);
    t.equal(r.blocking, false, "node's stream made the descriptor non-blocking");
  }
});

t.test('a reader that goes away ends each tool quietly, with status 0', async (t) => {
  for (const [name, input] of [['tx-parse', file], ['tx-native', records], ['tx-filter', records]]) {
    const out = sh(`node "${bin(name)}" "${input}" 2>"${scratch}/err" | head -c 100 >/dev/null; echo "\${PIPESTATUS[0]}"; cat "${scratch}/err"`).toString();
    t.equal(out, '0\n', `${name}: status 0, nothing on stderr`);
  }
});

t.test('the readers done with each chunk before the next (tx-parse, tx-stats, tx-filter without --view, tx-native) read a pipe into one buffer used again', async (t) => {
  // Counts the 256 KB slabs made for reads of the pipe: none when one pipeful-sized buffer is read into again.
  const slabs = join(scratch, 'slabs');
  const pre = join(scratch, 'slabs.cjs');
  writeFileSync(
    pre,
    `const alloc = Buffer.allocUnsafe; let made = 0;
     Buffer.allocUnsafe = function (size) { if (size === 262144) made++; return alloc.call(Buffer, size); };
     process.on('exit', () => require('node:fs').appendFileSync(${JSON.stringify(slabs)}, made + '\\n'));`,
  );
  for (const [name, input, args] of [['tx-parse', file, ''], ['tx-stats', records, ''], ['tx-filter', records, '--kind assistant'], ['tx-native', records, '']]) {
    rmSync(slabs, { force: true });
    const viaPipe = sh(`cat "${input}" | node --require "${pre}" "${bin(name)}" ${args} | cat`);
    t.ok(viaPipe.equals(sh(`node "${bin(name)}" ${args} < "${input}" > "${scratch}/out"; cat "${scratch}/out"`)), `${name}: the output it gives from the file`);
    t.equal(readFileSync(slabs, 'utf8'), '0\n', `${name}: no slab made for the ${size} bytes or more of input`);
  }
  // tx-common holds records past their chunk: a new slab as the last fills.
  rmSync(slabs, { force: true });
  sh(`cat "${records}" | node --require "${pre}" "${bin('tx-common')}" > /dev/null`);
  t.ok(Number(readFileSync(slabs, 'utf8')) > 2, 'tx-common: a slab each 256 KB');
});

t.test('nothing is read ahead: tx-filter writes the answer to a record before the next arrives', async (t) => {
  const prompt = (text: string, i: number) => JSON.stringify({ type: 'user', sessionId: 's', uuid: `p${i}`, timestamp: '2025-01-01T00:00:00Z', message: { role: 'user', content: text } });
  writeFileSync(join(scratch, 'prompts.jsonl'), [prompt('first', 1), prompt('second', 2)].join('\n') + '\n');
  const [first, second] = sh(`node "${bin('tx-parse')}" "${join(scratch, 'prompts.jsonl')}"`).toString().trimEnd().split('\n');
  // With --view, and without: a record read into the reused buffer is written out before the next read too.
  for (const view of ['--view', '']) await answersLive(t, first, second, view);
});

async function answersLive(t: Test, first: string, second: string, view: string): Promise<void> {
  const child = spawn('bash', ['-c', `unset NODE_OPTIONS; exec node "${bin('tx-filter')}" --human-prompts ${view}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
    return ok();
  };
  child.stdin.write(first + '\n');
  t.ok(await until(() => out.includes('first')), `${view || 'records'}: the first prompt comes out while stdin is still open`);
  t.notOk(out.includes('second'), 'and nothing more');
  child.stdin.end(second + '\n');
  t.equal(await new Promise((r) => child.on('close', r)), 0, 'status 0 at the end of the input');
  t.equal(out.trimEnd().split('\n').length, 2, 'both prompts');
}
