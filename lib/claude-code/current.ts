// Which file is the current session: the most recently modified `*.jsonl` directly
// under the project directory of the working directory. Sessions modified within a
// window of it are returned too, newest first, so a person can choose.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_WINDOW_MINUTES, type FoundSession, type WalkProblem } from '../codec.js';
import { describeError } from '../core/fs-error.js';
import { projectDirsOf } from './slug.js';

/** Every session file directly under the project directories of `cwd`, newest first; a project path that is not a readable directory goes to `onProblem`. */
export function projectSessions(root: string, cwd: string, onProblem: (p: WalkProblem) => void = () => {}): FoundSession[] {
  const found: FoundSession[] = [];
  for (const dir of projectDirsOf(root, cwd)) {
    const full = path.join(root, dir);
    let names: string[];
    try {
      names = readdirSync(full);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A file where the project directory should be would otherwise look like a project with no session.
      if (code !== 'ENOENT') onProblem({ path: full, message: code === 'ENOTDIR' ? 'not a directory, where the project directory should be' : `cannot read directory: ${describeError(err)}` });
      continue;
    }
    for (const name of names) {
      if (!name.endsWith('.jsonl')) continue;
      try {
        const stat = statSync(path.join(full, name));
        if (stat.isFile()) found.push({ path: path.join(full, name), project: dir, stat });
      } catch {
        // A dangling link is not a session.
      }
    }
  }
  return found.sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs || a.path.localeCompare(b.path));
}

/** The newest session of `cwd` and every other modified within `windowMinutes` of it, newest first; problems go to `onProblem`. */
export function currentSessions(root: string, cwd: string, windowMinutes = DEFAULT_WINDOW_MINUTES, onProblem?: (p: WalkProblem) => void): FoundSession[] {
  const all = projectSessions(root, cwd, onProblem);
  if (all.length === 0) return [];
  const newest = all[0].stat.mtimeMs;
  return all.filter((s) => newest - s.stat.mtimeMs <= windowMinutes * 60_000);
}
