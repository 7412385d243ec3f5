// A directory named to tx-parse, tx-filter, tx-stats or tx-common stands for its
// `*.jsonl` files in name order, with or without --jobs; what it holds that is not a
// regular file is named and skipped; a directory named to another tool gets a message
// naming it (never "internal error: EISDIR"), and the other files are still read.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { repo } from '../helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'tx-dir-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
const dir = join(scratch, 'project');
mkdirSync(join(dir, 'session-b', 'subagents'), { recursive: true });
mkdirSync(join(scratch, 'empty'));
const line = (id: string, text: string) => JSON.stringify({ type: 'user', sessionId: id, uuid: `${id}-u`, timestamp: '2025-01-01T00:00:00Z', message: { role: 'user', content: text } }) + '\n';
// Written out of name order, so order by name is seen, not order of creation.
writeFileSync(join(dir, 'b.jsonl'), line('b', 'second file'));
writeFileSync(join(dir, 'a.jsonl'), line('a', 'first file') + line('a', 'again'));
writeFileSync(join(dir, 'notes.txt'), 'not a transcript\n');
writeFileSync(join(dir, 'session-b', 'subagents', 'agent-1.jsonl'), line('sub', 'in a subdirectory'));
const fifo = spawnSync('mkfifo', [join(dir, 'pipe.jsonl')]).status === 0;

const bin = (name: string, args: string[]) => spawnSync(process.execPath, [repo('build', 'bin', `${name}.js`), ...args], { encoding: 'utf8', timeout: 60_000, input: '' });

t.test('tx-parse DIR reads the directory\'s *.jsonl files in name order, not its subdirectories or other files', async (t) => {
  for (const args of [[dir], ['--jobs', '2', dir], ['--jobs', '1', dir]]) {
    const r = bin('tx-parse', args);
    const srcs = r.stdout.trim().split('\n').map((l) => JSON.parse(l).src);
    t.same(srcs, [join(dir, 'a.jsonl'), join(dir, 'a.jsonl'), join(dir, 'b.jsonl')], args.join(' '));
    t.notMatch(r.stderr, /internal error/);
    if (fifo) {
      t.match(r.stderr, /pipe\.jsonl: cannot read: a FIFO, not a regular file/, 'a FIFO in the directory is named, not opened');
      t.equal(r.status, 1, 'exit 1: something could not be read');
    } else t.equal(r.status, 0);
  }
});

t.test('tx-filter, tx-stats and tx-common read a directory as tx-parse does', async (t) => {
  const f = bin('tx-filter', ['--human-prompts', dir]);
  t.equal(f.stdout.trim().split('\n').length, 3, 'tx-filter: three prompts');
  const s = bin('tx-stats', [dir]);
  t.same(s.stdout.trim().split('\n').map((l) => JSON.parse(l).session), ['a', 'b'], 'tx-stats: one summary per session');
  const c = bin('tx-common', [dir]);
  t.equal(c.stdout.trim().split('\n').filter((l) => JSON.parse(l).type === 'session').length, 2, 'tx-common: two sessions');
  for (const r of [f, s, c]) t.notMatch(r.stderr, /internal error/);
});

t.test('a directory with no *.jsonl file is said on stderr; stdin is not read instead', async (t) => {
  const r = spawnSync(process.execPath, [repo('build', 'bin', 'tx-parse.js'), join(scratch, 'empty')], { encoding: 'utf8', input: line('x', 'from stdin') });
  t.equal(r.stdout, '');
  t.match(r.stderr, /empty: no \*\.jsonl files in it/);
  t.equal(r.status, 0);
});

t.test('tools that read files one by one refuse a directory by name, and go on with the rest', async (t) => {
  const r = bin('tx-native', [dir, join(dir, 'a.jsonl')]);
  t.match(r.stderr, /project: cannot read: a directory, not a file/);
  t.notMatch(r.stderr, /internal error|EISDIR/);
  t.equal(r.stdout, line('a', 'first file') + line('a', 'again'), 'the file named after it is still read');
  t.equal(r.status, 1);
});

t.test('a FIFO named on the command line is read as given, as `tx-parse <(zcat s.jsonl.gz)` needs', async (t) => {
  const r = spawnSync('bash', ['-c', `"${process.execPath}" "${repo('build', 'bin', 'tx-parse.js')}" <(cat "${join(dir, 'b.jsonl')}")`], { encoding: 'utf8', timeout: 60_000 });
  t.equal(r.status, 0, r.stderr);
  t.equal(JSON.parse(r.stdout).kind, 'prompt');
});
