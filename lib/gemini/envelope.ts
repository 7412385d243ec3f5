// The envelope fields of a Gemini CLI chat line. Only the metadata line (and a `$set` of
// `sessionId`, written on resume) names the session: the lines after it belong to it, as
// in Codex. Subagents' chats are files of their own, so no line is a sidechain.
import type { Envelope } from '../codec.js';
import { isMessageRecord, isMetadataLine, isSetLine } from './detect.js';

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** The session, timestamp and sidechain flag of one parsed chat line. */
export function geminiEnvelope(line: unknown): Envelope {
  const l = line && typeof line === 'object' && !Array.isArray(line) ? (line as Record<string, any>) : null;
  if (l === null) return { session: null, timestamp: null, sidechain: false };
  if (isMetadataLine(l)) return { session: str(l.sessionId), timestamp: str(l.startTime) ?? str(l.lastUpdated), sidechain: false };
  if (isSetLine(l)) return { session: str(l.$set.sessionId), timestamp: str(l.$set.lastUpdated), sidechain: false };
  if (isMessageRecord(l)) return { session: null, timestamp: str(l.timestamp), sidechain: false };
  return { session: null, timestamp: null, sidechain: false };
}
