// Where a written session goes so that `claude --resume` finds it: beneath the config
// dir's projects/<slug of cwd>/, named by a UUID (lib/core/install/install-file.ts gets it there).
import path from 'node:path';
import type { InstallTarget } from '../codec.js';
import { UnsafePath } from '../core/install/install-file.js';
import { isUuid } from '../core/uuid.js';
import { projectSlug } from './slug.js';

/** The install target of session `id` for `cwd` under `configDir`; refuses ids that are not UUIDs and relative cwds. */
export function installTarget(configDir: string, cwd: string, id: string): InstallTarget {
  if (!isUuid(id)) throw new UnsafePath(`session id ${JSON.stringify(id)} is not a UUID`);
  if (!path.isAbsolute(cwd)) throw new UnsafePath(`cwd ${JSON.stringify(cwd)} is not an absolute path`);
  const projectDir = path.join(configDir, 'projects', projectSlug(cwd));
  return { file: path.join(projectDir, `${id}.jsonl`), sessionDir: path.join(projectDir, id), cwd };
}

/** The install target of a subagent transcript: <project>/<parent id>/subagents/agent-<agent id>.jsonl. */
export function subagentTarget(configDir: string, cwd: string, parentId: string, agentId: string): InstallTarget {
  const parent = installTarget(configDir, cwd, parentId);
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(agentId)) throw new UnsafePath(`agent id ${JSON.stringify(agentId)} is not a plain name`);
  const base = path.join(parent.sessionDir, 'subagents', `agent-${agentId}`);
  return { file: `${base}.jsonl`, sessionDir: base, cwd };
}
