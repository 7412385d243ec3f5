// Following files as they grow, like `tail -F`: the bytes appended to each file come
// out as chunks, in bounded reads from the offset reached, so memory stays flat. A file
// that became shorter than that offset was truncated and is read again from 0; a new
// file at the path (another inode) is read from 0 once the old one has been read to its
// end. Changes are noticed by fs.watch on the files' directories, and by a poll every
// FOLLOW_INTERVAL ms for what watching misses (network file systems, inotify limits,
// directories that did not exist yet). Only regular files are followed.
import { closeSync, fstatSync, readSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { openRegular } from './regular-file.js';

/** Milliseconds between polls when no watch event comes. */
export const FOLLOW_INTERVAL = 500;

/** The largest read from a followed file at once. */
const READ = 1 << 20;

/** What following a file gives: bytes appended, or the start of new content at the path. */
export type FollowEvent =
  | { type: 'data'; file: string; chunk: Buffer }
  /** The file's content starts again (read from 0): it was truncated, or replaced by another file. */
  | { type: 'restart'; file: string; why: 'truncated' | 'replaced' }
  /** Every file has been read to its end for now; a good moment to flush output. */
  | { type: 'idle' };

/** One followed path: the open file, its identity, and how far it has been read. */
export class FollowedFile {
  private fd: number;
  private ino: number;
  private dev: number;
  private offset = 0;

  /** Opens `file` (a regular file; throws otherwise, or when it cannot be opened). */
  constructor(readonly file: string) {
    const { fd } = openRegular(file);
    const st = fstatSync(fd);
    this.fd = fd;
    this.ino = st.ino;
    this.dev = st.dev;
  }

  /** What has changed since the last poll: chunks of appended bytes, restarts; synchronous reads of at most 1 MiB each. */
  *poll(): Generator<FollowEvent> {
    if (fstatSync(this.fd).size < this.offset) {
      this.offset = 0;
      yield { type: 'restart', file: this.file, why: 'truncated' };
    }
    yield* this.readToEnd();
    // Replaced: the old file has been read to its end; what is at the path now starts at 0.
    const now = this.atPath();
    if (now !== null && (now.ino !== this.ino || now.dev !== this.dev)) {
      let opened: { fd: number } | null = null;
      try {
        opened = openRegular(this.file);
      } catch {
        // Not openable (or not a regular file) yet: try again at the next poll.
        return;
      }
      const st = fstatSync(opened.fd);
      closeSync(this.fd);
      this.fd = opened.fd;
      this.ino = st.ino;
      this.dev = st.dev;
      this.offset = 0;
      yield { type: 'restart', file: this.file, why: 'replaced' };
      yield* this.readToEnd();
    }
  }

  /** Stop following. */
  close(): void {
    closeSync(this.fd);
  }

  private *readToEnd(): Generator<FollowEvent> {
    for (;;) {
      // Sized by what the file holds now (a live session grows by a few KB at a time).
      const size = Math.min(READ, Math.max(fstatSync(this.fd).size - this.offset, 64 * 1024));
      const buf = Buffer.allocUnsafe(size);
      const got = readSync(this.fd, buf, 0, size, this.offset);
      if (got === 0) return;
      this.offset += got;
      yield { type: 'data', file: this.file, chunk: got === size ? buf : buf.subarray(0, got) };
    }
  }

  private atPath(): { ino: number; dev: number } | null {
    try {
      const st = statSync(this.file);
      return { ino: st.ino, dev: st.dev };
    } catch {
      // Removed (or moved away): keep the open file until something appears at the path.
      return null;
    }
  }
}

/** How to follow. */
export interface FollowOptions {
  /** The files to follow from their start. */
  files: string[];
  /** More files to follow as they appear (asked at every poll), with directories to watch for them. */
  discover?: () => { files: string[]; dirs: string[] };
  /** Ends the following, after one last read of every file. */
  signal: AbortSignal;
  /** A file that cannot be followed (it is skipped): its name and why. */
  onSkip(file: string, err: unknown): void;
  /** Milliseconds between polls (default FOLLOW_INTERVAL). */
  intervalMs?: number;
}

/** The events of following every file until the signal aborts; the files close when the loop ends. */
export async function* follow(options: FollowOptions): AsyncGenerator<FollowEvent> {
  const followed = new Map<string, FollowedFile>();
  const refused = new Set<string>();
  const watchers = new Map<string, FSWatcher>();
  let wake: (() => void) | null = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const add = (file: string) => {
    if (followed.has(file) || refused.has(file)) return;
    try {
      followed.set(file, new FollowedFile(file));
    } catch (err) {
      refused.add(file);
      options.onSkip(file, err);
    }
  };
  const watchDir = (dir: string) => {
    if (watchers.has(dir)) return;
    try {
      const w = watch(dir, { persistent: false }, poke);
      w.on('error', () => {});
      watchers.set(dir, w);
    } catch {
      // The directory is not there yet, or watches ran out: the poll interval covers it.
    }
  };
  options.signal.addEventListener('abort', poke);
  try {
    for (const file of options.files) add(file);
    for (;;) {
      // Once stopped, one last round reads what the files hold by then.
      const last = options.signal.aborted;
      const found = options.discover?.();
      for (const file of found?.files ?? []) add(file);
      for (const f of followed.values()) watchDir(path.dirname(f.file));
      for (const dir of found?.dirs ?? []) watchDir(dir);
      for (const f of followed.values()) {
        for (const event of f.poll()) yield event;
      }
      yield { type: 'idle' };
      if (last) break;
      if (options.signal.aborted) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(poke, options.intervalMs ?? FOLLOW_INTERVAL);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    options.signal.removeEventListener('abort', poke);
    for (const w of watchers.values()) w.close();
    for (const f of followed.values()) f.close();
  }
}
