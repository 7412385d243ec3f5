// tx-filter CLI cases, trentm/json style: each folder of fixtures/filter/ holds
// input.jsonl (native session lines), args (one argument per line), expected.stdout,
// and optionally expected.stderr and expected.exit. The case runs as
//   tx-parse input.jsonl | tx-filter ARGS
// in its folder (so records carry src "input.jsonl" and the subagent join finds
// input/subagents/). TX_UPDATE=1 rewrites the expected files (review them by hand).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CASES = join(ROOT, 'fixtures', 'filter');
const bin = (name: string) => join(ROOT, 'build', 'bin', `${name}.js`);

function runCase(dir: string, args: string[]) {
  const script = `"${process.execPath}" "${bin('tx-parse')}" input.jsonl 2>/dev/null | "${process.execPath}" "${bin('tx-filter')}" "$@"`;
  return spawnSync('sh', ['-c', script, 'sh', ...args], { cwd: dir, encoding: 'utf8' });
}

for (const name of readdirSync(CASES).sort()) {
  const dir = join(CASES, name);
  if (!existsSync(join(dir, 'args'))) continue;
  t.test(name, async (t) => {
    const args = readFileSync(join(dir, 'args'), 'utf8').split('\n').filter((a) => a !== '');
    const r = runCase(dir, args);
    const expected = (file: string, fallback: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : fallback);
    if (process.env.TX_UPDATE) {
      writeFileSync(join(dir, 'expected.stdout'), r.stdout);
      if (r.stderr !== '') writeFileSync(join(dir, 'expected.stderr'), r.stderr);
      if (r.status !== 0) writeFileSync(join(dir, 'expected.exit'), `${r.status}\n`);
    }
    t.equal(r.stdout, expected('expected.stdout', ''), 'stdout is exactly expected.stdout');
    t.equal(r.stderr, expected('expected.stderr', ''), 'stderr is exactly expected.stderr');
    t.equal(r.status, Number(expected('expected.exit', '0').trim()), 'exit status');
  });
}
