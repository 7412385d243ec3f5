// The package as a user installs it: `npm pack`, unpacked into a scratch project's
// node_modules (its dependencies linked from this checkout, so no network is needed),
// and the guides' library example run there by `import 'txcript'`. Proves the
// `exports` map, the packed file list and the typed entry point, not just the source.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { findInGuides } from './guides.js';
import { repo } from './helpers.js';

/** The library example between its marker comments, in whichever guide holds it. */
function libraryExample(): string {
  const found = findInGuides(/<!-- example: library -->\s*```js\n([\s\S]*?)```/);
  if (!found) throw new Error('no guide (README.md, docs/*.md) has the library example');
  return found.match[1];
}

t.test('the guides\' library example runs against the packed tarball', async (t) => {
  const dir = t.testdir({});
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // The build is already there (npm test builds first); `prepare` would rebuild it under
  // tap's module loader, which tsc cannot run in, so scripts are skipped and NODE_OPTIONS dropped.
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const packed = spawnSync(npm, ['pack', '--ignore-scripts', '--pack-destination', dir, '--silent'], { cwd: repo(), encoding: 'utf8', env });
  if (packed.status !== 0) {
    t.fail(`npm pack failed: ${packed.stderr}`);
    return;
  }
  const tarball = path.join(dir, packed.stdout.trim().split('\n').pop()!);
  const modules = path.join(dir, 'project', 'node_modules');
  const pkg = path.join(modules, 'txcript');
  mkdirSync(pkg, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', pkg, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8'));
  for (const dep of Object.keys(manifest.dependencies ?? {})) {
    const target = path.join(modules, dep);
    mkdirSync(path.dirname(target), { recursive: true });
    symlinkSync(repo('node_modules', dep), target, 'dir');
  }
  t.ok(existsSync(path.join(pkg, manifest.exports['.'].types)), 'the typed entry point is packed');
  t.notOk(existsSync(path.join(pkg, 'build', 'test')), 'tests are not packed');
  writeFileSync(path.join(dir, 'project', 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(path.join(dir, 'project', 'example.mjs'), libraryExample());
  const run = spawnSync(process.execPath, ['example.mjs', repo('fixtures', 'library', 'two-harnesses.jsonl')], { cwd: path.join(dir, 'project'), encoding: 'utf8' });
  t.equal(run.stderr, '', 'no errors');
  t.equal(run.status, 0);
  t.equal(run.stdout, readFileSync(repo('fixtures', 'library', 'two-harnesses.expected'), 'utf8'), 'the output the guide shows');
});
