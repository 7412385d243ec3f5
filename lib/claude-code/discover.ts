// Discovery: every session file under a root, as the walk finds it. Skips the
// side-file folders of a session (subagents/, tool-results/) and symlinked
// directories (so a link loop cannot trap the walk); symlinked files are listed.
// Synchronous directory reads: one small call each, cheaper than a promise per entry.
import { lstatSync, opendirSync, statSync, type Dir, type Stats } from 'node:fs';
import path from 'node:path';
import type { FoundSession, WalkProblem } from '../codec.js';
import { describeError } from '../core/fs-error.js';

const SKIPPED_DIRS = new Set(['subagents', 'tool-results']);

function readNames(dir: string): string[] {
  let handle: Dir | null = null;
  const names: string[] = [];
  try {
    handle = opendirSync(dir);
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) names.push(entry.name);
  } finally {
    handle?.closeSync();
  }
  return names.sort();
}

/**
 * Walk `root` depth first in name order and yield each `*.jsonl` regular file.
 * A missing root yields nothing; problems (unreadable directories, dangling
 * links, a `*.jsonl` that is not a regular file) go to `onProblem` and are skipped.
 */
export function* discoverSessions(root: string, onProblem: (p: WalkProblem) => void): Generator<FoundSession> {
  let rootStat: Stats;
  try {
    rootStat = statSync(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') onProblem({ path: root, message: describeError(err) });
    return;
  }
  if (rootStat.isFile()) {
    if (root.endsWith('.jsonl')) yield { path: root, project: path.basename(path.dirname(path.resolve(root))), stat: rootStat };
    return;
  }
  const stack: string[] = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readNames(dir);
    } catch (err) {
      onProblem({ path: dir, message: `cannot read directory: ${describeError(err)}` });
      continue;
    }
    const subdirs: string[] = [];
    for (const name of names) {
      const full = path.join(dir, name);
      let st: Stats;
      let linked: boolean;
      try {
        st = lstatSync(full);
        linked = st.isSymbolicLink();
        if (linked) st = statSync(full);
      } catch (err) {
        if (name.endsWith('.jsonl')) onProblem({ path: full, message: `cannot read: ${describeError(err)}` });
        continue;
      }
      if (st.isDirectory()) {
        if (!linked && !SKIPPED_DIRS.has(name)) subdirs.push(full);
        continue;
      }
      if (!name.endsWith('.jsonl')) continue;
      if (!st.isFile()) {
        onProblem({ path: full, message: 'cannot read: not a regular file' });
        continue;
      }
      yield { path: full, project: path.basename(dir), stat: st };
    }
    // Depth first in name order: push in reverse so the first name is walked first.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}
