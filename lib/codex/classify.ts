// Classifying one Codex rollout line into the shared kinds (tx-parse(1) lists the
// rules). Codex writes a person's prompt twice: as the `response_item` message the
// model is given, and as an event for the UI (`user_message` up to about 0.15x, an
// `item_completed` UserMessage item since). The event is the prompt (kind `prompt`):
// Codex writes it only for what a person sent, so no text needs guessing at, and it
// survives redaction. The model's copy is kind `input`. Bare rollouts from before
// the envelope have no events; there the message itself is the prompt.
import type { Kind } from '../record.js';
import { CALL_OUTPUT_TYPES, CALL_TYPES, META_TYPES } from './rollout.js';

// The opening of text Codex itself puts in a user-role message (codex-rs
// protocol/src/instruction_markers.rs, and tags seen in rollouts).
const INJECTED_PREFIXES = ['# AGENTS.md instructions for ', '<user_instructions>', '<environment_context>', '<collaboration_mode>', '<skill', '<turn_aborted>', '<subagent_notification>', '<permissions instructions>', '<INSTRUCTIONS>'];
const SHELL_COMMAND = '<user_shell_command>';
// A text that is one whole element `<tag …>…</tag>` is markup too, whatever the tag.
const ELEMENT = /^<([A-Za-z_][\w-]*)(?:\s[^>]*)?>[\s\S]*<\/\1>$/;
const IMAGE_TAG = /^<\/?image(?:\s[^>]*)?>$/;

/** The first text of a message's content that is not an image label; null when it has none. */
export function leadingText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  for (const b of content) {
    if (!b || typeof b !== 'object' || typeof b.text !== 'string') continue;
    const text = b.text.trim();
    if (text === '' || IMAGE_TAG.test(text)) continue;
    return b.text;
  }
  return null;
}

/** What a user-role text is: a person's words, harness markup, or a shell command a person ran. */
export function userTextKind(text: string | null): 'person' | 'injected' | 'command' {
  if (text === null) return 'person';
  const t = text.trimStart();
  if (t.startsWith(SHELL_COMMAND)) return 'command';
  if (INJECTED_PREFIXES.some((p) => t.startsWith(p))) return 'injected';
  return ELEMENT.test(t.trimEnd()) ? 'injected' : 'person';
}

function messageKind(item: any, bare: boolean): Kind {
  const role = item.role;
  if (role === 'assistant') return 'assistant';
  if (role !== 'user') return 'injected';
  const k = userTextKind(leadingText(item.content));
  if (k === 'injected') return 'injected';
  if (k === 'command') return 'command';
  return bare ? 'prompt' : 'input';
}

/** The kind of one response item (the payload of a `response_item` line, or a bare line of an early rollout). */
export function responseItemKind(item: any, bare = false): Kind {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return 'other';
  const type = item.type;
  if (type === 'message') return messageKind(item, bare);
  if (type === 'reasoning' || CALL_TYPES.has(type)) return 'assistant';
  if (CALL_OUTPUT_TYPES.has(type)) return 'tool-result';
  if (type === 'compaction' || type === 'compaction_summary') return 'compact';
  if (type === 'ghost_snapshot') return 'meta';
  // A message another agent sent this one.
  if (type === 'agent_message') return 'injected';
  return 'other';
}

const SYSTEM_EVENTS = new Set(['error', 'stream_error', 'warning', 'turn_aborted', 'thread_rolled_back', 'undo_completed', 'background_event', 'deprecation_notice']);

/** The kind of one event (the payload of an `event_msg` line). */
export function eventKind(event: any): Kind {
  if (!event || typeof event !== 'object' || Array.isArray(event) || typeof event.type !== 'string') return 'other';
  switch (event.type) {
    case 'user_message': {
      // 0.2x–0.3x also sent the instructions and environment context as events, marked by `kind`.
      if (typeof event.kind === 'string' && event.kind !== 'plain') return 'injected';
      const k = userTextKind(typeof event.message === 'string' ? event.message : null);
      return k === 'person' ? 'prompt' : k;
    }
    case 'item_completed':
      return event.item && typeof event.item === 'object' && event.item.type === 'UserMessage' ? 'prompt' : 'progress';
    case 'thread_name_updated':
      return 'title';
    default:
      return SYSTEM_EVENTS.has(event.type) ? 'system' : 'progress';
  }
}

/** True when classifyCodexLine may look at the line's text: a message, or a user_message event. */
export function codexKindReadsText(line: any): boolean {
  if (!line || typeof line !== 'object') return false;
  const item = 'payload' in line ? line.payload : line;
  if (!item || typeof item !== 'object') return false;
  return item.type === 'message' || item.type === 'user_message';
}

/** The kind of one parsed Codex rollout line. */
export function classifyCodexLine(line: any): Kind {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return 'other';
  const type = line.type;
  if ('payload' in line && typeof type === 'string') {
    const payload = line.payload;
    if (type === 'response_item') return responseItemKind(payload);
    if (type === 'event_msg') return eventKind(payload);
    if (type === 'compacted') return 'compact';
    if (type === 'inter_agent_communication') return 'injected';
    if (META_TYPES.has(type)) return 'meta';
    return 'other';
  }
  // Early rollouts: a header object (id, instructions), `record_type` state lines, bare items.
  if (typeof line.record_type === 'string') return 'meta';
  if (type === undefined) return 'meta';
  return responseItemKind(line, true);
}
