// An install is all or nothing: every target is checked before a byte is written, files
// go into place together at commit, and a refusal, a failure or an abort leaves the
// store exactly as it was (no temporary, no link, no append, no directory of its own).
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { beneath, InstallTransaction, TargetExists, UnsafePath } from '../../../lib/core/install/install-file.js';

function scratch(t: any): string {
  const dir = mkdtempSync(join(tmpdir(), 'tx-txn-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The error `fn` throws, checked to be a `kind` (tap compares classes as patterns). */
function thrown(t: any, fn: () => unknown, kind: new (...a: any[]) => Error, message?: string | RegExp): void {
  try {
    fn();
  } catch (err) {
    t.ok(err instanceof kind, `throws ${kind.name}: ${(err as Error).message}`);
    if (message !== undefined) t.match((err as Error).message, message);
    return;
  }
  t.fail(`expected ${kind.name}`);
}

/** Every path beneath `dir`, files and folders, sorted. */
function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

t.test('commit puts every written file in place, then makes the appends; no temporary remains', async (t) => {
  const root = scratch(t);
  writeFileSync(join(root, 'index.jsonl'), '{"old":1}\n');
  const tx = new InstallTransaction(root);
  const a = join(root, 'sessions', '2026', 'a.jsonl');
  tx.plan(a);
  const stream = tx.createStream(a);
  stream.write('line 1\n');
  stream.end('line 2\n');
  tx.writeFile(join(root, 'sessions', 'b.txt'), 'bytes');
  tx.append(join(root, 'index.jsonl'), '{"new":1}\n');
  t.notOk(existsSync(a), 'nothing in place before commit');
  t.same(await tx.commit(), [a, join(root, 'sessions', 'b.txt')]);
  t.equal(readFileSync(a, 'utf8'), 'line 1\nline 2\n');
  t.equal(readFileSync(join(root, 'sessions', 'b.txt'), 'utf8'), 'bytes');
  t.equal(readFileSync(join(root, 'index.jsonl'), 'utf8'), '{"old":1}\n{"new":1}\n');
  t.same(tree(root), ['index.jsonl', 'sessions', 'sessions/2026', 'sessions/2026/a.jsonl', 'sessions/b.txt']);
});

t.test('a symbolic link anywhere below the root is refused before anything is written; the root itself may be one', async (t) => {
  const base = scratch(t);
  const outside = join(base, 'outside');
  const root = join(base, 'root');
  mkdirSync(outside);
  mkdirSync(root);
  symlinkSync(outside, join(root, 'projects'));
  const tx = new InstallTransaction(root);
  thrown(t, () => tx.plan(join(root, 'projects', 'p', 's.jsonl')), UnsafePath, `${join(root, 'projects')} is a symbolic link: refusing to write through it`);
  thrown(t, () => tx.writeFile(join(root, 'projects', 'x'), 'x'), UnsafePath);
  thrown(t, () => tx.append(join(root, 'projects', 'x'), 'x'), UnsafePath);
  t.same(readdirSync(outside), [], 'nothing written through the link');
  tx.abort();
  t.same(tree(root), ['projects'], 'no temporary, no folder');

  const linked = join(base, 'linked-root');
  symlinkSync(outside, linked);
  const ok = new InstallTransaction(linked);
  ok.writeFile(join(linked, 'p', 's.jsonl'), 'ok\n');
  await ok.commit();
  t.equal(readFileSync(join(outside, 'p', 's.jsonl'), 'utf8'), 'ok\n', 'a root that is a link to a directory is followed');
});

t.test('a file where a directory should be, and a root that is a file, are named refusals', async (t) => {
  const root = scratch(t);
  writeFileSync(join(root, 'projects'), 'not a folder');
  thrown(t, () => new InstallTransaction(root).plan(join(root, 'projects', 'p', 's.jsonl')), UnsafePath, `${join(root, 'projects')} is not a directory`);
  const file = join(root, 'projects');
  thrown(t, () => new InstallTransaction(file).plan(join(file, 'p', 's.jsonl')), UnsafePath, `${file} is not a directory`);
  t.same(tree(root), ['projects']);
});

t.test('an existing target is never overwritten, found at plan and at commit', async (t) => {
  const root = scratch(t);
  writeFileSync(join(root, 'taken'), 'keep');
  const tx = new InstallTransaction(root);
  thrown(t, () => tx.plan(join(root, 'taken')), TargetExists, join(root, 'taken'));
  symlinkSync('/nonexistent', join(root, 'dangling'));
  thrown(t, () => tx.plan(join(root, 'dangling')), TargetExists, 'dangling');
  tx.abort();
  t.equal(readFileSync(join(root, 'taken'), 'utf8'), 'keep');
});

t.test('a failure at commit takes back the files already linked, the appends and the folders made', async (t) => {
  const root = scratch(t);
  mkdirSync(join(root, 'kept'));
  writeFileSync(join(root, 'index.jsonl'), 'old\n');
  const tx = new InstallTransaction(root);
  tx.writeFile(join(root, 'kept', 'new', 'first.jsonl'), 'first');
  tx.writeFile(join(root, 'second.jsonl'), 'second');
  tx.append(join(root, 'index.jsonl'), 'new\n');
  // Someone else creates the second file between plan and commit.
  writeFileSync(join(root, 'second.jsonl'), 'theirs');
  await tx.commit().then(() => t.fail('committed'), (err) => t.ok(err instanceof TargetExists, err.message));
  t.same(tree(root), ['index.jsonl', 'kept', 'second.jsonl'], 'the first file, its folder and every temporary are gone');
  t.equal(readFileSync(join(root, 'second.jsonl'), 'utf8'), 'theirs');
  t.equal(readFileSync(join(root, 'index.jsonl'), 'utf8'), 'old\n', 'the append was not made');
});

t.test('an append that fails takes back the files linked before it', async (t) => {
  const root = scratch(t);
  const tx = new InstallTransaction(root);
  tx.writeFile(join(root, 'a.jsonl'), 'a');
  tx.append(join(root, 'index', 'i.jsonl'), 'x\n');
  // The append's folder becomes a file after the check: the open fails at commit.
  writeFileSync(join(root, 'index'), 'a file now');
  await t.rejects(tx.commit());
  t.same(tree(root), ['index']);
});

t.test('abort removes every temporary and the folders the install made, and nothing else', async (t) => {
  const root = scratch(t);
  mkdirSync(join(root, 'theirs'));
  const tx = new InstallTransaction(root);
  const stream = tx.createStream(join(root, 'theirs', 'deep', 'er', 's.jsonl'));
  stream.write('half');
  tx.writeFile(join(root, 'mine', 'a'), 'a');
  t.ok(tree(root).some((p) => p.endsWith('.tmp')), 'temporaries exist while writing');
  tx.abort();
  t.same(tree(root), ['theirs']);
  t.throws(() => tx.plan(join(root, 'x')), /finished/, 'an aborted install takes nothing more');
});

t.test('a discarded file is not installed, and a folder made only for it goes too', async (t) => {
  const root = scratch(t);
  const tx = new InstallTransaction(root);
  const s = tx.createStream(join(root, 'empty', 's.jsonl'));
  s.end();
  tx.discard(join(root, 'empty', 's.jsonl'));
  tx.writeFile(join(root, 'real.jsonl'), 'r');
  await tx.commit();
  t.same(tree(root), ['real.jsonl']);
});

t.test('an append target must be a regular file', async (t) => {
  const root = scratch(t);
  appendFileSync(join(root, 'real'), 'x');
  symlinkSync(join(root, 'real'), join(root, 'link'));
  thrown(t, () => new InstallTransaction(root).append(join(root, 'link'), 'y'), UnsafePath, `${join(root, 'link')} is not a regular file`);
});

t.test('beneath keeps a name from the data inside its folder', async (t) => {
  t.equal(beneath('/s/artifacts', 'out/./r.md'), '/s/artifacts/out/r.md');
  for (const [name, said] of [['/etc/x', 'is absolute'], ['C:\\x', 'is absolute'], ['a/../../x', 'leaves /s/artifacts'], ['./', 'names no file'], ['a\0b', 'holds a NUL byte']])
    thrown(t, () => beneath('/s/artifacts', name, 'artifact path'), UnsafePath, `artifact path ${JSON.stringify(name)} ${said}`);
});
