// Where every bin starts. The bins are CommonJS (bin/package.json says so): node
// reaches their first line without starting its ES module loader, so `--version`,
// answered here before anything else loads, costs little more than node itself.
// Anything else imports the tool (ES modules, from here on) and runs it (run.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Tool } from './run.js' with { 'resolution-mode': 'import' };

/** The package's version, or "unknown" when package.json cannot be read. */
export function version(): string {
  try {
    return JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')).version;
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
