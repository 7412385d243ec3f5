// The command line every recorder of a real client shares (npm run record:<harness>):
// `[--out DIR] [--readme] [SCENARIO...]`. It installs the pinned client, records each
// scenario named (all by default) into DIR, writes CLI_VERSION and the README table, and
// exits 1 when a scenario failed, 2 for an unknown one.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What a recorder of one client supplies. */
export interface Recorder<S extends { name: string }> {
  /** The name its messages start with (`record:pi`). */
  tag: string;
  /** The fixtures folder written by default. */
  outRoot: string;
  scenarios: readonly S[];
  /** The pinned client version, written to CLI_VERSION. */
  version: string;
  /** Install (or find) the pinned client before any scenario runs. */
  install(): unknown;
  record(scenario: S, outRoot: string): Promise<unknown>;
  /** The README of the fixtures folder, from what it holds. */
  readme(outRoot: string): string;
}

/** Run a recorder on command-line arguments; resolves to the exit status. */
export async function recordMain<S extends { name: string }>(r: Recorder<S>, args: string[]): Promise<number> {
  let outRoot = r.outRoot;
  let readmeOnly = false;
  const argv: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out' && args[i + 1]) outRoot = path.resolve(args[++i]!);
    else if (args[i] === '--readme') readmeOnly = true;
    else argv.push(args[i]!);
  }
  if (readmeOnly) {
    writeFileSync(path.join(outRoot, 'README.md'), r.readme(outRoot));
    return 0;
  }
  const names = r.scenarios.map((s) => s.name);
  const wanted = argv.length ? argv : names;
  const unknown = wanted.filter((w) => !names.includes(w));
  if (unknown.length) {
    process.stderr.write(`${r.tag}: unknown scenario ${unknown.join(', ')} (known: ${names.join(', ')})\n`);
    return 2;
  }
  r.install();
  mkdirSync(outRoot, { recursive: true });
  writeFileSync(path.join(outRoot, 'CLI_VERSION'), r.version + '\n');
  let failed = 0;
  for (const name of wanted) {
    const sc = r.scenarios.find((s) => s.name === name)!;
    const t1 = Date.now();
    try {
      await r.record(sc, outRoot);
      process.stderr.write(`${r.tag}: ${name} ok in ${((Date.now() - t1) / 1000).toFixed(1)}s\n`);
    } catch (err) {
      failed++;
      process.stderr.write(`${r.tag}: ${name} FAILED: ${(err as Error).message}\n`);
    }
  }
  writeFileSync(path.join(outRoot, 'README.md'), r.readme(outRoot));
  return failed ? 1 : 0;
}

/** When `moduleUrl` is the script node was started with, run the recorder and exit with its status. */
export function runIfMain<S extends { name: string }>(moduleUrl: string, r: Recorder<S>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== path.resolve(new URL(moduleUrl).pathname)) return;
  recordMain(r, process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${r.tag}: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
