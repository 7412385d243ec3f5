// Where Codex keeps its sessions: $CODEX_HOME (default ~/.codex), one rollout per
// session under sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, archived ones flat in
// archived_sessions/, old ones possibly compressed (.jsonl.zst). Names live apart, in
// session_index.jsonl ({id, thread_name, updated_at}, appended; the last one wins).
// The shallow scan reads a rollout's head until its session_meta and first
// turn_context are seen; it parses only those lines.
import { existsSync, lstatSync, opendirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { FoundSession, ScanOptions, SessionFields, SessionStore, WalkProblem } from '../codec.js';
import { countLines, fileLines, type ReadCounter } from '../core/input/file-lines.js';
import { describeError } from '../core/fs-error.js';
import { zstdFileLines } from '../core/input/zstd-lines.js';
import { classifyCodexLine } from './classify.js';
import { rolloutTarget } from './install.js';
import { promptOf } from './views.js';

/** The folders of a Codex home that hold rollouts. */
export const SESSION_DIRS = ['sessions', 'archived_sessions'];
const ROLLOUT = /^rollout-.*\.jsonl(\.zst)?$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
// A head longer than this without session_meta is not read further.
const HEAD_LINES = 200;

/** $CODEX_HOME when set and non-empty, else $HOME/.codex (null without either). */
export function codexHome(env: NodeJS.ProcessEnv): string | null {
  if (env.CODEX_HOME !== undefined && env.CODEX_HOME !== '') return env.CODEX_HOME;
  if (env.HOME === undefined || env.HOME === '') return null;
  return path.join(env.HOME, '.codex');
}

/** The lines of a rollout, compressed or not. */
export function rolloutLines(file: string, size: number, counter?: ReadCounter): Generator<Buffer> {
  return file.endsWith('.zst') ? zstdFileLines(file, counter) : fileLines(file, size, counter);
}

/** Every rollout under a root: its sessions/ and archived_sessions/ when it is a Codex home, else the root itself. */
export function* discoverRollouts(root: string, onProblem: (p: WalkProblem) => void): Generator<FoundSession> {
  const homes = SESSION_DIRS.map((d) => path.join(root, d)).filter((d) => existsSync(d));
  const starts = homes.length > 0 ? homes : [root];
  for (const start of starts) {
    try {
      if (!statSync(start).isDirectory()) continue;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') onProblem({ path: start, message: describeError(err) });
      continue;
    }
    // An explicit stack: directory depth is the data's, not the call stack's.
    const stack = [start];
    while (stack.length > 0) {
      const dir = stack.pop()!;
      let names: string[];
      try {
        const d = opendirSync(dir);
        names = [];
        for (let e = d.readSync(); e !== null; e = d.readSync()) names.push(e.name);
        d.closeSync();
      } catch (err) {
        onProblem({ path: dir, message: `cannot read directory: ${describeError(err)}` });
        continue;
      }
      names.sort();
      const subdirs: string[] = [];
      for (const name of names) {
        const full = path.join(dir, name);
        let st: Stats;
        try {
          // Symlinked directories are not followed (a loop cannot trap the walk); symlinked files are listed.
          st = lstatSync(full);
          if (st.isSymbolicLink()) {
            if (!ROLLOUT.test(name)) continue;
            st = statSync(full);
          }
        } catch (err) {
          if (ROLLOUT.test(name)) onProblem({ path: full, message: `cannot read: ${describeError(err)}` });
          continue;
        }
        if (st.isDirectory()) subdirs.push(full);
        else if (st.isFile() && ROLLOUT.test(name)) yield { path: full, project: path.relative(root, dir) || '.', stat: st };
      }
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
    }
  }
}

/** The Codex home a rollout lies in (the folder above sessions/ or archived_sessions/), or null. */
function homeOf(file: string): string | null {
  for (let dir = path.dirname(file); ; ) {
    if (SESSION_DIRS.includes(path.basename(dir))) return path.dirname(dir);
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

// session_index.jsonl of each home, read once per run.
const indexes = new Map<string, Map<string, string>>();

/** Session names by id from a home's session_index.jsonl (the last entry of an id wins; an empty name clears it). */
export function sessionNames(home: string): Map<string, string> {
  let names = indexes.get(home);
  if (names) return names;
  names = new Map();
  indexes.set(home, names);
  const file = path.join(home, 'session_index.jsonl');
  let st: Stats;
  try {
    st = statSync(file);
    if (!st.isFile()) return names;
  } catch {
    return names;
  }
  for (const bytes of fileLines(file, st.size)) {
    let entry: any;
    try {
      entry = JSON.parse(bytes.toString('utf8'));
    } catch {
      continue;
    }
    if (!entry || typeof entry.id !== 'string') continue;
    if (typeof entry.thread_name === 'string' && entry.thread_name !== '') names.set(entry.id, entry.thread_name);
    else names.delete(entry.id);
  }
  return names;
}

function parse(bytes: Buffer): any {
  try {
    const v = JSON.parse(bytes.toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** The fields of one rollout by a shallow scan of its head (`--deep`: every line, so a rename anywhere counts). */
export function scanRollout(file: string, size: number, options: ScanOptions = {}): SessionFields {
  const id = UUID.exec(path.basename(file))?.[0] ?? path.basename(file).replace(/\.jsonl(\.zst)?$/, '');
  const fields: SessionFields = { id, cwd: null, git_branch: null, version: null, model: null, title: null, ai_title: null, started_at: null };
  let metaSeen = false;
  let lines = 0;
  let renamed: string | null = null;
  for (const bytes of rolloutLines(file, size, options.counter)) {
    lines++;
    // Only the few line types the scan reads are parsed.
    const head = bytes.subarray(0, 200).toString('latin1');
    const meta = head.includes('"session_meta"');
    const turn = fields.model === null && head.includes('"turn_context"');
    const name = bytes.includes('thread_name_updated');
    if (meta || turn || name || (fields.started_at === null && lines === 1)) {
      const line = parse(bytes);
      if (line) {
        if (fields.started_at === null && typeof line.timestamp === 'string') fields.started_at = line.timestamp;
        const p = line.payload ?? {};
        if (line.type === 'session_meta' && !metaSeen) {
          metaSeen = true;
          if (typeof p.id === 'string' && p.id !== '') fields.id = p.id;
          if (typeof p.cwd === 'string') fields.cwd = p.cwd;
          if (typeof p.cli_version === 'string') fields.version = p.cli_version;
          if (typeof p.git?.branch === 'string') fields.git_branch = p.git.branch;
          if (typeof p.timestamp === 'string') fields.started_at = p.timestamp;
        }
        if (line.type === 'turn_context' && typeof p.model === 'string') fields.model = p.model;
        if (line.type === 'event_msg' && p.type === 'thread_name_updated' && typeof p.thread_name === 'string') renamed = p.thread_name;
      }
    }
    if (!options.deep && ((metaSeen && fields.model !== null) || lines >= HEAD_LINES)) break;
  }
  const home = homeOf(file);
  fields.title = (home !== null ? sessionNames(home).get(fields.id) : undefined) ?? renamed;
  return fields;
}

/** The first message a person sent in a rollout, trimmed to `max` characters; null when there is none. */
export function firstRolloutPrompt(file: string, size: number, max = 300, counter?: ReadCounter): string | null {
  for (const bytes of rolloutLines(file, size, counter)) {
    if (!bytes.includes('user_message') && !bytes.includes('UserMessage') && !bytes.includes('"message"')) continue;
    const line = parse(bytes);
    if (!line || classifyCodexLine(line) !== 'prompt') continue;
    const text = promptOf(line).text;
    return text.length > max ? text.slice(0, max) + '…' : text;
  }
  return null;
}

/** The rollouts whose session ran in `cwd`, newest first: the newest and those modified within `windowMinutes` of it. */
export function currentRollouts(root: string, cwd: string, windowMinutes: number): FoundSession[] {
  const mine: FoundSession[] = [];
  const sessions = path.join(root, 'sessions');
  const base = existsSync(sessions) ? sessions : root;
  for (const found of discoverRollouts(base, () => {})) {
    try {
      if (scanRollout(found.path, found.stat.size).cwd === cwd) mine.push(found);
    } catch {
      // An unreadable rollout is not the current session.
    }
  }
  mine.sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs || a.path.localeCompare(b.path));
  if (mine.length === 0) return [];
  const newest = mine[0].stat.mtimeMs;
  return mine.filter((f) => newest - f.stat.mtimeMs <= windowMinutes * 60_000);
}

/** The rollout (live or archived) whose file name holds `id`, or null. */
export function rolloutOfId(codexHome: string, id: string): string | null {
  const needle = id.toLowerCase();
  for (const found of discoverRollouts(codexHome, () => {})) if (path.basename(found.path).toLowerCase().includes(needle)) return found.path;
  return null;
}

const ROLLOUT_ID = /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(?:\.zst)?$/i;

/** The Codex session store. */
export const codexStore: SessionStore = {
  configDir: codexHome,
  keeps: { subagents: false, plugins: false },
  // A rollout's file name ends in its session id.
  idOf: (file) => ROLLOUT_ID.exec(path.basename(file))?.[1] ?? path.basename(file).replace(/\.jsonl(?:\.zst)?$/, ''),
  rootIn: (config) => config,
  discover: discoverRollouts,
  scan: scanRollout,
  countLines: (file, size, counter) => {
    if (!file.endsWith('.zst')) return countLines(file, size, counter);
    let n = 0;
    for (const _ of zstdFileLines(file, counter)) n++;
    return n;
  },
  firstPrompt: firstRolloutPrompt,
  current: currentRollouts,
  // Codex keeps each agent's thread as a rollout of its own, not beside its parent.
  countSubagents: () => null,
  subagentFiles: () => [],
  installTarget: (config, cwd, id, _parent, startedAt) => {
    const target = rolloutTarget(config, cwd, id, startedAt);
    // The client finds a session by the id in its file name, wherever it lies: a rollout of the id under another date is the same session.
    const existing = rolloutOfId(config, id);
    return existing === null ? target : { ...target, file: existing };
  },
  resumeCommand: (id) => `codex resume ${id}`,
  subagents: () => [],
  pluginRegistryPath: () => null,
  readPlugins: async () => {},
};
