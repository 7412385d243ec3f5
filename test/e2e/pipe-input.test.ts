// When a tool's stdin is a pipe (or a socket), it is read with blocking reads, as cat
// reads, and nothing is read ahead of the reader (see lib/core/pipe-input.ts). The
// records must be those the same bytes give from a file; a descriptor made non-blocking,
// or a signal handler installed, hands the rest to node's stream; and a live pipeline
// still shows each line as it comes.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { prng, repo } from '../helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'tx-pipe-in-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

// About 3 MB of session lines of uneven length.
const random = prng(13);
const lines: string[] = [];
let size = 0;
for (let i = 0; size < 3_000_000; i++) {
  const text = 'z'.repeat(Math.floor(random() * 100_000)) + ` ß ${i}`;
  const type = i % 2 === 0 ? 'user' : 'assistant';
  const content = type === 'user' ? text : [{ type: 'text', text }];
  lines.push(JSON.stringify({ type, sessionId: 's', uuid: `u${i}`, parentUuid: i === 0 ? null : `u${i - 1}`, timestamp: '2025-01-01T00:00:00Z', message: { role: type, content } }));
  size += lines[lines.length - 1].length + 1;
}
const file = join(scratch, 's.jsonl');
writeFileSync(file, lines.join('\n') + '\n');

const bin = (name: string) => repo('build', 'bin', `${name}.js`);
// The tools run as a user runs them: the preloads tap adds to NODE_OPTIONS may make node's stdio streams.
const sh = (script: string) => execFileSync('bash', ['-c', `unset NODE_OPTIONS; ${script}`], { maxBuffer: 1 << 28 });
const expected = sh(`node "${bin('tx-parse')}" < "${file}"`);

/**
 * A preload that counts the reads of descriptor 0 made with fs.readSync (and those that
 * found it non-blocking and empty), runs `setup`, and says at exit whether descriptor 0
 * is still blocking.
 */
function preload(name: string, setup = ''): string {
  const path = join(scratch, `${name}.cjs`);
  writeFileSync(
    path,
    `const fs = require('node:fs'); const readSync = fs.readSync; let reads = 0; let empty = 0;
     fs.readSync = function (fd, ...rest) {
       if (fd === 0) reads++;
       try { return readSync.call(this, fd, ...rest); } catch (e) { if (fd === 0 && e.code === 'EAGAIN') empty++; throw e; }
     };
     require('node:module').syncBuiltinESMExports();
     ${setup}
     process.on('exit', () => {
       const flags = parseInt(/flags:\\s*(\\d+)/.exec(fs.readFileSync('/proc/self/fdinfo/0', 'utf8'))[1], 8);
       fs.writeFileSync(${JSON.stringify(join(scratch, `${name}.report`))}, JSON.stringify({ reads, empty, blocking: (flags & 0o4000) === 0 }));
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

t.test('cat FILE | tx-parse reads the pipe with blocking reads and gives the records tx-parse < FILE gives', needsProc, async (t) => {
  const pre = preload('blocking');
  const out = sh(`cat "${file}" | node --require "${pre}" "${bin('tx-parse')}"`);
  t.ok(out.equals(expected), 'the same records');
  const r = report('blocking');
  t.ok(r.reads >= Math.floor(size / 65536), `a blocking read per pipeful at least (${r.reads} for ${size} bytes)`);
  t.equal(r.blocking, true, "descriptor 0 stays blocking: node's stream was never made");
  t.equal(r.empty, 0, 'no read found the pipe non-blocking');
});

t.test('records through a pipe: tx-native, tx-filter, tx-stats and tx-common give what they give from the file', async (t) => {
  const records = join(scratch, 'records');
  writeFileSync(records, expected);
  t.ok(sh(`cat "${records}" | node "${bin('tx-native')}"`).equals(readFileSync(file)), 'tx-native gives the session back');
  for (const [name, args] of [['tx-filter', '--kind assistant'], ['tx-stats', ''], ['tx-common', '']]) {
    t.ok(sh(`cat "${records}" | node "${bin(name)}" ${args}`).equals(sh(`node "${bin(name)}" ${args} < "${records}"`)), `${name}: the same output`);
  }
});

t.test('descriptor 0 made non-blocking: node\'s stream reads the rest, and the records are the same', needsProc, async (t) => {
  // Making process.stdin makes the pipe non-blocking; the writer starts late, so the first read finds it empty.
  const pre = preload('nonblocking', 'process.stdin;');
  const out = sh(`(sleep 0.3; cat "${file}") | node --require "${pre}" "${bin('tx-parse')}"`);
  t.ok(out.equals(expected), 'the same records');
  const r = report('nonblocking');
  t.equal(r.blocking, false, 'the descriptor was non-blocking');
  t.ok(r.empty >= 1, `a read found the pipe empty (${r.empty}) and the stream took over`);
});

t.test('a signal handler installed: stdin is read through the stream (a blocked read would hold the handler back)', needsProc, async (t) => {
  const pre = preload('handled', "process.on('SIGHUP', () => {});");
  t.ok(sh(`cat "${file}" | node --require "${pre}" "${bin('tx-parse')}"`).equals(expected), 'the same records');
  t.equal(report('handled').reads, 0, 'no blocking read of descriptor 0');
});

t.test('nothing is read ahead: tx-filter writes the answer to a record before the next arrives', async (t) => {
  const prompt = (text: string, i: number) => JSON.stringify({ type: 'user', sessionId: 's', uuid: `p${i}`, timestamp: '2025-01-01T00:00:00Z', message: { role: 'user', content: text } });
  writeFileSync(join(scratch, 'prompts.jsonl'), [prompt('first', 1), prompt('second', 2)].join('\n') + '\n');
  const [first, second] = sh(`node "${bin('tx-parse')}" "${join(scratch, 'prompts.jsonl')}"`).toString().trimEnd().split('\n');
  const child = spawn('bash', ['-c', `unset NODE_OPTIONS; exec node "${bin('tx-filter')}" --human-prompts --view`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
    return ok();
  };
  child.stdin.write(first + '\n');
  t.ok(await until(() => out.includes('"first"')), 'the first prompt comes out while stdin is still open');
  t.notOk(out.includes('"second"'), 'and nothing more');
  child.stdin.end(second + '\n');
  t.equal(await new Promise((r) => child.on('close', r)), 0, 'status 0 at the end of the input');
  t.equal(out.trimEnd().split('\n').length, 2, 'both prompts');
});
