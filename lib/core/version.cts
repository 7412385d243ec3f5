// The package's version, read from its package.json: CommonJS, so that start.cts answers
// `--version` without starting the ES module loader, and run.ts requires it as cheaply.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The package's version, or "unknown" when package.json cannot be read. */
export function version(): string {
  try {
    return JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}
