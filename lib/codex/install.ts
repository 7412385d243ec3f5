// Where an installed rollout goes: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl,
// the date and time those of the session's start (UTC), as the client names the files
// it lists and finds by id; names go to session_index.jsonl beside sessions/.
import path from 'node:path';
import type { InstallTarget } from '../codec.js';
import { UnsafePath } from '../core/install/install-file.js';
import { isUuid } from '../core/uuid.js';
import { rfc3339 } from './from-common.js';

/** The file Codex keeps session names in, under a Codex home. */
export const SESSION_INDEX = 'session_index.jsonl';

/** The install target of a session of `cwd` with id `id`, started at `startedAt` (RFC 3339; the epoch when unknown). */
export function rolloutTarget(codexHome: string, cwd: string, id: string, startedAt?: string): InstallTarget {
  if (!isUuid(id)) throw new UnsafePath(`session id ${JSON.stringify(id)} is not a UUID: Codex finds rollouts by the UUID in their name`);
  const ms = Date.parse(rfc3339(startedAt) ?? '1970-01-01T00:00:00Z');
  const iso = new Date(ms).toISOString();
  const [year, month, day] = [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)];
  const stamp = `${iso.slice(0, 10)}T${iso.slice(11, 19).replace(/:/g, '-')}`;
  const dir = path.join(codexHome, 'sessions', year, month, day);
  const file = path.join(dir, `rollout-${stamp}-${id}.jsonl`);
  return { file, sessionDir: file.replace(/\.jsonl$/, ''), cwd, index: path.join(codexHome, SESSION_INDEX) };
}
