// What the tx-continue tests with the real clients share (continue, pi-continue,
// gemini-pi): a scratch directory, the environment the command runs in, and the printed
// command checked and read back.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test as Tap } from 'tap';

/** A scratch directory removed when the test ends. */
export function scratch(t: { teardown(fn: () => void): void }, prefix = 'tx-continue-conf-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The environment tx-continue runs in: a PATH and a scratch HOME, nothing else. */
export const env = (home: string) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home });

/** The printed command's parts: its directory, the store its variable names, and the id it resumes. */
export function parseCommand(command: string): { cwd: string; store: string | null; id: string } | null {
  const m = /^cd (\S+) && (?:\w+=(\S+) )?(?:claude --resume|codex resume|gemini --resume|pi --session) (\S+)\n$/.exec(command);
  return m ? { cwd: m[1]!, store: m[2] ?? null, id: m[3]! } : null;
}

/** tx-continue's run checked (exit 0, one command printed) and the command read back, its directory made for the client to start in. */
export function printedCommand(t: Tap, r: { status: number | null; stdout: Buffer; stderr: string }): { cwd: string; store: string | null; id: string } | null {
  t.equal(r.status, 0, r.stderr);
  const command = parseCommand(r.stdout.toString());
  t.ok(command, `the command: ${r.stdout}`);
  if (command) mkdirSync(command.cwd, { recursive: true });
  return command;
}
