// Where Gemini CLI keeps its sessions: `.gemini/` in $GEMINI_CLI_HOME, else in $HOME; a
// project's chats in `tmp/<name>/chats/session-<date>T<hh>-<mm>-<id8>.jsonl` (`.json` for
// a client before 0.39), its subagents' in `tmp/<name>/chats/<session id>/<id>.jsonl`.
// A resume leaves a second file of the session behind (the one the client opened before
// it knew it resumed, holding nothing to resume), and resuming an older `.json` chat
// writes a `.jsonl` beside it: of the files of one session in a folder, the walk lists
// the one the client resumes (packages/cli/src/utils/sessionUtils.ts getSessionFiles):
// the last updated of those with something to resume.
import { existsSync, lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { FoundSession, SessionStore, WalkProblem } from '../codec.js';
import { describeError } from '../core/fs-error.js';
import { countLines, type ReadCounter } from '../core/input/file-lines.js';
import { chatIdOf, firstChatPrompt, resumable, scanChat } from './chat-scan.js';
import { installTarget } from './install.js';
import { knownProject } from './project.js';

/** A main session's chat file. */
const CHAT_FILE = /^session-.+\.jsonl?$/;

/** `.gemini` in $GEMINI_CLI_HOME when set and not empty, else in $HOME (null without either). */
export function geminiConfig(env: NodeJS.ProcessEnv): string | null {
  const home = env.GEMINI_CLI_HOME !== undefined && env.GEMINI_CLI_HOME !== '' ? env.GEMINI_CLI_HOME : env.HOME;
  return home === undefined || home === '' ? null : path.join(home, '.gemini');
}

function statOf(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/** The project a chat belongs to: the folder above its `chats/`, relative to the root walked. */
function projectOf(root: string, dir: string): string {
  const holder = path.basename(dir) === 'chats' ? path.dirname(dir) : dir;
  return path.relative(root, holder) || path.basename(holder);
}

/** The chat files of one folder, one per session: of several files of one session id, the one the client resumes. */
function chatsIn(dir: string, names: string[], root: string, onProblem: (p: WalkProblem) => void): FoundSession[] {
  const found: FoundSession[] = [];
  for (const name of names) {
    if (!CHAT_FILE.test(name)) continue;
    const full = path.join(dir, name);
    try {
      const st = statSync(full);
      if (st.isFile()) found.push({ path: full, project: projectOf(root, dir), stat: st });
    } catch (err) {
      onProblem({ path: full, message: `cannot read: ${describeError(err)}` });
    }
  }
  // Files of one session share the eight characters before the extension; only those are read whole.
  const byShort = new Map<string, FoundSession[]>();
  for (const f of found) {
    const short = path.basename(f.path).replace(/\.jsonl?$/, '').slice(-8);
    byShort.set(short, [...(byShort.get(short) ?? []), f]);
  }
  const dropped = new Set<string>();
  for (const group of byShort.values()) {
    if (group.length < 2) continue;
    const byId = new Map<string, FoundSession[]>();
    for (const f of group) {
      const id = chatIdOf(f.path);
      byId.set(id, [...(byId.get(id) ?? []), f]);
    }
    for (const same of byId.values()) {
      if (same.length < 2) continue;
      const judged = same.map((f) => ({ f, ...resumableOrNot(f) }));
      const pool = judged.some((j) => j.resumable) ? judged.filter((j) => j.resumable) : judged;
      const kept = pool.reduce((a, b) => (Date.parse(b.lastUpdated) > Date.parse(a.lastUpdated) ? b : a));
      for (const j of judged) if (j !== kept) dropped.add(j.f.path);
    }
  }
  return found.filter((f) => !dropped.has(f.path));
}

function resumableOrNot(f: FoundSession): { resumable: boolean; lastUpdated: string } {
  try {
    return resumable(f.path, f.stat.size);
  } catch {
    return { resumable: false, lastUpdated: '' };
  }
}

/** Every main session's chat file under a root (a `.gemini/tmp`, a project's folder, any folder, or one chat file), in name order. */
export function* discoverChats(root: string, onProblem: (p: WalkProblem) => void): Generator<FoundSession> {
  const top = statOf(root);
  if (top === null) return;
  if (top.isFile()) {
    if (CHAT_FILE.test(path.basename(root))) yield { path: root, project: path.basename(path.dirname(path.dirname(root))), stat: top };
    return;
  }
  // An explicit stack: directory depth is the data's, not the call stack's.
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (err) {
      onProblem({ path: dir, message: `cannot read directory: ${describeError(err)}` });
      continue;
    }
    yield* chatsIn(dir, names, root, onProblem);
    // A chats folder's subfolders hold subagents' chats; symbolic links to folders are not followed.
    if (path.basename(dir) === 'chats') continue;
    const subdirs: string[] = [];
    for (const name of names) {
      const full = path.join(dir, name);
      try {
        if (lstatSync(full).isDirectory()) subdirs.push(full);
      } catch {
        // Gone since the listing.
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}

/** The chats of the project `cwd` belongs to, newest first: the newest and those modified within `windowMinutes` of it. */
export function currentChats(root: string, cwd: string, windowMinutes: number, onProblem?: (p: WalkProblem) => void): FoundSession[] {
  const name = knownProject(path.dirname(root), cwd);
  if (name === null) return [];
  const chats = path.join(root, name, 'chats');
  let names: string[];
  try {
    names = readdirSync(chats).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') onProblem?.({ path: chats, message: `cannot read directory: ${describeError(err)}` });
    return [];
  }
  const mine = chatsIn(chats, names, root, onProblem ?? (() => {})).sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs || a.path.localeCompare(b.path));
  if (mine.length === 0) return [];
  const newest = mine[0].stat.mtimeMs;
  return mine.filter((f) => newest - f.stat.mtimeMs <= windowMinutes * 60_000);
}

/** The folder of a main session's subagent chats (`chats/<session id>/`), or null for a file that is not a main session in a chats folder. */
function subagentDir(file: string): string | null {
  if (!CHAT_FILE.test(path.basename(file)) || path.basename(path.dirname(file)) !== 'chats') return null;
  return path.join(path.dirname(file), chatIdOf(file));
}

/** The subagent chats of a session file that are regular files, in name order. */
export function subagentChats(file: string): string[] {
  const dir = subagentDir(file);
  if (dir === null || !existsSync(dir)) return [];
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.jsonl'))
      .sort()
      .map((n) => path.join(dir, n))
      .filter((f) => statOf(f)?.isFile() === true);
  } catch {
    return [];
  }
}

/** The subagents of a session file, one tx-ls --subagents entry each. */
function subagentEntries(file: string, counter?: ReadCounter): object[] {
  return subagentChats(file).map((sub) => {
    const st = statOf(sub)!;
    const fields = scanChat(sub, st.size, { counter });
    return { path: sub, agent_id: fields.id, parent: file, agent_type: null, description: null, tool_use_id: null, spawn_depth: null, model: fields.model, started_at: fields.started_at, modified_at: st.mtime.toISOString(), bytes: st.size, spawn: null };
  });
}

/** The Gemini CLI session store. */
export const geminiStore: SessionStore = {
  configDir: geminiConfig,
  keeps: { subagents: true, plugins: false },
  // A chat's file name holds eight characters of its id: the whole id is in its first line.
  idOf: chatIdOf,
  rootIn: (config) => path.join(config, 'tmp'),
  discover: discoverChats,
  scan: scanChat,
  countLines,
  firstPrompt: firstChatPrompt,
  current: currentChats,
  countSubagents: (file) => (subagentDir(file) === null ? null : subagentChats(file).length),
  subagentFiles: subagentChats,
  installTarget,
  resumeCommand: (id) => `gemini --resume ${id}`,
  subagents: subagentEntries,
  pluginRegistryPath: () => null,
  readPlugins: async () => {},
};
