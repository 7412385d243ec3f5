// --jobs: several files in worker threads give exactly what one thread gives, in file order.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { prng, repo, runBin } from '../helpers.js';

/** A small session file whose lines are numbered so that any reordering would show. */
function session(id: number, lines: number, random: () => number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const text = `file ${id} line ${i} ` + 'x'.repeat(Math.floor(random() * 3000));
    if (i % 3 === 0) out.push(JSON.stringify({ type: 'user', message: { role: 'user', content: text }, sessionId: `s${id}`, uuid: `u${id}-${i}` }));
    else out.push(JSON.stringify({ type: 'assistant', message: { id: `m${id}-${i}`, role: 'assistant', model: 'x', content: [{ type: 'text', text }] }, sessionId: `s${id}`, uuid: `a${id}-${i}` }));
  }
  return out.join('\n') + '\n';
}

t.test('tx-parse, tx-filter and tx-common: --jobs 3 writes the same bytes as --jobs 1, files of very different sizes in order', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-jobs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const random = prng(13);
  const files: string[] = [];
  // Big files first, so later small ones finish early and must wait their turn.
  for (const [i, n] of [2000, 1, 700, 0, 30, 1500, 5].entries()) {
    const f = join(dir, `s${i}.jsonl`);
    writeFileSync(f, session(i, n, random));
    files.push(f);
  }
  const parsedFiles: string[] = [];
  for (const f of files) {
    const r = await runBin('tx-parse', [f]);
    const p = f.replace(/\.jsonl$/, '.rec');
    writeFileSync(p, r.stdout);
    parsedFiles.push(p);
  }
  const cases: [string, string[], string[]][] = [
    ['tx-parse', [], files],
    ['tx-filter', ['--human-prompts'], parsedFiles],
    ['tx-filter', ['--kind', 'assistant'], files],
    ['tx-common', [], parsedFiles],
  ];
  for (const [tool, args, inputs] of cases) {
    const one = await runBin(tool, [...args, '--jobs', '1', ...inputs]);
    const three = await runBin(tool, [...args, '--jobs', '3', ...inputs]);
    t.equal(three.status, one.status, `${tool} ${args.join(' ')}: same status`);
    t.ok(one.stdout.length > 0, `${tool} ${args.join(' ')}: some output`);
    t.ok(three.stdout.equals(one.stdout), `${tool} ${args.join(' ')}: same bytes with workers`);
    t.equal(three.stderr, one.stderr, `${tool} ${args.join(' ')}: same messages, in file order`);
  }
});

t.test('--jobs: a bad value is a usage error; an unreadable file among several is reported and the others are written', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-jobs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const a = join(dir, 'a.jsonl');
  const b = join(dir, 'b.jsonl');
  writeFileSync(a, '{"type":"summary","summary":"a"}\n');
  writeFileSync(b, '{"type":"summary","summary":"b"}\n');
  const bad = await runBin('tx-parse', ['--jobs', '0', a, b]);
  t.equal(bad.status, 2);
  t.equal(bad.stderr, 'tx-parse: --jobs: not a positive whole number: 0 (see tx-parse --help)\n');
  const missing = await runBin('tx-parse', ['--jobs', '2', a, join(dir, 'none.jsonl'), b]);
  t.equal(missing.status, 1, 'exit 1 as without workers');
  t.match(missing.stderr, /none\.jsonl: cannot read: no such file/);
  t.same(missing.stdout.toString().trim().split('\n').map((l) => JSON.parse(l).line.summary), ['a', 'b']);
});

t.test('--jobs: a reader that goes away ends the run quietly (exit 0, nothing on stderr)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-jobs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const files: string[] = [];
  const random = prng(5);
  for (let i = 0; i < 4; i++) {
    const f = join(dir, `s${i}.jsonl`);
    writeFileSync(f, session(i, 3000, random));
    files.push(f);
  }
  const r = spawnSync('bash', ['-o', 'pipefail', '-c', `node "${repo('build', 'bin', 'tx-parse.js')}" --jobs 2 ${files.map((f) => `"${f}"`).join(' ')} | head -c 1000 > /dev/null`], { encoding: 'utf8' });
  t.equal(r.status, 0);
  t.equal(r.stderr, '');
});
