// The seam between the commands and the harnesses: a command reaches a harness only
// through the codec registries (lib/codecs.ts, and the partial ones lib/codecs-*.ts),
// and the core knows no harness at all. The tools that need a codec in part do not
// load the whole one at start-up. Read from the sources, so a new import anywhere in a
// command breaks this test.
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

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\brequire\(\s*['"](\.[^'"]+)['"]\s*\)/gm;

/** The modules loaded when `file` is (static imports and require() calls, followed; `import type` and import() left out), as .ts and .cts paths. */
function loadedWith(file: string): Set<string> {
  const seen = new Set<string>([path.relative(repo(), file)]);
  const todo = [file];
  while (todo.length > 0) {
    const from = todo.pop()!;
    for (const m of readFileSync(from, 'utf8').matchAll(STATIC_IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith('.')) continue;
      const ts = path.resolve(path.dirname(from), spec).replace(/\.js$/, '.ts').replace(/\.cjs$/, '.cts');
      const rel = path.relative(repo(), ts);
      if (!seen.has(rel)) {
        seen.add(rel);
        todo.push(ts);
      }
    }
  }
  return seen;
}

function sources(dir: string): string[] {
  return readdirSync(repo(dir))
    .filter((f) => /\.c?ts$/.test(f))
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

t.test('tx-parse, tx-filter, tx-stats, tx-common and tx-render do not load the whole codecs at start-up', async (t) => {
  // lib/codecs.ts brings in every converter, writer and store: some 40 modules more.
  for (const command of ['parse', 'filter', 'stats', 'common', 'render']) {
    const loaded = loadedWith(repo('lib', 'commands', `${command}.ts`));
    t.ok(loaded.size > 5, `${command}: its imports are followed`);
    t.notOk(loaded.has('lib/codecs.ts'), `${command} does not load lib/codecs.ts`);
    t.notOk(loaded.has('lib/claude-code/codec.ts') || loaded.has('lib/codex/codec.ts'), `${command} does not load a whole codec`);
  }
  t.ok(loadedWith(repo('lib', 'commands', 'ls.ts')).has('lib/codecs.ts'), 'the reader finds lib/codecs.ts where a command loads it');
});

t.test('the import reader sees the forms imports are written in', async (t) => {
  const sample = "import a from './x.js';\nimport type { B } from '../claude-code/y.js';\nexport { c } from './z.js';\nimport './side.js';\nconst d = await import('../codex/w.js');\n";
  const m = [...sample.matchAll(IMPORT)].map((x) => x[1] ?? x[2] ?? x[3]);
  t.same(m, ['./x.js', '../claude-code/y.js', './z.js', './side.js', '../codex/w.js']);
  const loaded = [...sample.matchAll(STATIC_IMPORT)].map((x) => x[1] ?? x[2]);
  t.same(loaded, ['./x.js', './z.js', './side.js'], 'what loads at start-up: not a type import, not import()');
});
