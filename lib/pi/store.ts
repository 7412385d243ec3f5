// Where pi keeps its sessions: its agent directory ($PI_CODING_AGENT_DIR, default
// ~/.pi/agent), one folder per working directory under sessions/
// (`--<cwd, / \ : as ->--`), one file per session named `<start time>_<id>.jsonl`
// (src/config.ts, src/core/session-manager.ts). A session folder set in settings.json
// or PI_CODING_AGENT_SESSION_DIR is one flat folder instead: tx-ls --root lists it.
import { lstatSync, opendirSync, readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { FoundSession, SessionStore, WalkProblem } from '../codec.js';
import { describeError } from '../core/fs-error.js';
import { countLines } from '../core/input/file-lines.js';
import { piSessionTarget, projectDirName, sessionWithId } from './install.js';
import { firstPiPrompt, scanPiSession } from './session-scan.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** $PI_CODING_AGENT_DIR when set and non-empty (a leading `~` is the home directory, as pi reads it), else $HOME/.pi/agent (null without either). */
export function piAgentDir(env: NodeJS.ProcessEnv): string | null {
  const given = env.PI_CODING_AGENT_DIR;
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : null;
  if (given !== undefined && given !== '') {
    if (given === '~' || given.startsWith('~/')) return home === null ? null : path.join(home, given.slice(1));
    return given;
  }
  return home === null ? null : path.join(home, '.pi', 'agent');
}

/** The id a session file goes by: the UUID its name ends in (pi names files `<time>_<id>.jsonl`), else its name. */
export function piIdOf(file: string): string {
  const name = path.basename(file).replace(/\.jsonl$/, '');
  const under = name.lastIndexOf('_');
  const tail = under >= 0 ? name.slice(under + 1) : name;
  return UUID.test(tail) ? tail : name;
}

function namesOf(dir: string): string[] {
  const d = opendirSync(dir);
  const names: string[] = [];
  try {
    for (let e = d.readSync(); e !== null; e = d.readSync()) names.push(e.name);
  } finally {
    d.closeSync();
  }
  return names.sort();
}

/**
 * Every `*.jsonl` regular file of a root: directly in it (a flat session folder, or one
 * working directory's folder), and in the folders directly under it (the sessions/
 * folder of an agent directory). Deeper folders are not pi's and are not walked, nor
 * are symbolically linked folders; linked files are listed. Problems go to `onProblem`.
 */
export function* discoverPiSessions(root: string, onProblem: (p: WalkProblem) => void): Generator<FoundSession> {
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
  const walk = function* (dir: string, depth: number): Generator<FoundSession> {
    let names: string[];
    try {
      names = namesOf(dir);
    } catch (err) {
      onProblem({ path: dir, message: `cannot read directory: ${describeError(err)}` });
      return;
    }
    const folders: string[] = [];
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
        if (!linked && depth === 0) folders.push(full);
        continue;
      }
      if (!name.endsWith('.jsonl')) continue;
      if (!st.isFile()) {
        onProblem({ path: full, message: 'cannot read: not a regular file' });
        continue;
      }
      yield { path: full, project: path.basename(dir), stat: st };
    }
    for (const folder of folders) yield* walk(folder, depth + 1);
  };
  yield* walk(root, 0);
}

/**
 * The sessions of `cwd` as `pi --continue` picks among them: the `*.jsonl` files of its
 * folder under the root, newest first by modification time; the newest and those
 * modified within `windowMinutes` of it.
 */
export function currentPiSessions(root: string, cwd: string, windowMinutes: number, onProblem: (p: WalkProblem) => void = () => {}): FoundSession[] {
  const dir = path.join(root, projectDirName(cwd));
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') onProblem({ path: dir, message: code === 'ENOTDIR' ? 'not a directory, where the folder of the working directory should be' : `cannot read directory: ${describeError(err)}` });
    return [];
  }
  const found: FoundSession[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    try {
      const stat = statSync(path.join(dir, name));
      if (stat.isFile()) found.push({ path: path.join(dir, name), project: path.basename(dir), stat });
    } catch {
      // A dangling link is not a session.
    }
  }
  found.sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs || a.path.localeCompare(b.path));
  if (found.length === 0) return [];
  const newest = found[0]!.stat.mtimeMs;
  return found.filter((f) => newest - f.stat.mtimeMs <= windowMinutes * 60_000);
}

/** The pi session store. */
export const piStore: SessionStore = {
  configDir: piAgentDir,
  keeps: { subagents: false, plugins: false },
  idOf: piIdOf,
  // pi names a session file `<start time>_<id>.jsonl`; its walk takes any `*.jsonl`, as the client loads any.
  fileNames: /_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i,
  rootIn: (config) => path.join(config, 'sessions'),
  discover: discoverPiSessions,
  scan: scanPiSession,
  countLines,
  firstPrompt: firstPiPrompt,
  current: currentPiSessions,
  // pi has no subagents.
  countSubagents: () => null,
  subagentFiles: () => [],
  installTarget: (config, cwd, id, _parent, startedAt) => {
    const target = piSessionTarget(config, cwd, id, startedAt);
    // pi names a file for its session's id, whatever its start time: a file named for the id is that session, never written over.
    const existing = sessionWithId(path.join(config, 'sessions'), id, (root) => discoverPiSessions(root, () => {}), piIdOf);
    return existing === null ? target : { ...target, file: existing };
  },
  // An id (or a prefix of one) is looked up in the working directory's folder first.
  resumeCommand: (id) => `pi --session ${id}`,
  subagents: () => [],
  pluginRegistryPath: () => null,
  readPlugins: async () => {},
};
