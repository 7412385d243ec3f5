// How written sessions get into a store, all or nothing. An install is one transaction
// beneath a trusted directory (a config dir, a CODEX_HOME): every target is checked
// before anything is written (no symbolic link and nothing but directories between the
// trusted directory and the file, nothing already there), every file is written to a
// temporary beside its target, and only when all are written are they linked into
// place; link() never replaces a file, unlike rename(). A refusal, an error or a signal
// at any point leaves the store as it was: temporaries, links already made, appends and
// directories the install created are all taken back.
import { closeSync, constants, createWriteStream, fstatSync, ftruncateSync, linkSync, lstatSync, mkdirSync, openSync, rmdirSync, statSync, unlinkSync, writeSync, type WriteStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { undoOnSignal } from './interrupt.js';

/** Refusals a user can act on (the message says what and where). */
export class UnsafePath extends Error {}

/** A refusal because the target file already exists (never overwritten). */
export class TargetExists extends UnsafePath {
  constructor(readonly file: string) {
    super(`${file} already exists: not overwritten`);
  }
}

/** `name` (a relative path from the data, e.g. an artifact's) as a path beneath `dir`; refuses absolute names, `..`, NUL bytes and empty names, saying `what` the name is. */
export function beneath(dir: string, name: string, what = 'path'): string {
  const parts = name.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  const said = `${what} ${JSON.stringify(name)}`;
  if (path.isAbsolute(name) || /^[a-zA-Z]:/.test(name)) throw new UnsafePath(`${said} is absolute`);
  if (parts.length === 0) throw new UnsafePath(`${said} names no file`);
  if (parts.includes('..')) throw new UnsafePath(`${said} leaves ${dir}`);
  if (parts.some((p) => p.includes('\0'))) throw new UnsafePath(`${said} holds a NUL byte`);
  return path.join(dir, ...parts);
}

interface Planned {
  file: string;
  temporary: string | null;
  /** Resolves when the temporary is complete (a stream has closed); rejects on a write error. */
  written: Promise<void>;
}

interface Appended {
  file: string;
  bytes: Buffer;
}

/** One all-or-nothing install of new files (and appends) beneath a trusted directory. */
export class InstallTransaction {
  readonly root: string;
  private planned = new Map<string, Planned>();
  private appends: Appended[] = [];
  /** Directories this install made, outermost first. */
  private made: string[] = [];
  private streams = new Set<WriteStream>();
  private cancelSignal: (() => void) | null = null;
  private done = false;

  /** An install beneath `root` (made when missing; it may itself be a symbolic link to a directory, nothing below it may). */
  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** Check that `file` can be created (beneath root, through real directories only, not there yet) and reserve it; throws UnsafePath or TargetExists. */
  plan(file: string): string {
    this.open();
    const target = this.check(file);
    if (this.planned.has(target)) throw new TargetExists(target);
    this.planned.set(target, { file: target, temporary: null, written: Promise.resolve() });
    return target;
  }

  /** Write `bytes` as the new file `file` (planned here if not yet), to its temporary until commit. */
  writeFile(file: string, bytes: Buffer | string): string {
    const entry = this.reserve(file);
    const fd = createTemporary(entry.temporary!);
    try {
      const buf = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
      for (let at = 0; at < buf.length; ) at += writeSync(fd, buf, at);
    } finally {
      closeSync(fd);
    }
    return entry.file;
  }

  /** A stream that writes the new file `file` (planned here if not yet); end it before commit. */
  createStream(file: string): WriteStream {
    const entry = this.reserve(file);
    // Opened here, not by the stream: the temporary exists from now on, so any later removal finds it.
    const stream = createWriteStream(entry.temporary!, { fd: createTemporary(entry.temporary!) });
    this.streams.add(stream);
    entry.written = new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.once('close', () => {
        this.streams.delete(stream);
        resolve();
      });
    });
    entry.written.catch(() => {});
    return stream;
  }

  /** Give up a planned file: its temporary is removed and it is not installed. */
  discard(file: string): void {
    const target = path.resolve(file);
    const entry = this.planned.get(target);
    if (!entry) return;
    this.planned.delete(target);
    if (entry.temporary) removeFile(entry.temporary);
  }

  /** Append `bytes` to `file` (created when missing) at commit, after every new file is in place; taken back if the install fails. */
  append(file: string, bytes: Buffer | string): void {
    this.open();
    const target = path.resolve(file);
    this.checkDirs(path.dirname(target));
    const stat = lstatOrNull(target);
    if (stat && !stat.isFile()) throw new UnsafePath(`${target} is not a regular file`);
    this.appends.push({ file: target, bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes });
  }

  /** Put every planned file in place and make every append, or none of them; returns the files installed. */
  async commit(): Promise<string[]> {
    if (this.done) throw new Error('install already finished');
    try {
      for (const stream of this.streams) if (!stream.writableEnded) throw new Error(`${stream.path}: still being written at commit`);
      await Promise.all([...this.planned.values()].map((p) => p.written));
    } catch (err) {
      this.abort();
      throw err;
    }
    // From here on everything is synchronous: a signal is handled only after it all.
    const linked: string[] = [];
    const appended: { fd: number; size: number }[] = [];
    try {
      for (const entry of this.planned.values()) {
        this.check(entry.file);
        if (entry.temporary === null) throw new Error(`${entry.file}: planned and never written`);
        try {
          linkSync(entry.temporary, entry.file);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new TargetExists(entry.file);
          throw err;
        }
        linked.push(entry.file);
      }
      for (const { file, bytes } of this.appends) {
        this.checkDirs(path.dirname(file));
        const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o644);
        const size = fstatSync(fd).size;
        appended.push({ fd, size });
        if (!fstatSync(fd).isFile()) throw new UnsafePath(`${file} is not a regular file`);
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      }
    } catch (err) {
      for (const { fd, size } of appended.reverse()) {
        try {
          ftruncateSync(fd, size);
        } catch {
          // Best effort: the file is as the failed write left it.
        }
      }
      for (const file of linked) removeFile(file);
      this.abort();
      throw err;
    } finally {
      for (const { fd } of appended) closeSync(fd);
    }
    for (const entry of this.planned.values()) removeFile(entry.temporary!);
    // Directories made only for a file given up (discard) go again; the others hold what was installed.
    removeEmptyDirs(this.made);
    this.made = [];
    this.finish();
    return [...this.planned.keys()];
  }

  /** Take back everything not yet committed: temporaries and the directories this install made. Safe to call twice. */
  abort(): void {
    if (this.done) return;
    for (const stream of this.streams) stream.destroy();
    this.streams.clear();
    for (const entry of this.planned.values()) if (entry.temporary) removeFile(entry.temporary);
    removeEmptyDirs(this.made);
    this.made = [];
    this.finish();
  }

  private open(): void {
    if (this.done) throw new Error('install already finished');
    if (this.cancelSignal === null) this.cancelSignal = undoOnSignal(() => this.abort());
  }

  private finish(): void {
    this.done = true;
    this.cancelSignal?.();
    this.cancelSignal = null;
  }

  /** The planned entry of `file`, planning it now if needed, with its temporary named and its directory made. */
  private reserve(file: string): Planned {
    const target = path.resolve(file);
    if (!this.planned.has(target)) this.plan(target);
    const entry = this.planned.get(target)!;
    if (entry.temporary !== null) throw new TargetExists(target);
    this.makeDirs(path.dirname(target));
    entry.temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    return entry;
  }

  /** `file` resolved, beneath root through real directories, and not there yet. */
  private check(file: string): string {
    const target = path.resolve(file);
    this.checkDirs(path.dirname(target));
    if (lstatOrNull(target)) throw new TargetExists(target);
    return target;
  }

  /** Refuse `dir` unless every existing part of it below root is a directory, not a link; root must be a directory (or a link to one) if it exists. */
  private checkDirs(dir: string): void {
    const below = path.relative(this.root, dir);
    if (below.startsWith('..') || path.isAbsolute(below)) throw new UnsafePath(`${dir} is not beneath ${this.root}`);
    const rootStat = statOrNull(this.root);
    if (rootStat === null) return;
    if (!rootStat.isDirectory()) throw new UnsafePath(`${this.root} is not a directory`);
    let at = this.root;
    for (const part of below.split(path.sep).filter(Boolean)) {
      at = path.join(at, part);
      const stat = lstatOrNull(at);
      if (stat === null) return;
      if (stat.isSymbolicLink()) throw new UnsafePath(`${at} is a symbolic link: refusing to write through it`);
      if (!stat.isDirectory()) throw new UnsafePath(`${at} is not a directory`);
    }
  }

  /** Make `dir` and its missing parents (root included), remembering each one made. */
  private makeDirs(dir: string): void {
    this.checkDirs(dir);
    const missing: string[] = [];
    for (let at = dir; statOrNull(at) === null; at = path.dirname(at)) {
      missing.unshift(at);
      if (path.dirname(at) === at) break;
    }
    for (const at of missing) {
      try {
        mkdirSync(at);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw err;
      }
      this.made.push(at);
    }
    this.checkDirs(dir);
  }
}

/** The file's status (of the link itself unless `follow`), or null when it does not exist. */
function statOrNull(file: string, follow = true) {
  try {
    return follow ? statSync(file) : lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') throw new UnsafePath(`${file}: a part of the path is not a directory`);
    throw err;
  }
}

function lstatOrNull(file: string) {
  return statOrNull(file, false);
}

/** Remove the directories of `made` (outermost first) that are empty, innermost first; one that is not empty holds something else, which stays. */
function removeEmptyDirs(made: string[]): void {
  for (const dir of [...made].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      // Not empty: kept.
    }
  }
}

/** A new temporary file, opened for writing; never an existing file or a link. */
function createTemporary(file: string): number {
  return openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644);
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
