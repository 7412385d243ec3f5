// Where every bin starts. `--version` is answered before the tool's modules are
// loaded: they are most of a start-up (the codec registry brings in every harness,
// stream-json, fzstd), and a version needs none of them. Anything else loads the
// tool and runs it (run.ts).
import { readFileSync } from 'node:fs';
import type { Tool } from './run.js';

/** The package's version, or "unknown" when package.json cannot be read. */
export function version(): string {
  try {
    return JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/**
 * True when the arguments ask for the version alone, as run() would read them:
 * `--version` before any `--`, and no help flag (help wins there).
 */
export function asksVersion(argv: string[]): boolean {
  const end = argv.indexOf('--');
  const flags = end < 0 ? argv : argv.slice(0, end);
  return flags.includes('--version') && !flags.some((a) => a.startsWith('--help') || /^-[^-]*h/.test(a));
}

/** Run the tool `load` imports on this process, after answering `--version` without it. */
export function start(name: string, load: () => Promise<Tool>): void {
  if (asksVersion(process.argv.slice(2))) {
    process.stdout.write(`${name} ${version()}\n`);
    return;
  }
  Promise.all([import('./run.js'), load()]).then(
    ([{ main }, tool]) => main(tool),
    (err) => {
      process.stderr.write(`${name}: internal error: ${err && err.message ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
