// Classifying one OpenCode line into the shared kinds (tx-parse(1) would list the rules).
// A line is a session's info or a message with its parts: the client keeps a tool call
// and its result in one part of the assistant message that made the call, so there are
// no tool-result lines. The kind hangs on fields only (role, part types, the synthetic
// flag, summary), never on the words of a text.
import type { Kind } from '../record.js';
import { isMessageWithParts, isSessionInfo } from './detect.js';
import type { MessageWithParts } from './shape.js';

/** One rule of the table: when it holds, the line has its kind. The first rule that holds wins. */
export interface KindRule {
  kind: Kind;
  /** What the rule says, for the documentation and tests. */
  says: string;
  holds(m: MessageWithParts): boolean;
}

const hasPart = (m: MessageWithParts, type: string) => m.parts.some((p) => p?.type === type);
const isUser = (m: MessageWithParts) => m.info.role === 'user';

/** The rules for a message, in order (a session's info is `meta`, anything else `other`). */
export const MESSAGE_RULES: readonly KindRule[] = [
  { kind: 'compact', says: 'a user message with a compaction part (a compaction was asked for, or the client ran one)', holds: (m) => isUser(m) && hasPart(m, 'compaction') },
  { kind: 'compact', says: 'an assistant message with summary true (the compaction summary)', holds: (m) => !isUser(m) && m.info.summary === true },
  { kind: 'command', says: 'a user message with a subtask part (a command run as a subagent)', holds: (m) => isUser(m) && hasPart(m, 'subtask') },
  { kind: 'meta', says: 'a user message with no parts (the client sends nothing of it)', holds: (m) => isUser(m) && m.parts.length === 0 },
  {
    kind: 'injected',
    says: 'a user message whose every part is a synthetic text (the client wrote it, e.g. "Continue if you have next steps" after a compaction)',
    holds: (m) => isUser(m) && m.parts.every((p) => p?.type === 'text' && p.synthetic === true),
  },
  { kind: 'prompt', says: 'any other user message (typed text, attached files and what the client read for them)', holds: isUser },
  { kind: 'assistant', says: 'any other assistant message (reasoning, text, tool calls with their results)', holds: () => true },
];

/** The kind of one parsed OpenCode line. */
export function classifyOpencodeLine(line: unknown): Kind {
  if (isSessionInfo(line)) return 'meta';
  if (!isMessageWithParts(line)) return 'other';
  return MESSAGE_RULES.find((r) => r.holds(line))!.kind;
}

/** The rule that gave a message its kind (for tests and explanations). */
export function kindRule(m: MessageWithParts): KindRule {
  return MESSAGE_RULES.find((r) => r.holds(m))!;
}
