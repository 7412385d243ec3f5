// Classifying one Gemini CLI chat line into the shared kinds (the rule table, in order;
// tx-parse(1) will list it):
//
//   metadata line (sessionId, projectHash)             meta
//   {"$set": {"summary": …}}                           title   (the summary the client made)
//   {"$set": {"messages": […]}} with a snapshot        compact (a compression's checkpoint)
//   any other {"$set": …}                              meta    (lastUpdated, sessionId, a checkpoint)
//   {"$rewindTo": id}                                  system  (the conversation cut back)
//   message type "gemini"                              assistant
//   message type "info" | "error" | "warning"          system
//   message type "user", then by its content:
//     functionResponse parts first (and what follows) tool-result
//     text opening with <session_context>,
//       <hook_context>, <state_snapshot>, [System:,
//       or "Please continue." alone                    injected (the client's own words)
//     text opening with "/" or "?"                     command (the client does not resume it)
//     displayContent opening with "/"                  command (a slash command the client expanded)
//     anything else                                    prompt
//   a line of none of these shapes                     other
//
// A checkpoint after a compression also carries the snapshot when it is written again
// (a resume, a rewind): count compactions by the snapshot message's id.
import type { Kind } from '../record.js';
import { isMessageRecord, isMetadataLine, isRewindLine, isSetLine } from './detect.js';
import { splitResponses } from './calls.js';
import { contentText, partList } from './parts.js';
import { isSnapshotRecord } from './chat-log.js';

/** Openings of user text the client writes itself. */
export const INJECTED_OPENINGS = ['<session_context>', '<hook_context>', '<state_snapshot>', '[System:', 'System: Potential loop detected'];
/** The whole text of the user message the client sends when it decides the model should go on (older clients prefix `System: `). */
export const CONTINUATIONS: ReadonlySet<string> = new Set(['Please continue.', 'System: Please continue.']);

/** The kind of a user message record by its content. */
export function userRecordKind(content: unknown): Kind {
  // Responses, each with the parts after it (an image a read returned), and nothing before them.
  const { before, responses } = splitResponses(partList(content));
  if (responses.length > 0 && before.length === 0) return 'tool-result';
  const text = contentText(content).trim();
  if (INJECTED_OPENINGS.some((o) => text.startsWith(o)) || CONTINUATIONS.has(text)) return 'injected';
  if (text.startsWith('/') || text.startsWith('?')) return 'command';
  return 'prompt';
}

/** True when classifyGeminiLine may look at the line's text: a user record, or a checkpoint. */
export function geminiKindReadsText(line: any): boolean {
  if (!line || typeof line !== 'object') return false;
  if (isSetLine(line)) return Array.isArray(line.$set.messages);
  return line.type === 'user' && isMessageRecord(line);
}

/** The kind of one parsed Gemini chat line. */
export function classifyGeminiLine(line: any): Kind {
  if (isMetadataLine(line)) return 'meta';
  if (isRewindLine(line)) return 'system';
  if (isSetLine(line)) {
    const set = line.$set;
    if (Array.isArray(set.messages) && set.messages.some(isSnapshotRecord)) return 'compact';
    if (typeof set.summary === 'string') return 'title';
    return 'meta';
  }
  if (!isMessageRecord(line)) return 'other';
  switch (line.type) {
    case 'gemini':
      return 'assistant';
    case 'info':
    case 'error':
    case 'warning':
      return 'system';
    case 'user': {
      // A slash command the client expanded (/init): what was typed is in displayContent.
      const typed = line.displayContent === undefined ? '' : contentText(line.displayContent).trim();
      return typed.startsWith('/') ? 'command' : userRecordKind(line.content);
    }
    default:
      return 'other';
  }
}
