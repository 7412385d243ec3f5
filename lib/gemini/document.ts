// An older client's chat (before 0.39): one JSON document, `JSON.stringify(conversation,
// null, 2)`, rewritten whole at each change: the session's metadata, `messages` (the
// message records a chat file of lines holds one per line), and members set later
// (`kind`, `summary`, `directories`) after the list. Read as lines of today's chat file:
// the members before the list as its metadata line, each message as a line, the members
// after it as a `$set` (which is what a later `$set` line of a chat file does).
import type { DocumentCodec } from '../codec.js';
import { isSetLine } from './detect.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** How a Gemini CLI chat document is read as chat lines. */
export const geminiDocument: DocumentCodec = {
  items: 'messages',
  accepts: (members) => typeof members.sessionId === 'string' && typeof members.projectHash === 'string',
  line: (members, part) => (part === 'head' ? { ...members } : { $set: { ...members } }),
  members: (line, part) => (part === 'head' ? (isObject(line) ? line : null) : isSetLine(line) ? ((line as { $set: Record<string, unknown> }).$set ?? null) : null),
};
