// When a tool's stdin is a regular file (`tx-parse < s.jsonl`), it reads it as a named
// file is: with its own stream in 256 KB chunks (node's stdin stream reads a file 64 KB
// at a time), or, for the readers that keep nothing of a record once its batch is done
// (tx-parse, tx-stats, tx-filter without --view, tx-native), 1 MB at a time into one
// buffer used again. The output must be what the same bytes give through a pipe, and
// reading starts where the descriptor's offset stands, as it does for any reader of an
// inherited file.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { repo, unevenSession } from '../helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'tx-stdin-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

// About 3 MB of session lines of uneven length, so lines straddle every 64 KB and 1 MB boundary.
const lines = unevenSession(7, 3_000_000, 200_000, 'x', 'é');
const file = join(scratch, 's.jsonl');
writeFileSync(file, lines.join('\n') + '\n');
const records = join(scratch, 's.records');

const bin = (name: string) => repo('build', 'bin', `${name}.js`);
/** Run a tool with `input` on stdin through a pipe. */
const piped = (name: string, args: string[], input: Buffer) => spawnSync(process.execPath, [bin(name), ...args], { input, maxBuffer: 1 << 28 });
/** Run a tool with the file open on stdin, after reading `skip` bytes of it. */
const fromFile = (name: string, args: string[], path: string, skip = 0, node: string[] = []) => {
  const fd = openSync(path, 'r');
  try {
    if (skip > 0) readSync(fd, Buffer.alloc(skip), 0, skip, null);
    return spawnSync(process.execPath, [...node, bin(name), ...args], { stdio: [fd, 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  } finally {
    closeSync(fd);
  }
};

/**
 * A preload that reports, when the process ends, the largest chunk read from descriptor 0
 * and from any other file's stream. (tx-parse reads a regular file with its own reads;
 * the other tools read the stream.)
 */
function chunksPreload(): string {
  const preload = join(scratch, 'chunks.cjs');
  writeFileSync(
    preload,
    `const { Readable } = require('node:stream'); const push = Readable.prototype.push; let most = 0; let file = 0;
     Readable.prototype.push = function (chunk, ...rest) {
       if (this.fd === 0 && chunk) most = Math.max(most, chunk.length);
       else if (typeof this.fd === 'number' && chunk) file = Math.max(file, chunk.length);
       return push.call(this, chunk, ...rest);
     };
     process.on('exit', () => process.stderr.write('largest chunk of stdin: ' + most + '\\nlargest chunk of a named file: ' + file + '\\n'));`,
  );
  return preload;
}

t.test('tx-parse < FILE gives what the same bytes give through a pipe, and tx-native gives the file back', async (t) => {
  const bytes = readFileSync(file);
  const viaFile = fromFile('tx-parse', [], file);
  const viaPipe = piped('tx-parse', [], bytes);
  t.equal(viaFile.status, 0);
  t.equal(viaFile.stderr.toString(), '');
  t.ok(viaFile.stdout.equals(viaPipe.stdout), 'same records');
  t.equal(viaFile.stdout.toString().trimEnd().split('\n').length, lines.length, 'one record per line');
  writeFileSync(records, viaFile.stdout);
  const back = fromFile('tx-native', [], records);
  t.ok(back.stdout.equals(bytes), 'tx-native < records gives the original bytes');
});

t.test('tx-filter, tx-stats and tx-common read a records file on stdin as they read it through a pipe', async (t) => {
  const bytes = readFileSync(records);
  for (const [name, args] of [['tx-filter', ['--human-prompts']], ['tx-stats', []], ['tx-common', []]] as [string, string[]][]) {
    const viaFile = fromFile(name, args, records);
    const viaPipe = piped(name, args, bytes);
    t.equal(viaFile.status, 0, `${name}: exit 0`);
    t.ok(viaFile.stdout.length > 0, `${name}: some output`);
    t.ok(viaFile.stdout.equals(viaPipe.stdout), `${name}: same output`);
  }
});

t.test('a file on stdin is read from where its offset stands, not from its start', async (t) => {
  const skip = Buffer.byteLength(lines[0]) + 1 + Buffer.byteLength(lines[1]) + 1;
  const r = fromFile('tx-parse', [], file, skip);
  const got = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l));
  t.equal(got.length, lines.length - 2, 'the two lines before the offset are not read');
  t.equal(got[0].line.uuid, 'u2', 'the first record is the line at the offset');
});

t.test('a file on stdin is read 256 KB at a time, as a named file is, not in node\'s 64 KB', async (t) => {
  const preload = chunksPreload();
  for (const [name, args] of [['tx-filter', ['--human-prompts', '--view']], ['tx-common', []]] as [string, string[]][]) {
    const r = fromFile(name, args, records, 0, ['--require', preload]);
    t.equal(r.status, 0, `${name}: exit 0`);
    t.match(r.stderr.toString(), /largest chunk of stdin: 262144\n/, `${name}: 256 KB chunks`);
  }
});

/**
 * A preload that reports, when the process ends, how the reads of 1 MB and more went:
 * the largest, how many, and into how many distinct buffers (fs.readSync is wrapped
 * before any tool module takes it).
 */
function readsPreload(): string {
  const preload = join(scratch, 'reads.cjs');
  writeFileSync(
    preload,
    `const fs = require('node:fs'); const readSync = fs.readSync; let most = 0; let reads = 0; const buffers = new Set();
     fs.readSync = function (fd, buf, ...rest) {
       const n = readSync.call(this, fd, buf, ...rest);
       if (buf && buf.length >= 1 << 20) { most = Math.max(most, buf.length); reads++; buffers.add(buf.buffer); }
       return n;
     };
     process.on('exit', () => process.stderr.write('1 MB reads: ' + reads + ', largest ' + most + ', buffers ' + buffers.size + '\\n'));`,
  );
  return preload;
}

t.test('tx-stats, tx-filter without --view and tx-native read a file 1 MB at a time into one buffer, named or on stdin, and write what a pipe gives', async (t) => {
  const preload = readsPreload();
  for (const path of [records, file]) {
    const bytes = readFileSync(path);
    for (const [name, args] of [['tx-stats', []], ['tx-filter', ['--human-prompts']], ['tx-filter', ['--kind', 'assistant', '--invert']], ['tx-native', []]] as [string, string[]][]) {
      const what = `${name} ${args.join(' ')} on ${path === file ? 'session lines' : 'records'}`;
      const viaPipe = piped(name, args, bytes);
      const onStdin = fromFile(name, args, path, 0, ['--require', preload]);
      // Named, session lines become records with a src that stdin's have not; records carry theirs.
      const named = path === records ? [['named', spawnSync(process.execPath, ['--require', preload, bin(name), ...args, path], { maxBuffer: 1 << 28 })] as const] : [];
      for (const [how, r] of [...named, ['on stdin', onStdin] as const]) {
        t.equal(r.status, 0, `${what}, ${how}: exit 0`);
        // The file is some 3 MB: three reads and more, every one into the same buffer.
        t.match(r.stderr.toString(), /1 MB reads: [3-9], largest 1048576, buffers 1\n/, `${what}, ${how}: one 1 MB buffer read again`);
        t.ok(viaPipe.stdout.length > 0, `${what}: some output`);
        t.ok(r.stdout.equals(viaPipe.stdout), `${what}, ${how}: the output a pipe gives (no record's bytes overwritten by the next read)`);
      }
    }
  }
});

t.test('a tool that says how much to read at a time is read so: tx-redact, 256 KB, from a named file and from stdin', async (t) => {
  const preload = chunksPreload();
  const named = spawnSync(process.execPath, ['--require', preload, bin('tx-redact'), file], { maxBuffer: 1 << 28 });
  t.equal(named.status, 0);
  t.match(named.stderr.toString(), /largest chunk of a named file: 262144\n/);
  const onStdin = fromFile('tx-redact', [], file, 0, ['--require', preload]);
  t.equal(onStdin.status, 0);
  t.match(onStdin.stderr.toString(), /largest chunk of stdin: 262144\n/);
  t.ok(onStdin.stdout.equals(named.stdout), 'the same output either way');
});
