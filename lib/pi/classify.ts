// Classifying one pi session line into the shared kinds (docs/harnesses/pi.md has the
// rule table). pi writes what a person typed once, as a `message` entry of role `user`;
// the text the client or an extension adds to the conversation has entries of its own
// (custom_message, branch_summary, compaction), so a prompt needs no guessing at from
// its words, but for one: a skill a person invoked (`/skill:name`) is stored expanded.
import type { Kind } from '../record.js';

// What src/core/agent-session.ts writes for `/skill:name args`: the skill's file in an element, then the arguments.
const SKILL = '<skill name="';

/** The first text of a user message's content (a string, or its first text block). */
function firstText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  for (const b of content) if (b && typeof b === 'object' && b.type === 'text' && typeof b.text === 'string') return b.text;
  return null;
}

/** The kind of a `message` entry, by its message's role. */
function messageKind(message: any): Kind {
  switch (message?.role) {
    case 'user':
      return firstText(message.content)?.startsWith(SKILL) ? 'command' : 'prompt';
    case 'assistant':
      return 'assistant';
    case 'toolResult':
      return 'tool-result';
    case 'bashExecution':
      // A shell command a person ran (`!cmd`), with its output.
      return 'command';
    case 'custom':
    case 'hookMessage':
    case 'branchSummary':
      return 'injected';
    case 'compactionSummary':
      return 'compact';
    default:
      return 'other';
  }
}

/** True when classifyPiLine may look at the line's text: a user message. */
export function piKindReadsText(line: any): boolean {
  return !!line && typeof line === 'object' && line.type === 'message' && line.message?.role === 'user';
}

/** The kind of one parsed pi session line. */
export function classifyPiLine(line: any): Kind {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return 'other';
  switch (line.type) {
    case 'message':
      return messageKind(line.message);
    case 'compaction':
      return 'compact';
    case 'custom_message':
    case 'branch_summary':
      // Text the model is given that no person typed: an extension's message, a summary of a branch left.
      return 'injected';
    case 'session_info':
      return 'title';
    case 'session':
    case 'model_change':
    case 'thinking_level_change':
    case 'custom':
    case 'label':
      return 'meta';
    default:
      return 'other';
  }
}
