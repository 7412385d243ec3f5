// A write that fails for a reason other than a reader gone away (here /dev/full: no
// space left) stops the tool with one plain line and exit status 1, never "internal
// error" or a stack trace, whether the output went through blocking writes or node's
// stream (which tap's preload, installing signal handlers, makes every tool use).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import t from 'tap';
import { repo } from '../helpers.js';

const full = '/dev/full';
const skip = existsSync(full) ? false : 'no /dev/full on this system';
const records = repo('fixtures', 'common', 'compact', 'input.jsonl');
const bin = (name: string) => repo('build', 'bin', `${name}.js`);

const runs: [string, string[]][] = [
  ['tx-parse', [records]],
  ['tx-parse', ['--jobs', '2', records, records]],
  ['tx-filter', ['--human-prompts', records]],
  ['tx-common', [records]],
  ['tx-stats', [records]],
];

for (const withPreload of [false, true]) {
  t.test(`stdout on ${full} ${withPreload ? "through node's stream (tap's preload)" : 'with blocking writes'}: one line, exit 1`, { skip }, async (t) => {
    for (const [name, args] of runs) {
      const env = { ...process.env };
      if (!withPreload) delete env.NODE_OPTIONS;
      const into = (target: string) => spawnSync('bash', ['-c', `exec node "$0" "$@" > ${target}`, bin(name), ...args], { env, encoding: 'utf8' });
      const r = into(full);
      const what = `${name} ${args.slice(0, 2).join(' ')}`;
      t.equal(r.status, 1, `${what}: exit 1`);
      // The notes the tool says anyway, then the one line.
      t.equal(r.stderr, `${into('/dev/null').stderr}${name}: cannot write the output: no space left on the device\n`, `${what}: one plain line`);
    }
  });
}

for (const withPreload of [false, true]) {
  t.test(`--version and --help on ${full} ${withPreload ? "through node's stream (tap's preload)" : 'with blocking writes'}: one line, exit 1`, { skip }, async (t) => {
    for (const [name, flag] of [['tx-parse', '--version'], ['tx-common', '--help'], ['tx-stats', '-h']]) {
      const env = { ...process.env };
      if (!withPreload) delete env.NODE_OPTIONS;
      const r = spawnSync('bash', ['-c', `exec node "$0" ${flag} > ${full}`, bin(name)], { env, encoding: 'utf8' });
      t.equal(r.status, 1, `${name} ${flag}: exit 1`);
      t.equal(r.stderr, `${name}: cannot write the output: no space left on the device\n`, `${name} ${flag}: one plain line`);
    }
  });
}

t.test('--version and --help into a pipe whose reader is gone: exit 0, nothing on stderr (no stack trace)', async (t) => {
  for (const [name, flag] of [['tx-parse', '--version'], ['tx-filter', '--help'], ['tx-native', '--version']]) {
    // The reader (`true`) has ended before the tool starts, so its write meets EPIPE.
    const r = spawnSync('bash', ['-c', `{ sleep 0.3; node "$0" ${flag}; echo "status $?" >&2; } | true`, bin(name)], { env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8' });
    t.equal(r.stderr, 'status 0\n', `${name} ${flag}: status 0 and nothing said`);
  }
});
