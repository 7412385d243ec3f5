// The layout's rules, read from the sources, so a new import anywhere breaks this test:
// a command reaches a harness only through the registry (lib/codecs.ts); the core knows
// no harness, no record and no command; the two wire contracts stand on nothing; no
// harness folder imports another; no module imports itself round a circle; and the
// tools that need a codec in part load no whole codec at start-up.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { repo } from './helpers.js';

const IMPORT = /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*[`'"]([^`'"]+)[`'"]\s*\)/gm;

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

/** The .ts and .cts files of a folder, with its subfolders when `deep`. */
function sources(dir: string, deep = false): string[] {
  const out: string[] = [];
  for (const f of readdirSync(repo(dir))) {
    const p = repo(dir, f);
    if (statSync(p).isDirectory()) {
      if (deep) out.push(...sources(path.join(dir, f), true));
    } else if (/\.c?ts$/.test(f)) out.push(p);
  }
  return out;
}

/** The harness folders: those under lib/ holding a codec's line members. */
const HARNESS_DIRS = readdirSync(repo('lib'))
  .filter((d) => {
    try {
      return statSync(repo('lib', d, 'codec-line.ts')).isFile();
    } catch {
      return false;
    }
  })
  .map((d) => `lib/${d}/`);
const inHarness = (m: string) => HARNESS_DIRS.some((d) => m.startsWith(d));
const rel = (file: string) => path.relative(repo(), file);

t.test('the harness folders are found, and the registry names each one', async (t) => {
  t.ok(HARNESS_DIRS.includes('lib/claude-code/') && HARNESS_DIRS.includes('lib/codex/'), `found ${HARNESS_DIRS.join(', ')}`);
  const registry = importsOf(repo('lib', 'codecs.ts'));
  for (const dir of HARNESS_DIRS) t.ok(registry.some((m) => m.startsWith(dir)), `lib/codecs.ts names ${dir}`);
});

t.test('no command, bin or record reader imports a harness folder; they go through lib/codecs.ts', async (t) => {
  const files = [...sources('lib/commands'), ...sources('bin'), ...sources('lib/records'), ...sources('lib/continuable'), ...sources('lib/render'), ...sources('lib/redact')];
  t.ok(files.length >= 20, 'the commands, bins and shared layers are found');
  for (const file of files) t.same(importsOf(file).filter(inHarness), [], `${rel(file)} imports no harness module`);
});

t.test('only the registry imports a harness folder from outside it', async (t) => {
  for (const file of sources('lib', true)) {
    if (inHarness(rel(file)) || rel(file) === 'lib/codecs.ts') continue;
    t.same(importsOf(file).filter(inHarness), [], `${rel(file)} imports no harness module`);
  }
});

t.test('the core imports nothing outside lib/core: no harness, no record, no command', async (t) => {
  const files = sources('lib/core', true);
  t.ok(files.length >= 30, 'the core is found, folders and all');
  for (const file of files) t.same(importsOf(file).filter((m) => !m.startsWith('lib/core/')), [], `${rel(file)} stands on the core alone`);
});

t.test('the wire contracts (lib/record.ts, lib/common.ts) import nothing', async (t) => {
  for (const file of ['record.ts', 'common.ts']) t.same(importsOf(repo('lib', file)), [], `lib/${file} stands on nothing`);
});

t.test('one harness folder does not import another', async (t) => {
  for (const dir of HARNESS_DIRS) {
    for (const file of sources(dir, true)) {
      t.same(importsOf(file).filter((m) => inHarness(m) && !m.startsWith(dir)), [], `${rel(file)} imports no other harness`);
    }
  }
});

t.test('no import circle in lib/', async (t) => {
  const graph = new Map<string, string[]>();
  for (const file of sources('lib', true)) graph.set(rel(file).replace(/\.c?ts$/, ''), importsOf(file).map((m) => m.replace(/\.c?js$/, '')));
  // Depth-first search with colours; a grey node met again closes a circle.
  const colour = new Map<string, 'grey' | 'black'>();
  const circles: string[] = [];
  const stack: string[] = [];
  const visit = (node: string) => {
    colour.set(node, 'grey');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (colour.get(next) === 'grey') circles.push([...stack.slice(stack.indexOf(next)), next].join(' → '));
      else if (!colour.has(next)) visit(next);
    }
    stack.pop();
    colour.set(node, 'black');
  };
  for (const node of graph.keys()) if (!colour.has(node)) visit(node);
  t.ok(graph.size > 100, 'the graph holds lib/');
  t.same(circles, [], 'no module reaches itself through its imports');
});

t.test('tx-parse, tx-filter, tx-stats, tx-common and tx-render load no codec facet at start-up but the line members', async (t) => {
  for (const command of ['parse', 'filter', 'stats', 'common', 'render']) {
    const loaded = [...loadedWith(repo('lib', 'commands', `${command}.ts`))];
    t.ok(loaded.length > 5, `${command}: its imports are followed`);
    t.same(
      loaded.filter((m) => inHarness(m) && /\/codec(-filter|-stats|-common)?\.ts$/.test(m)),
      [],
      `${command} imports a facet only when it asks the registry for it`,
    );
  }
  t.ok(loadedWith(repo('lib', 'commands', 'ls.ts')).has('lib/codecs.ts'), 'the reader finds lib/codecs.ts where a command loads it');
});

t.test('the layout: a flat core of at most 12 files, each folder of lib/core saying what lives there, no module over 400 lines', async (t) => {
  const core = readdirSync(repo('lib', 'core'));
  const files = core.filter((f) => /\.c?ts$/.test(f));
  t.ok(files.length <= 12, `lib/core holds ${files.length} files directly`);
  for (const dir of core.filter((f) => statSync(repo('lib', 'core', f)).isDirectory())) {
    t.ok(readFileSync(repo('lib', 'core', dir, 'README.md'), 'utf8').length > 40, `lib/core/${dir}/README.md says what lives there`);
  }
  for (const file of sources('lib', true)) {
    const lines = readFileSync(file, 'utf8').split('\n').length - 1;
    t.ok(lines <= 400, `${rel(file)}: ${lines} lines`);
  }
});

t.test('the import reader sees the forms imports are written in', async (t) => {
  const sample = "import a from './x.js';\nimport type { B } from '../claude-code/y.js';\nexport { c } from './z.js';\nimport './side.js';\nconst d = await import('../codex/w.js');\nconst e = import(`./codex/${f}.js`);\n";
  const m = [...sample.matchAll(IMPORT)].map((x) => x[1] ?? x[2] ?? x[3]);
  t.same(m, ['./x.js', '../claude-code/y.js', './z.js', './side.js', '../codex/w.js', './codex/${f}.js']);
  const loaded = [...sample.matchAll(STATIC_IMPORT)].map((x) => x[1] ?? x[2]);
  t.same(loaded, ['./x.js', './z.js', './side.js'], 'what loads at start-up: not a type import, not import()');
});
