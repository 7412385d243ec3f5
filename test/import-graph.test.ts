// The seam between the commands and the harnesses: a command reaches a harness only
// through the codec registry (lib/codecs.ts), and the core knows no harness at all.
// Read from the sources, so a new import anywhere in a command breaks this test.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { repo } from './helpers.js';

const IMPORT = /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The relative modules a source file imports, resolved to paths under the repository. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec.startsWith('.')) found.push(path.relative(repo(), path.resolve(path.dirname(file), spec)));
  }
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(repo(dir))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => repo(dir, f));
}

const HARNESS_DIRS = ['lib/claude-code/', 'lib/codex/'];

t.test('no command or bin imports a harness folder; they go through lib/codecs.ts', async (t) => {
  const files = [...sources('lib/commands'), ...sources('bin')];
  t.ok(files.length >= 14, 'the commands and bins are found');
  for (const file of files) {
    const bad = importsOf(file).filter((m) => HARNESS_DIRS.some((d) => m.startsWith(d)));
    t.same(bad, [], `${path.relative(repo(), file)} imports no harness module`);
  }
});

t.test('the core imports no harness folder and no command', async (t) => {
  for (const file of sources('lib/core')) {
    const bad = importsOf(file).filter((m) => HARNESS_DIRS.some((d) => m.startsWith(d)) || m.startsWith('lib/commands/'));
    t.same(bad, [], `${path.relative(repo(), file)} stays harness-neutral`);
  }
});

t.test('one harness folder does not import the other', async (t) => {
  for (const [dir, other] of [['lib/claude-code', 'lib/codex/'], ['lib/codex', 'lib/claude-code/']]) {
    for (const file of sources(dir)) t.same(importsOf(file).filter((m) => m.startsWith(other)), [], `${path.relative(repo(), file)} imports nothing of ${other}`);
  }
});

t.test('the import reader sees the forms imports are written in', async (t) => {
  const sample = "import a from './x.js';\nimport type { B } from '../claude-code/y.js';\nexport { c } from './z.js';\nimport './side.js';\nconst d = await import('../codex/w.js');\n";
  const m = [...sample.matchAll(IMPORT)].map((x) => x[1] ?? x[2] ?? x[3]);
  t.same(m, ['./x.js', '../claude-code/y.js', './z.js', './side.js', '../codex/w.js']);
});
