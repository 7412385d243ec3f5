// A .zst file is read only when it is a regular file: a FIFO named `x.jsonl.zst` would
// hang the open (no writer ever comes) and a link to /dev/zero would never end, so both
// are refused at once, by name, and a search over several files goes on past them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { NotRegularFile } from '../../../lib/core/input/regular-file.js';
import { zstdFileLines } from '../../../lib/core/input/zstd-lines.js';
import { repo } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tx-zstd-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const fifo = join(dir, 'rollout-fifo.jsonl.zst');
const zero = join(dir, 'rollout-zero.jsonl.zst');
const made = spawnSync('mkfifo', [fifo]).status === 0;
symlinkSync('/dev/zero', zero);
const CODEX = repo('fixtures', 'grep', 'codex', 'sessions', '2026', '01', '02', 'rollout-2026-01-02T11-00-00-019c0000-0000-7000-8000-00000000e002.jsonl');

t.test('zstdFileLines refuses a FIFO and a link to a device before reading a byte', { skip: made ? false : 'mkfifo is not available' }, async (t) => {
  t.throws(() => [...zstdFileLines(fifo)], new NotRegularFile('a FIFO, not a regular file'), 'the FIFO is refused (not waited on)');
  t.throws(() => [...zstdFileLines(zero)], new NotRegularFile('a device, not a regular file'), '/dev/zero is refused (not read forever)');
});

t.test('tx-grep named a FIFO and /dev/zero as .zst rollouts names both, searches the rest, exits 2', { skip: made ? false : 'mkfifo is not available' }, async (t) => {
  for (const jobs of ['1', '2']) {
    const r = spawnSync(process.execPath, [repo('build', 'bin', 'tx-grep.js'), '--jobs', jobs, 'bug', fifo, zero, CODEX], { encoding: 'utf8', timeout: 60_000 });
    t.equal(r.signal, null, `--jobs ${jobs}: finished by itself (not killed after 60 s)`);
    t.equal(r.status, 2, `--jobs ${jobs}: status 2, as for any file that cannot be read`);
    t.match(r.stderr, `${fifo}: cannot read: a FIFO, not a regular file`);
    t.match(r.stderr, `${zero}: cannot read: a device, not a regular file`);
    t.equal(r.stdout.trim().split('\n').length, 3, `--jobs ${jobs}: the readable rollout's three hits are written`);
  }
});
