// Where a Claude Code line is classified: one kind per line, by the rules of the
// session-store guide and what real files show (tx-parse(1) documents each rule).
import type { Kind } from '../record.js';
import { envelopeKind } from './envelope.js';

/** Session bookkeeping line types: no conversation in them. */
export const META_TYPES = new Set([
  'file-history-snapshot',
  'file-history-delta',
  'queue-operation',
  'mode',
  'permission-mode',
  'last-prompt',
  'cost-state',
  'tools-used',
  'atis-latch',
  'api-request-shape',
  'api-request-blob',
  'api-request',
  'bridge-session',
  'pr-link',
  'relocated',
  'worktree-state',
  'tag',
  'agent-setting',
  'agent-color',
  'content-replacement',
]);

/** Line types that carry a session title. */
export const TITLE_TYPES = new Set(['custom-title', 'agent-name', 'ai-title']);

/** How the text the client writes when a person interrupts a turn begins. */
export const INTERRUPTED = '[Request interrupted by user';

/** Text prefixes the harness writes into user lines (not typed by a person). */
export const INJECTED_PREFIXES = ['<system-reminder>', '<task-notification>', 'This session is being continued from a previous conversation', INTERRUPTED];

/** The text a user line leads with: the string body, or the first block's text; null when it leads with no text. */
export function leadingText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || content.length === 0) return null;
  const first = content[0];
  if (first && first.type === 'text' && typeof first.text === 'string') return first.text;
  return null;
}

/** True when a user line led by this text is not a typed prompt: an envelope or a text the client itself writes (classifyUser's rule on the leading text). */
export function leadsAsInjected(text: string): boolean {
  const envelope = envelopeKind(text);
  return envelope === 'command' || envelope === 'command-output' || envelope === 'caveat' || INJECTED_PREFIXES.some((p) => text.startsWith(p));
}

/** True when a user message's content holds a tool_result block. */
export function hasToolResult(content: unknown): boolean {
  return Array.isArray(content) && content.some((b) => b && b.type === 'tool_result');
}

/** True when a queued_command attachment was typed by a person (older CLIs write no origin). */
export function isHumanQueued(attachment: any): boolean {
  if (!attachment || attachment.type !== 'queued_command') return false;
  const origin = attachment.origin;
  return origin === undefined || origin === null || origin.kind === 'human';
}

function classifyUser(line: any): Kind {
  const message = line.message;
  if (!message || typeof message !== 'object') return 'other';
  const content = message.content;
  if (typeof content !== 'string' && !Array.isArray(content)) return 'other';
  if (hasToolResult(content)) return 'tool-result';
  if (line.isCompactSummary === true || line.isMeta === true) return 'injected';
  const text = leadingText(content);
  if (text !== null) {
    const envelope = envelopeKind(text);
    if (envelope === 'command' || envelope === 'command-output') return envelope;
    if (leadsAsInjected(text)) return 'injected';
  } else if (!Array.isArray(content) || !content.some((b) => b && (b.type === 'text' || b.type === 'image'))) {
    return 'other';
  }
  // In a sidechain the user role is the parent agent, not a person.
  if (line.isSidechain === true) return 'injected';
  if (line.promptSource === 'queued') return 'queued-prompt';
  return 'prompt';
}

function classifySystem(line: any): Kind {
  switch (line.subtype) {
    case 'compact_boundary':
    case 'microcompact_boundary':
      return 'compact';
    case 'stop_hook_summary':
      return 'hook';
    case 'local_command': {
      const envelope = typeof line.content === 'string' ? envelopeKind(line.content) : null;
      if (envelope === 'command' || envelope === 'command-output') return envelope;
      return 'system';
    }
    default:
      return 'system';
  }
}

function classifyAttachment(line: any): Kind {
  const a = line.attachment;
  if (!a || typeof a !== 'object' || typeof a.type !== 'string') return 'other';
  if (a.type.startsWith('hook_')) return 'hook';
  if (a.type === 'queued_command') return isHumanQueued(a) ? 'queued-prompt' : 'attachment';
  return 'attachment';
}

/** True when classifyClaudeLine may look at the line's text: a user line with no tool result, a local command. */
export function claudeKindReadsText(line: any): boolean {
  if (!line || typeof line !== 'object') return false;
  if (line.type === 'user') {
    const message = line.message;
    return !(message && typeof message === 'object' && hasToolResult(message.content));
  }
  return line.type === 'system' && line.subtype === 'local_command';
}

/** Classify one parsed Claude Code line. */
export function classifyClaudeLine(line: any): Kind {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return 'other';
  const type = line.type;
  if (typeof type !== 'string') return 'other';
  switch (type) {
    case 'user':
      return classifyUser(line);
    case 'assistant':
      return line.message && typeof line.message === 'object' ? 'assistant' : 'other';
    case 'summary':
      return 'summary';
    case 'system':
      return classifySystem(line);
    case 'attachment':
      return classifyAttachment(line);
    case 'progress':
      return 'progress';
  }
  if (TITLE_TYPES.has(type)) return 'title';
  if (META_TYPES.has(type)) return 'meta';
  return 'other';
}
