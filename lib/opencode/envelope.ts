// The envelope fields of an OpenCode line. Every line names its session (a message's
// info its `sessionID`, a session's info its `id`), and a subagent is a session of its
// own (its `parentID`), so no line is a sidechain. Times are milliseconds since 1970.
import type { Envelope } from '../codec.js';
import { isMessageWithParts, isSessionInfo } from './detect.js';

/** Milliseconds since 1970 as an ISO 8601 timestamp, or null. */
export function isoOf(ms: unknown): string | null {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The session, timestamp and sidechain flag of one parsed OpenCode line. */
export function opencodeEnvelope(line: unknown): Envelope {
  if (isSessionInfo(line)) return { session: line.id, timestamp: isoOf(line.time.created), sidechain: false };
  if (isMessageWithParts(line)) {
    const id = line.info.sessionID;
    return { session: typeof id === 'string' && id !== '' ? id : null, timestamp: isoOf(line.info.time?.created), sidechain: false };
  }
  return { session: null, timestamp: null, sidechain: false };
}
