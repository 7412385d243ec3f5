// Where an installed chat goes so that `gemini --resume ID` finds it: the chats folder of
// the project the client gives the cwd (project.ts), named as the client names a new
// session's file, `session-<date>T<hh>-<mm>-<id8>.jsonl`, the date and time those of the
// session's start (UTC). The client finds a session by the eight characters in the name
// and the id in the file, so a file of the same session id there already is the
// session: the install is refused rather than make a second.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { InstallTarget } from '../codec.js';
import { TargetExists, UnsafePath } from '../core/install/install-file.js';
import { isUuid } from '../core/uuid.js';
import { chatIdOf } from './chat-scan.js';
import { markerOwner, PROJECT_ROOT_FILE, projectName } from './project.js';

/** The name the client gives a session's chat file: its start to the minute (UTC) and the first eight characters of its id. */
export function chatFileName(id: string, startedAt?: string): string {
  const ms = startedAt === undefined ? NaN : Date.parse(startedAt);
  const stamp = new Date(Number.isNaN(ms) ? 0 : ms).toISOString().slice(0, 16).replace(/:/g, '-');
  return `session-${stamp}-${id.slice(0, 8)}.jsonl`;
}

/** The chat file of session `id` among a chats folder's files, when there is one. */
function existingChat(chats: string, id: string): string | null {
  let names: string[];
  try {
    names = readdirSync(chats);
  } catch {
    return null;
  }
  const short = id.slice(0, 8);
  for (const name of names) {
    if (!name.startsWith('session-') || !(name.endsWith(`-${short}.jsonl`) || name.endsWith(`-${short}.json`))) continue;
    if (chatIdOf(path.join(chats, name)).toLowerCase() === id.toLowerCase()) return path.join(chats, name);
  }
  return null;
}

/** The install target of session `id` of `cwd` under a `.gemini` folder; a subagent's (`parent`) goes into its parent's folder of subagent chats. */
export function installTarget(config: string, cwd: string, id: string, parent?: { session: string; agentId: string }, startedAt?: string): InstallTarget {
  if (!isUuid(id)) throw new UnsafePath(`session id ${JSON.stringify(id)} is not a UUID: Gemini CLI names a chat by its first eight characters and finds it by the whole`);
  if (!path.isAbsolute(cwd)) throw new UnsafePath(`cwd ${JSON.stringify(cwd)} is not an absolute path`);
  const name = projectName(config, cwd);
  const project = path.join(config, 'tmp', name);
  const chats = path.join(project, 'chats');
  let file: string;
  if (parent) {
    if (!isUuid(parent.session)) throw new UnsafePath(`parent session ${JSON.stringify(parent.session)} is not a UUID`);
    file = path.join(chats, parent.session.toLowerCase(), `${id}.jsonl`);
  } else {
    const existing = existingChat(chats, id);
    if (existing !== null) throw new TargetExists(existing);
    file = path.join(chats, chatFileName(id, startedAt));
  }
  const target: InstallTarget = { file, sessionDir: path.join(project, id), cwd };
  // A folder the client has not made yet gets its marker, by which the client finds it.
  if (markerOwner(project) === null) target.files = [{ file: path.join(project, PROJECT_ROOT_FILE), text: path.resolve(cwd) }];
  return target;
}
