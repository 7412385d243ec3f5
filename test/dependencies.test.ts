// Every runtime dependency package.json declares is imported by the shipped code, and
// every package the shipped code imports is declared: a dependency nobody uses is
// weight on every install, and an undeclared one breaks a clean install.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import t from 'tap';
import { repo } from './helpers.js';

/** The .ts files under a folder, recursively. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** The package a bare import specifier names (`stream-json/parser.js` → `stream-json`, `@a/b/c` → `@a/b`). */
function packageOf(spec: string): string | null {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) return null;
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return builtinModules.includes(name) ? null : name;
}

t.test('the runtime dependencies are exactly the packages lib/ and bin/ import', (t) => {
  const pkg = JSON.parse(readFileSync(repo('package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const declared = Object.keys(pkg.dependencies ?? {}).sort();
  const imported = new Set<string>();
  for (const file of [...sources(repo('lib')), ...sources(repo('bin'))]) {
    const text = readFileSync(file, 'utf8');
    // A package's files read by path (require.resolve) are imported too: the usage page inlines a chart library's.
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\.resolve\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      const name = packageOf(m[1] ?? m[2] ?? m[3]!);
      if (name) imported.add(name);
    }
  }
  t.same(declared, [...imported].sort(), 'declared dependencies = imported packages');
  t.end();
});
