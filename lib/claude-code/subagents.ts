// A session's subagents: the transcripts under <session-dir>/subagents/, their
// .meta.json, and the Agent tool call in the parent transcript that spawned each.
// The parent is read line by line; only lines holding a wanted tool-use id are parsed.
import { readdirSync, statSync } from 'node:fs';
import { listSubagentFiles, sessionDir } from './subagent-files.js';
import path from 'node:path';
import { fileLines, type ReadCounter } from '../core/input/file-lines.js';
import { scanSession, trimText } from './session-scan.js';

/** The Agent tool_use that spawned a subagent, its input trimmed. */
export interface Spawn {
  name: string;
  description: string | null;
  subagent_type: string | null;
  prompt: string | null;
}

/** One subagent of a session, as tx-ls --subagents prints it. */
export interface SubagentEntry {
  path: string;
  agent_id: string;
  /** The parent session's file. */
  parent: string;
  agent_type: string | null;
  description: string | null;
  tool_use_id: string | null;
  spawn_depth: number | null;
  model: string | null;
  started_at: string | null;
  modified_at: string | null;
  bytes: number | null;
  spawn: Spawn | null;
}

/** How many subagent transcripts (`subagents/agent-*.jsonl`) a session file has. */
export function countSubagents(sessionFile: string): number {
  const dir = path.join(sessionDir(sessionFile), 'subagents');
  // Most sessions have none: a stat that does not throw costs a fraction of a failed readdir's exception.
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return 0;
  try {
    return readdirSync(dir).filter((n) => n.startsWith('agent-') && n.endsWith('.jsonl')).length;
  } catch {
    return 0;
  }
}

/** The Agent tool calls in `parentFile` with the given ids, by id; stops once all are found. */
export function findSpawns(parentFile: string, ids: ReadonlySet<string>, promptMax = 300, counter?: ReadCounter): Map<string, Spawn> {
  const found = new Map<string, Spawn>();
  if (ids.size === 0) return found;
  let size: number;
  try {
    size = statSync(parentFile).size;
  } catch {
    return found;
  }
  const needles = [...ids].map((id) => ({ id, bytes: Buffer.from(JSON.stringify(id)) }));
  for (const line of fileLines(parentFile, size, counter)) {
    if (!needles.some((n) => !found.has(n.id) && line.includes(n.bytes))) continue;
    let value: any;
    try {
      value = JSON.parse(line.toString('utf8'));
    } catch {
      continue;
    }
    const content = value?.type === 'assistant' ? value.message?.content : null;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (!block || block.type !== 'tool_use' || !ids.has(block.id) || found.has(block.id)) continue;
      const input = block.input && typeof block.input === 'object' ? block.input : {};
      found.set(block.id, {
        name: typeof block.name === 'string' ? block.name : '',
        description: typeof input.description === 'string' ? input.description : null,
        subagent_type: typeof input.subagent_type === 'string' ? input.subagent_type : null,
        prompt: typeof input.prompt === 'string' ? trimText(input.prompt, promptMax) : null,
      });
    }
    if (found.size === ids.size) break;
  }
  return found;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** Every subagent of the session in `sessionFile`, in agent-id order, with its spawning call when found. */
export function subagentsOf(sessionFile: string, counter?: ReadCounter): SubagentEntry[] {
  const files = listSubagentFiles(sessionFile);
  const ids = new Set<string>();
  for (const f of files) if (typeof f.meta?.toolUseId === 'string') ids.add(f.meta.toolUseId);
  const spawns = findSpawns(sessionFile, ids, 300, counter);
  return files.map((f) => {
    const meta = f.meta ?? {};
    const toolUseId = str(meta.toolUseId);
    let modified: string | null = null;
    let bytes: number | null = null;
    let started: string | null = null;
    let model = str(meta.model);
    try {
      const stat = statSync(f.file);
      modified = stat.mtime.toISOString();
      bytes = stat.size;
      const fields = scanSession(f.file, stat.size, { counter });
      started = fields.started_at;
      model ??= fields.model;
    } catch {
      // Only the .meta.json is there.
    }
    return {
      path: f.file,
      agent_id: f.agentId,
      parent: sessionFile,
      agent_type: str(meta.agentType),
      description: str(meta.description),
      tool_use_id: toolUseId,
      spawn_depth: typeof meta.spawnDepth === 'number' ? meta.spawnDepth : null,
      model,
      started_at: started,
      modified_at: modified,
      bytes,
      spawn: toolUseId !== null ? (spawns.get(toolUseId) ?? null) : null,
    };
  });
}
