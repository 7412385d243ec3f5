// The shallow scans read lines of any length with flat memory: a line longer than
// LONG_SCAN_LINE (by more than one read) reaches them as its skeleton (long strings cut), every other line as
// its bytes, in every reader: forwards, by a value search, and out of a .zst file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ChunkReader, fileLines, forwardLines, linesWithValue, LONG_SCAN_LINE } from '../../../lib/core/input/file-lines.js';
import { STRING_KEEP } from '../../../lib/core/json/json-skeleton.js';
import { zstdFileLines } from '../../../lib/core/input/zstd-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'tx-file-lines-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const long = { type: 'summary', summary: 'x'.repeat(LONG_SCAN_LINE + 2 * 1024 * 1024), cwd: '/after' };
const short = [{ type: 'user', n: 1 }, { type: 'custom-title', customTitle: 'T' }];
const text = '\ufeff' + JSON.stringify(short[0]) + '\r\n' + JSON.stringify(long) + '\r\n' + JSON.stringify(short[1]) + '\n' + JSON.stringify(long);
const file = join(dir, 's.jsonl');
writeFileSync(file, text);
const size = statSync(file).size;

function checkLong(t: any, bytes: Buffer, what: string): void {
  t.ok(bytes.length < STRING_KEEP + 1000, `${what}: held as its skeleton (${bytes.length} bytes)`);
  const v = JSON.parse(bytes.toString());
  t.equal(v.type, 'summary', `${what}: the fields before the long string`);
  t.equal(v.cwd, '/after', `${what}: and after it`);
  t.ok(long.summary.startsWith(v.summary), `${what}: the long string's head`);
}

t.test('forwardLines and fileLines: short lines whole, long lines as skeletons, offsets exact', async (t) => {
  const reader = new ChunkReader(file, size);
  const lines = [...forwardLines(reader)];
  reader.close();
  t.equal(lines.length, 4);
  t.same(JSON.parse(lines[0].bytes.toString()), short[0], 'BOM and CR left out');
  checkLong(t, lines[1].bytes, 'line 2');
  t.same(JSON.parse(lines[2].bytes.toString()), short[1]);
  checkLong(t, lines[3].bytes, 'line 4, without a final newline');
  const bytes = Buffer.from(text);
  const ends = [bytes.indexOf(0x0a) + 1];
  ends.push(bytes.indexOf(0x0a, ends[0]) + 1, bytes.indexOf(0x0a, ends[0] + 10) + 1, size);
  ends[2] = bytes.indexOf(0x0a, ends[1]) + 1;
  t.same(lines.map((l) => l.end), ends, 'each line ends just past its LF');
  t.equal([...fileLines(file, size)].length, 4);
});

t.test('linesWithValue: a long line holding the value comes as its skeleton', async (t) => {
  const reader = new ChunkReader(file, size);
  const found = [...linesWithValue(reader, 0, ['summary', 'custom-title'])];
  reader.close();
  t.equal(found.length, 3);
  checkLong(t, found[0], 'the first summary line');
  t.same(JSON.parse(found[1].toString()), short[1]);
  checkLong(t, found[2], 'the last line');
});

t.test('zstdFileLines: the same lines out of a compressed file', { skip: spawnSync('zstd', ['--version']).status === 0 ? false : 'no zstd command' }, async (t) => {
  const zst = join(dir, 's.jsonl.zst');
  t.equal(spawnSync('zstd', ['-q', '-f', file, '-o', zst]).status, 0);
  const lines = [...zstdFileLines(zst)];
  t.equal(lines.length, 4);
  t.same(JSON.parse(lines[0].toString()), short[0], 'BOM and CR left out');
  checkLong(t, lines[1], 'line 2');
  t.same(JSON.parse(lines[2].toString()), short[1]);
  checkLong(t, lines[3], 'line 4');
});
