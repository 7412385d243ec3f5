// --version is answered before a tool's modules load, and only where run() would
// answer it: help wins, and `--version` after `--` is a file name.
import path from 'node:path';
import t from 'tap';
import { asksVersion } from '../../lib/core/start.cjs';
import { runBin } from '../helpers.js';

t.test('asksVersion reads the arguments as run() does', async (t) => {
  t.equal(asksVersion(['--version']), true);
  t.equal(asksVersion(['--strict', 'f.jsonl', '--version']), true);
  t.equal(asksVersion(['--jobs', '--version']), true, 'not taken as the value of a string option (minimist takes no dash value)');
  t.equal(asksVersion(['--help', '--version']), false, 'help wins');
  t.equal(asksVersion(['-h', '--version']), false);
  t.equal(asksVersion(['--', '--version']), false, 'after -- it is a file');
  t.equal(asksVersion(['--grep=--version']), false, 'a value, not the flag');
  t.equal(asksVersion(['f.jsonl']), false);
});

t.test('every bin prints its name and the package version for --version, and help for --help --version', async (t) => {
  const { version } = (await import('../../lib/core/version.cjs'));
  for (const name of ['tx-parse', 'tx-filter', 'tx-stats', 'tx-common', 'tx-native', 'tx-escape', 'tx-ls', 'tx-redact', 'tx-render', 'tx-grep']) {
    const r = await runBin(name, ['--version']);
    t.equal(r.stdout.toString(), `${name} ${version()}\n`, name);
    t.equal(r.status, 0);
  }
  const help = await runBin('tx-parse', ['--help', '--version']);
  t.match(help.stdout.toString(), /^usage: tx-parse/);
});

t.test('the bins are CommonJS, so --version runs before node starts its ES module loader', async (t) => {
  // A preload reports, as the process exits, whether the CommonJS loader ran the bin.
  // (Whether the ES loader started cannot be asked here: the test runner adds an ES
  // preload of its own to every child. The bench's start-up rows measure the gain.)
  const dir = t.testdir({ 'report.cjs': "process.on('exit', () => process.stderr.write('cjs=' + Object.keys(require.cache).some((f) => /[\\\\/]bin[\\\\/]tx-[a-z]+\\.js$/.test(f)) + '\\n'));\n" });
  const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(path.join(dir, 'report.cjs'))}` };
  for (const name of ['tx-parse', 'tx-stats', 'tx-common', 'tx-native']) {
    const v = await runBin(name, ['--version'], '', env);
    t.equal(v.stderr, 'cjs=true\n', `${name} --version`);
    t.match(v.stdout.toString(), new RegExp(`^${name} `));
  }
  const run = await runBin('tx-parse', [], '{"type":"user"}\n', env);
  t.equal(run.stderr, 'cjs=true\n', 'a run starts from the CommonJS bin too');
  t.match(run.stdout.toString(), /"kind":"other"/, 'and imports the tool');
});
