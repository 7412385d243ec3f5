// A session's subagent transcripts on disk: <session-dir>/subagents/agent-<id>.jsonl,
// each with agent-<id>.meta.json naming the Agent tool call (toolUseId) that spawned it.
// The .meta.json documents are a few hundred bytes, so they are read whole (regular
// files of at most 1 MiB: anything else counts as no meta).
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readSmallFile } from '../core/input/regular-file.js';

/** The largest .meta.json read (real ones are a few hundred bytes). */
const META_LIMIT = 1 << 20;

/** One subagent transcript of a session. */
export interface SubagentFile {
  agentId: string;
  /** The transcript's path (it may be missing when only the meta file exists). */
  file: string;
  /** The parsed .meta.json, or null when it is missing or unreadable. */
  meta: Record<string, unknown> | null;
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
    let meta: Record<string, unknown> | null = null;
    try {
      const parsed = JSON.parse(readSmallFile(path.join(dir, `agent-${agentId}.meta.json`), META_LIMIT).toString('utf8'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) meta = parsed;
    } catch {
      meta = null;
    }
    return { agentId, file: path.join(dir, `agent-${agentId}.jsonl`), meta };
  });
}

/** The subagent transcripts beside a session file that are regular files; none for a file that is itself a subagent's. */
export function subagentFiles(sessionFile: string): string[] {
  if (path.basename(path.dirname(sessionFile)) === 'subagents' && /^agent-.*\.jsonl$/.test(path.basename(sessionFile))) return [];
  return listSubagentFiles(sessionFile)
    .map((sub) => sub.file)
    .filter((file) => {
      try {
        return lstatSync(file).isFile();
      } catch {
        return false;
      }
    });
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
