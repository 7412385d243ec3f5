// How a written session gets into a store: through a temporary file linked into place
// (never over an existing session), with artifacts kept inside the session's own
// directory whatever their names say.
import { closeSync, constants, existsSync, linkSync, lstatSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { InstallTarget } from '../codec.js';

/** Refusals a user can act on. */
export class UnsafePath extends Error {}

/** A temporary file beside `file`, to be linked into place by commitFile. */
export function temporaryFor(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
}

/** Move a finished temporary file to `file`; fails (and removes the temporary) if `file` exists. */
export function commitFile(temporary: string, file: string): void {
  try {
    // link() will not replace an existing file, unlike rename(): the check and the move are one step.
    linkSync(temporary, file);
  } finally {
    unlinkSync(temporary);
  }
}

/** True when a session file is already there. */
export function sessionExists(target: InstallTarget): boolean {
  return existsSync(target.file);
}

/**
 * Write `bytes` as `name` beneath `dir`, refusing names that are absolute, climb out
 * with `..`, or pass through a symbolic link (in `name`, or in `dir` below the trusted
 * directory `trusted`); never overwrites. Returns the path written.
 */
export function writeBeneath(trusted: string, dir: string, name: string, bytes: Buffer): string {
  const parts = name.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (path.isAbsolute(name) || /^[a-zA-Z]:/.test(name)) throw new UnsafePath(`artifact path ${JSON.stringify(name)} is absolute`);
  if (parts.length === 0) throw new UnsafePath(`artifact path ${JSON.stringify(name)} names no file`);
  if (parts.includes('..')) throw new UnsafePath(`artifact path ${JSON.stringify(name)} leaves the session directory`);
  if (parts.some((p) => p.includes('\0'))) throw new UnsafePath(`artifact path ${JSON.stringify(name)} holds a NUL byte`);
  const below = path.relative(trusted, dir).split(path.sep).filter(Boolean);
  if (below.includes('..')) throw new UnsafePath(`${dir} is not beneath ${trusted}`);
  let at = trusted;
  for (const part of [...below, ...parts.slice(0, -1)]) {
    at = path.join(at, part);
    try {
      if (lstatSync(at).isSymbolicLink()) throw new UnsafePath(`artifact path ${JSON.stringify(name)} passes through a symbolic link`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(at);
    }
  }
  const file = path.join(at, parts[parts.length - 1]);
  let fd: number;
  try {
    // O_EXCL refuses an existing file and, with O_CREAT, a symbolic link even when it dangles.
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new UnsafePath(`artifact ${JSON.stringify(name)} already exists at ${file}`);
    throw err;
  }
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
  return file;
}
