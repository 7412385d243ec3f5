// Recognising OpenCode's objects. The client's schemas require ids with a prefix per
// kind (`ses_`, `msg_`, `prt_`); a Claude Code line carries `uuid`/`sessionId`/`type`
// and a Codex line `type`/`payload`, neither an `info` with a `msg_` id nor a session
// info with `projectID` and a `ses_` id, so none of the three claims another's lines.
import { ID_PREFIX, type ExportDocument, type MessageWithParts, type SessionInfo } from './shape.js';

const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** True for a session's info: a `ses_` id, its slug, project and version, and a creation time. */
export function isSessionInfo(v: unknown): v is SessionInfo {
  return (
    isObject(v) &&
    typeof v.id === 'string' &&
    v.id.startsWith(ID_PREFIX.session) &&
    typeof v.slug === 'string' &&
    typeof v.projectID === 'string' &&
    typeof v.version === 'string' &&
    isObject(v.time) &&
    typeof v.time.created === 'number'
  );
}

/** True for a message with its parts: an `info` with a `msg_` id and a role, and a `parts` array. */
export function isMessageWithParts(v: unknown): v is MessageWithParts {
  if (!isObject(v) || !Array.isArray(v.parts) || !isObject(v.info)) return false;
  const info = v.info;
  return typeof info.id === 'string' && info.id.startsWith(ID_PREFIX.message) && (info.role === 'user' || info.role === 'assistant');
}

/** True when a parsed line is an OpenCode session line (a session's info or a message). */
export function isOpencodeLine(v: unknown): boolean {
  return isMessageWithParts(v) || isSessionInfo(v);
}

/** True for a whole `opencode export` document: a session's info and an array of messages. */
export function isExportDocument(v: unknown): v is ExportDocument {
  return isObject(v) && isSessionInfo(v.info) && Array.isArray(v.messages);
}
