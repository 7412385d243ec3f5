// tx-stats CLI cases: each folder of fixtures/stats/ holds input.jsonl (native lines)
// and expected.stdout, run as `tx-parse input.jsonl | tx-stats` in its folder.
// one-session shows every counter and coverage note; interleaved-sessions shows
// grouping by sessionId when sessions' lines alternate.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CASES = join(ROOT, 'fixtures', 'stats');
const bin = (name: string) => join(ROOT, 'build', 'bin', `${name}.js`);

for (const name of readdirSync(CASES).sort()) {
  const dir = join(CASES, name);
  if (!existsSync(join(dir, 'expected.stdout'))) continue;
  t.test(name, async (t) => {
    const script = `"${process.execPath}" "${bin('tx-parse')}" input.jsonl 2>/dev/null | "${process.execPath}" "${bin('tx-stats')}"`;
    const r = spawnSync('sh', ['-c', script], { cwd: dir, encoding: 'utf8' });
    t.equal(r.stdout, readFileSync(join(dir, 'expected.stdout'), 'utf8'), 'stdout is exactly expected.stdout');
    t.equal(r.stderr, '', 'nothing on stderr');
    t.equal(r.status, 0, 'exit status 0');
  });
}

t.test('a line that is not a record is reported with its place and skipped', async (t) => {
  const r = spawnSync(process.execPath, [bin('tx-stats')], { input: 'not a record\n', encoding: 'utf8' });
  t.equal(r.stderr, 'tx-stats: stdin:1: not a record, skipped\n');
  t.equal(r.stdout, '', 'no session, no output');
  t.equal(r.status, 0, 'not an error without --strict');
  const strict = spawnSync(process.execPath, [bin('tx-stats'), '--strict'], { input: 'not a record\n', encoding: 'utf8' });
  t.equal(strict.status, 1, '--strict makes it exit 1');
});
