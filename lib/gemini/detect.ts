// Recognising a line of a Gemini CLI chat recording (`session-*.jsonl`, since 0.39). The
// file holds four shapes of line (packages/core/src/services/chatRecordingService.ts):
// the metadata line (`sessionId` and `projectHash`, no `type`), message records (`id`,
// `timestamp`, `type`, `content`), `{"$set": {...}}` updates and `{"$rewindTo": id}`.
// Claude Code takes any object no other harness claims, so each test here asks for
// something Claude Code and Codex lines never have: `projectHash`, a `$` key, or a
// message record's `id` and `content` without Claude Code's `uuid` and `message` or
// Codex's `payload`.

/** The `type` of a message record the client writes. */
export const MESSAGE_TYPES: ReadonlySet<string> = new Set(['user', 'gemini', 'info', 'error', 'warning']);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** True for the metadata line that opens a chat file (also a whole old-format document kept on one line). */
export function isMetadataLine(line: any): boolean {
  return isObject(line) && typeof line.sessionId === 'string' && typeof line.projectHash === 'string' && line.type === undefined;
}

/** True for a `{"$set": {...}}` update. */
export function isSetLine(line: any): boolean {
  return isObject(line) && isObject(line.$set);
}

/** True for a `{"$rewindTo": id}` line. */
export function isRewindLine(line: any): boolean {
  return isObject(line) && typeof line.$rewindTo === 'string';
}

/** True for a message record: an id, a type, and content (or tool calls), in none of the other harnesses' envelopes. */
export function isMessageRecord(line: any): boolean {
  if (!isObject(line) || typeof line.id !== 'string' || typeof line.type !== 'string') return false;
  if ('uuid' in line || 'message' in line || 'payload' in line || 'sessionId' in line) return false;
  if (MESSAGE_TYPES.has(line.type)) return 'content' in line || 'toolCalls' in line;
  // A message type of a later client: the record's own fields, all of them.
  return 'content' in line && typeof line.timestamp === 'string';
}

/** True when a parsed line has the shape of a Gemini CLI chat recording line. */
export function isGeminiLine(line: unknown): boolean {
  return isMetadataLine(line) || isSetLine(line) || isRewindLine(line) || isMessageRecord(line);
}
