// A session's subagent transcripts on disk: <session-dir>/subagents/agent-<id>.jsonl,
// each with agent-<id>.meta.json naming the Agent tool call (toolUseId) that spawned it.
// The .meta.json documents are a few hundred bytes, so they are read whole (regular
// files of at most 1 MiB). A transcript or a .meta.json that is there but cannot be
// read (a FIFO, a device, a directory, a link to one; a .meta.json too large or not a
// JSON object) is not taken for one, and its problem is kept for the caller to say.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileKind, readSmallFile } from '../core/input/regular-file.js';

/** The largest .meta.json read (real ones are a few hundred bytes). */
const META_LIMIT = 1 << 20;

/** One subagent transcript of a session. */
export interface SubagentFile {
  agentId: string;
  /** The transcript's path (it may be missing when only the meta file exists). */
  file: string;
  /** The parsed .meta.json, or null when it is missing or unreadable. */
  meta: Record<string, unknown> | null;
  /** Why the transcript, there, is not one (`a FIFO, not a regular file`). */
  notRegular?: string;
  /** Why the .meta.json, there, was not read. */
  metaProblem?: string;
}

/** The side-file directory of a session file: its path without `.jsonl`. */
export function sessionDir(sessionFile: string): string {
  return sessionFile.endsWith('.jsonl') ? sessionFile.slice(0, -'.jsonl'.length) : sessionFile;
}

/** The subagent transcripts beside a session file (none when the directory is absent). */
export function listSubagentFiles(sessionFile: string): SubagentFile[] {
  const dir = path.join(sessionDir(sessionFile), 'subagents');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const ids = new Set<string>();
  for (const name of names) {
    const m = /^agent-(.+?)(\.meta\.json|\.jsonl)$/.exec(name);
    if (m) ids.add(m[1]);
  }
  return [...ids].sort().map((agentId) => {
    const sub: SubagentFile = { agentId, file: path.join(dir, `agent-${agentId}.jsonl`), meta: null };
    const st = statSync(sub.file, { throwIfNoEntry: false });
    if (st && !st.isFile()) sub.notRegular = `${fileKind(st)}, not a regular file`;
    try {
      const parsed = JSON.parse(readSmallFile(path.join(dir, `agent-${agentId}.meta.json`), META_LIMIT).toString('utf8'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) sub.meta = parsed;
      else sub.metaProblem = 'not a JSON object';
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') sub.metaProblem = err instanceof SyntaxError ? 'not JSON' : (err as Error).message;
    }
    return sub;
  });
}

/** The subagent transcripts beside a session file that are regular files (links to one included); none for a file that is itself a subagent's. */
export function subagentFiles(sessionFile: string): string[] {
  if (path.basename(path.dirname(sessionFile)) === 'subagents' && /^agent-.*\.jsonl$/.test(path.basename(sessionFile))) return [];
  return listSubagentFiles(sessionFile)
    .filter((sub) => sub.notRegular === undefined && statSync(sub.file, { throwIfNoEntry: false }) !== undefined)
    .map((sub) => sub.file);
}

/** Subagent files of a session by the toolUseId in their meta, read once per session file. */
export class SubagentIndex {
  private cache = new Map<string, Map<string, SubagentFile>>();

  /** The subagent spawned by tool call `toolUseId` of the session in `sessionFile`, if its files are there. */
  find(sessionFile: string, toolUseId: string): SubagentFile | null {
    let byTool = this.cache.get(sessionFile);
    if (!byTool) {
      byTool = new Map();
      for (const f of listSubagentFiles(sessionFile)) {
        const id = f.meta?.toolUseId;
        if (typeof id === 'string') byTool.set(id, f);
      }
      this.cache.set(sessionFile, byTool);
    }
    return byTool.get(toolUseId) ?? null;
  }
}
