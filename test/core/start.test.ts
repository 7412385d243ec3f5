// --version is answered before a tool's modules load, and only where run() would
// answer it: help wins, and `--version` after `--` is a file name.
import t from 'tap';
import { asksVersion } from '../../lib/core/start.js';
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
  const { version } = (await import('../../lib/core/start.js'));
  for (const name of ['tx-parse', 'tx-filter', 'tx-stats', 'tx-common', 'tx-native', 'tx-escape', 'tx-ls', 'tx-redact', 'tx-render', 'tx-grep']) {
    const r = await runBin(name, ['--version']);
    t.equal(r.stdout.toString(), `${name} ${version()}\n`, name);
    t.equal(r.status, 0);
  }
  const help = await runBin('tx-parse', ['--help', '--version']);
  t.match(help.stdout.toString(), /^usage: tx-parse/);
});
