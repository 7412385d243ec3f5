// Where every bin starts. The bins are CommonJS (bin/package.json says so): node
// reaches their first line without starting its ES module loader, so `--version`,
// answered here before anything else loads, costs little more than node itself.
// Anything else imports the tool (ES modules, from here on) and runs it (run.ts).
import { writeSync } from 'node:fs';
import type { Tool } from './tool.js' with { 'resolution-mode': 'import' };
import { version } from './version.cjs';

/**
 * True when the arguments ask for the version alone, as run() would read them:
 * `--version` before any `--`, and no help flag (help wins there).
 */
export function asksVersion(argv: string[]): boolean {
  const end = argv.indexOf('--');
  const flags = end < 0 ? argv : argv.slice(0, end);
  return flags.includes('--version') && !flags.some((a) => a.startsWith('--help') || /^-[^-]*h/.test(a));
}

/**
 * Write the version with one blocking write, as Output writes: a reader gone away (EPIPE)
 * is a quiet exit 0, a write that fails otherwise (a full disk) is one line and status 1.
 * A descriptor that would block is left to node's stream.
 */
function answerVersion(name: string): void {
  const text = `${name} ${version()}\n`;
  try {
    writeSync(1, text);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EAGAIN') process.stdout.on('error', () => {}).write(text);
    else if (e.code !== 'EPIPE') {
      // OutputFailed's words; describeError is an ES module, which this CommonJS start does not load.
      process.stderr.write(`${name}: cannot write the output: ${e.code === 'ENOSPC' ? 'no space left on the device' : e.message}\n`);
      process.exitCode = 1;
    }
  }
}

/** Run the tool `load` imports on this process, after answering `--version` without it. */
export function start(name: string, load: () => Promise<Tool>): void {
  if (asksVersion(process.argv.slice(2))) {
    answerVersion(name);
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
