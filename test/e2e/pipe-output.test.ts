// When a tool's stdout is a pipe (or a socket), each 64 KB piece of output is written
// with a blocking write the moment it fills, as cat writes, so the next stage of a
// pipeline works while this one does (see Descriptor in lib/core/output.ts). The bytes
// must be those written to a file; a descriptor made non-blocking, or a signal handler
// installed, hands the rest to node's stream, still whole and in order.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { prng, repo } from '../helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'tx-pipe-out-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

// About 3 MB of session lines of uneven length.
const random = prng(11);
const lines: string[] = [];
let size = 0;
for (let i = 0; size < 3_000_000; i++) {
  const text = 'y'.repeat(Math.floor(random() * 100_000)) + ` ü ${i}`;
  const type = i % 2 === 0 ? 'user' : 'assistant';
  const content = type === 'user' ? text : [{ type: 'text', text }];
  lines.push(JSON.stringify({ type, sessionId: 's', uuid: `u${i}`, parentUuid: i === 0 ? null : `u${i - 1}`, timestamp: '2025-01-01T00:00:00Z', message: { role: type, content } }));
  size += lines[lines.length - 1].length + 1;
}
const file = join(scratch, 's.jsonl');
writeFileSync(file, lines.join('\n') + '\n');

const bin = (name: string) => repo('build', 'bin', `${name}.js`);
// The tools run as a user runs them: the preloads tap adds to NODE_OPTIONS make process.stdout, which makes the pipe non-blocking.
const sh = (script: string) => execFileSync('bash', ['-c', `unset NODE_OPTIONS; ${script}`], { maxBuffer: 1 << 28 }).toString();

/**
 * A preload that counts the writes to descriptor 1 made with fs.writeSync (and those that
 * found it non-blocking and full), runs `setup`, and says at exit whether descriptor 1 is
 * still blocking.
 */
function preload(name: string, setup = ''): string {
  const path = join(scratch, `${name}.cjs`);
  writeFileSync(
    path,
    `const fs = require('node:fs'); const writeSync = fs.writeSync; let writes = 0; let full = 0;
     fs.writeSync = function (fd, ...rest) {
       if (fd === 1) writes++;
       try { return writeSync.call(this, fd, ...rest); } catch (e) { if (fd === 1 && e.code === 'EAGAIN') full++; throw e; }
     };
     require('node:module').syncBuiltinESMExports();
     ${setup}
     process.on('exit', () => {
       const flags = parseInt(/flags:\\s*(\\d+)/.exec(fs.readFileSync('/proc/self/fdinfo/1', 'utf8'))[1], 8);
       fs.writeFileSync(${JSON.stringify(join(scratch, `${name}.report`))}, JSON.stringify({ writes, full, blocking: (flags & 0o4000) === 0 }));
     });`,
  );
  return path;
}
const report = (name: string) => JSON.parse(readFileSync(join(scratch, `${name}.report`), 'utf8'));

const procfs = (() => {
  try {
    readFileSync('/proc/self/fdinfo/1');
    return true;
  } catch {
    return false;
  }
})();

t.test('tx-parse into a pipe writes each 64 KB piece with a blocking write, and the bytes are those it writes to a file', { skip: procfs ? false : 'no /proc/self/fdinfo to see whether a descriptor blocks' }, async (t) => {
  sh(`node "${bin('tx-parse')}" "${file}" > "${scratch}/to-file"`);
  const pre = preload('blocking');
  sh(`node --require "${pre}" "${bin('tx-parse')}" "${file}" | cat > "${scratch}/to-pipe"`);
  const expected = readFileSync(join(scratch, 'to-file'));
  t.ok(readFileSync(join(scratch, 'to-pipe')).equals(expected), 'the same bytes through the pipe');
  const r = report('blocking');
  t.ok(r.writes >= Math.floor(expected.length / 65536), `a blocking write per 64 KB piece (${r.writes} for ${expected.length} bytes)`);
  t.equal(r.blocking, true, "descriptor 1 stays blocking: node's stream was never made");
  t.equal(r.full, 0, 'no write found the pipe non-blocking');
});

t.test('tx-native and tx-filter into a pipe write the bytes they write to a file', async (t) => {
  const records = join(scratch, 'to-file');
  for (const [name, args] of [['tx-native', []], ['tx-filter', ['--kind', 'assistant']]] as [string, string[]][]) {
    const toFile = sh(`node "${bin(name)}" ${args.join(' ')} "${records}" > "${scratch}/a"; cat "${scratch}/a"`);
    const toPipe = sh(`node "${bin(name)}" ${args.join(' ')} "${records}" | cat`);
    t.ok(toFile.length > 1_000_000, `${name} wrote more than one piece`);
    t.ok(toPipe === toFile, `${name}: the same bytes through the pipe`);
  }
});

t.test('descriptor 1 made non-blocking: what a blocking write cannot take goes through the stream, whole and in order', { skip: procfs ? false : 'no /proc/self/fdinfo' }, async (t) => {
  // Making process.stdout makes the pipe non-blocking; the reader waits, so the pipe fills.
  const pre = preload('nonblocking', 'process.stdout;');
  sh(`node --require "${pre}" "${bin('tx-parse')}" "${file}" | (sleep 0.5; cat) > "${scratch}/late"`);
  t.ok(readFileSync(join(scratch, 'late')).equals(readFileSync(join(scratch, 'to-file'))), 'the same bytes');
  const r = report('nonblocking');
  t.equal(r.blocking, false, 'the descriptor was non-blocking');
  t.ok(r.full >= 1, `a write found the pipe full (${r.full}) and the stream took over`);
});

t.test('a signal handler installed: the output goes through the stream (a blocking write would hold the handler back)', { skip: procfs ? false : 'no /proc/self/fdinfo' }, async (t) => {
  const pre = preload('handled', "process.on('SIGHUP', () => {});");
  sh(`node --require "${pre}" "${bin('tx-parse')}" "${file}" | cat > "${scratch}/handled"`);
  t.ok(readFileSync(join(scratch, 'handled')).equals(readFileSync(join(scratch, 'to-file'))), 'the same bytes');
  t.equal(report('handled').writes, 0, 'no blocking write to descriptor 1');
});

t.test('a reader that goes away ends each tool quietly, with status 0', async (t) => {
  const records = join(scratch, 'to-file');
  for (const [name, input] of [['tx-parse', file], ['tx-native', records], ['tx-filter', records]]) {
    const out = sh(`node "${bin(name)}" "${input}" 2>"${scratch}/err" | head -c 100 >/dev/null; echo "\${PIPESTATUS[0]}"; cat "${scratch}/err"`);
    t.equal(out, '0\n', `${name}: status 0, nothing on stderr`);
  }
});
