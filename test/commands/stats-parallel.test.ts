// The recipe of docs/tx-stats.md for a whole store on all cores: GNU parallel runs
// `tx-parse FILE | tx-stats` once per file. Sessions live in one file each, so the
// union of the per-file outputs equals running tx-stats file by file in one process.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'claude-code');
const bin = (name: string) => join(ROOT, 'build', 'bin', `${name}.js`);
const hasParallel = !spawnSync('parallel', ['--version'], { encoding: 'utf8' }).error;
const skip = !hasParallel ? 'GNU parallel is not installed (apt-get install parallel)' : !existsSync(CORPUS) ? `no corpus at ${CORPUS}` : false;

t.test('parallel over the corpus gives the same summaries as one file at a time', { skip }, async (t) => {
  const files = readdirSync(CORPUS).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(CORPUS, f));
  const node = process.execPath;
  const r = spawnSync('parallel', ['--will-cite', '-j', '4', `"${node}" "${bin('tx-parse')}" {} 2>/dev/null | "${node}" "${bin('tx-stats')}"`], {
    input: files.join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  t.equal(r.status, 0, `parallel exits 0 (${r.stderr.trim()})`);
  const serial: string[] = [];
  for (const f of files) {
    const parsed = spawnSync(node, [bin('tx-parse'), f], { maxBuffer: 1 << 30 });
    const stats = spawnSync(node, [bin('tx-stats')], { input: parsed.stdout, encoding: 'utf8', maxBuffer: 1 << 28 });
    serial.push(...stats.stdout.split('\n').filter((l) => l !== ''));
  }
  const got = r.stdout.split('\n').filter((l) => l !== '');
  t.equal(got.length, serial.length, `${serial.length} summaries either way`);
  t.same(got.sort(), serial.sort(), 'the same summaries, byte for byte');
});
