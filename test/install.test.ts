// A fresh machine: what a clean clone gets from npm alone. `npm install -g .` and
// `npm link` build the tools (the prepare script) and link every bin and man page;
// `npm run conformance` after `npm ci` makes sure tap's plugin set is the one built.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { repo } from './helpers.js';

const pkg = JSON.parse(readFileSync(repo('package.json'), 'utf8'));

t.test('the scripts that run tests first check that tap was built for the configured plugins', async (t) => {
  for (const script of ['pretest', 'conformance']) t.match(pkg.scripts[script], /npm run -s tap-plugins/, `${script} runs tap-plugins`);
  const check = spawnSync(process.execPath, [repo('scripts', 'tap-plugins.mjs')], { cwd: repo(), encoding: 'utf8' });
  t.equal(check.status, 0, 'after npm test\'s pretest, the built set is the configured one');
});

t.test('a global install of a clean copy builds the tools and links every bin and man page', async (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'tx-install-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const clone = join(scratch, 'txcript');
  for (const part of ['bin', 'lib', 'man', 'scripts', 'test', 'package.json', 'package-lock.json', 'tsconfig.json', 'README.md']) {
    cpSync(repo(part), join(clone, part), { recursive: true });
  }
  t.notOk(existsSync(join(clone, 'build')), 'the copy has no build');
  // The dependencies an `npm ci` would install (the prepare script runs one itself when they are missing).
  symlinkSync(repo('node_modules'), join(clone, 'node_modules'));
  const prefix = join(scratch, 'prefix');
  // As a user runs it: without the loader tap puts in NODE_OPTIONS of every process a test spawns.
  const r = spawnSync('env', ['-u', 'NODE_OPTIONS', 'npm', 'install', '-g', '.', '--prefix', prefix, '--offline', '--no-audit', '--no-fund'], { cwd: clone, encoding: 'utf8' });
  t.equal(r.status, 0, `npm install -g . succeeds${r.status ? `\n${r.stderr}` : ''}`);
  const bins = Object.keys(pkg.bin).sort();
  t.same(existsSync(join(prefix, 'bin')) ? readdirSync(join(prefix, 'bin')).sort() : [], bins, 'every bin is linked');
  for (const bin of bins) {
    const v = spawnSync(join(prefix, 'bin', bin), ['--version'], { encoding: 'utf8' });
    t.equal(v.stdout, `${bin} ${pkg.version}\n`, `${bin} --version runs`);
  }
  const pages = existsSync(join(prefix, 'share', 'man', 'man1')) ? readdirSync(join(prefix, 'share', 'man', 'man1')).sort() : [];
  t.same(pages, bins.map((b) => `${b}.1`), 'every man page is linked');
});
