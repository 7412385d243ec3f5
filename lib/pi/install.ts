// Where an installed session goes so that `pi --session ID` finds it in its working
// directory: <agent dir>/sessions/--<cwd>--/<start time>_<id>.jsonl, named as the client
// names its own files (src/core/session-manager.ts). The install transaction of
// lib/core/install/ gets it there, never over a file that is already there.
import path from 'node:path';
import type { FoundSession, InstallTarget } from '../codec.js';
import { UnsafePath } from '../core/install/install-file.js';
import { isUuid } from '../core/uuid.js';

/** The folder pi keeps the sessions of `cwd` in: `--<cwd without its first separator, / \ : as ->--`. */
export function projectDirName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/** A start time as it is in a session file's name: ISO 8601 with `:` and `.` as `-` (the epoch when unknown). */
export function fileTimestamp(startedAt: string | undefined): string {
  const ms = startedAt === undefined ? NaN : Date.parse(startedAt);
  return new Date(Number.isNaN(ms) ? 0 : ms).toISOString().replace(/[:.]/g, '-');
}

/** The install target of session `id` of `cwd` under an agent directory; refuses ids that are not UUIDs and relative cwds. */
export function piSessionTarget(agentDir: string, cwd: string, id: string, startedAt?: string): InstallTarget {
  // pi makes UUIDs; `pi --session ID` matches a prefix of the header's id, so a name with a path in it would not be found.
  if (!isUuid(id)) throw new UnsafePath(`session id ${JSON.stringify(id)} is not a UUID`);
  if (!path.isAbsolute(cwd)) throw new UnsafePath(`cwd ${JSON.stringify(cwd)} is not an absolute path`);
  const dir = path.join(agentDir, 'sessions', projectDirName(cwd));
  const file = path.join(dir, `${fileTimestamp(startedAt)}_${id}.jsonl`);
  return { file, sessionDir: file.replace(/\.jsonl$/, ''), cwd };
}

/** The session file of a store whose name holds `id`, or null. */
export function sessionWithId(root: string, id: string, discover: (root: string) => Iterable<FoundSession>, idOf: (file: string) => string): string | null {
  const want = id.toLowerCase();
  for (const found of discover(root)) if (idOf(found.path).toLowerCase() === want) return found.path;
  return null;
}
