// A test that needs a path to be missing makes it missing under its own temporary
// directory: a fixed name such as /nonexistent exists on some machines (it is the home
// of several Debian system users), and there the test would find something. This reads
// every test source and fails on a string that names a missing path outright.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { repo } from './helpers.js';

/**
 * A string literal that is a path (absolute, or relative with a folder in it) naming
 * itself missing: such a path is fixed, not made under a temporary directory.
 */
const FIXED_MISSING = /(['"`])(?=[\w./-]*\/)(?:\/|\.{0,2}\/?)(?:[\w.-]+\/)*(?:nonexistent|non-existent|no[-_/]such|does[-_]not[-_]exist|not[-_]there|nowhere)[\w./-]*\1/g;

/** Every TypeScript source under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

t.test('no test names a missing path outright: each is made under the test\'s own temporary directory', async (t) => {
  const found: string[] = [];
  for (const file of sources(repo('test'))) {
    // What the recorded scenarios run inside the real clients' scratch folders is not a path a test checks.
    if (file.includes(`${path.sep}harness${path.sep}`) || file.endsWith('missing-paths.test.ts')) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(FIXED_MISSING)) found.push(`${path.relative(repo(), file)}:${i + 1}: ${m[0]}`);
    });
  }
  t.same(found, [], 'every missing path lives under a temporary directory');
});

t.test('the check finds the names it is meant to find', async (t) => {
  for (const s of [`'/nonexistent'`, `'/nonexistent/prices.json'`, `'no/such.jsonl'`, `"/tmp/does-not-exist"`, '`/home/dev/nowhere`']) {
    t.ok(new RegExp(FIXED_MISSING.source).test(s), s);
  }
  for (const s of [`join(dir, 'missing')`, `'fixtures/parse/crlf.jsonl'`, `'no such text anywhere'`, `'no-such-model'`, `'Nowhere/Land'`]) {
    t.notOk(new RegExp(FIXED_MISSING.source).test(s), s);
  }
});
