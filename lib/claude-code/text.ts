// The text of a Claude Code line, in two senses: what a person reads in a message
// (for views), and every string a --grep should search (tx-filter(1) defines it).
import type { MessageText, TextRole } from '../codec.js';
import { stringifyJson } from '../core/json/json-text.js';

/** The readable text of message content: the string, or text blocks joined by newlines (other blocks left out). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (block && block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
  }
  return parts.join('\n');
}

/** The text of a tool_result's content: the string, or its text blocks, with `[image]`-style markers for other blocks. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : stringifyJson(content);
  const parts: string[] = [];
  for (const block of content) {
    if (block && block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (block && typeof block.type === 'string') parts.push(`[${block.type}]`);
  }
  return parts.join('\n');
}

// Keys whose strings are not text: signatures and image/document payloads.
const NOT_TEXT = new Set(['signature', 'source']);

// Envelope fields of a line: identifiers and bookkeeping, not text.
const ENVELOPE = new Set([
  'type',
  'uuid',
  'parentUuid',
  'logicalParentUuid',
  'sessionId',
  'timestamp',
  'cwd',
  'gitBranch',
  'version',
  'userType',
  'entrypoint',
  'slug',
  'requestId',
  'isSidechain',
  'agentId',
  'leafUuid',
  'messageId',
  'toolUseID',
  'parentToolUseID',
  'sourceToolAssistantUUID',
  'sourceToolUseID',
]);

/** Every string inside a value, in document order, at any depth (an explicit stack, not recursion). */
function* strings(value: unknown): Generator<string> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      yield v;
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    const children = Array.isArray(v) ? v : Object.entries(v).flatMap(([k, x]) => (NOT_TEXT.has(k) ? [] : [x]));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/**
 * Every string a --grep searches in a line: message content (text, thinking, tool
 * inputs, tool results; not images or signatures) on user and assistant lines, the
 * attachment on attachment lines, `data` on progress lines, `content` on system lines,
 * and the non-envelope fields of any other line (summary, titles, last-prompt…).
 */
export function* lineStrings(line: any): Generator<string> {
  if (!line || typeof line !== 'object') return;
  switch (line.type) {
    case 'user':
    case 'assistant':
      yield* strings(line.message?.content);
      return;
    case 'attachment':
      yield* strings(line.attachment);
      return;
    case 'progress':
      yield* strings(line.data);
      return;
    case 'system':
      yield* strings(line.content);
      return;
  }
  for (const [k, v] of Object.entries(line)) {
    if (!ENVELOPE.has(k)) yield* strings(v);
  }
}

/**
 * The message text of a line by role (tx-grep): a user line's text (typed, queued or
 * injected by the client), an assistant line's text and thinking, and as `tool` the
 * strings of a tool call's input and a tool result's text.
 */
export function* messageTexts(line: any): Generator<MessageText> {
  if (!line || typeof line !== 'object') return;
  if (line.type === 'attachment') {
    // A prompt typed while the model was busy is written as an attachment first.
    const a = line.attachment;
    if (a && a.type === 'queued_command' && typeof a.prompt === 'string') yield { role: 'user', text: a.prompt };
    return;
  }
  if (line.type !== 'user' && line.type !== 'assistant') return;
  const role: TextRole = line.type;
  const content = line.message?.content;
  if (typeof content === 'string') {
    yield { role, text: content };
    return;
  }
  if (!Array.isArray(content)) return;
  for (const block of content) {
    if (!block || typeof block !== 'object') continue;
    if (block.type === 'text' && typeof block.text === 'string') yield { role, text: block.text };
    else if (block.type === 'thinking' && typeof block.thinking === 'string') yield { role: 'assistant', text: block.thinking };
    else if (block.type === 'tool_use') for (const text of strings(block.input)) yield { role: 'tool', text };
    else if (block.type === 'tool_result') {
      if (typeof block.content === 'string') yield { role: 'tool', text: block.content };
      else if (Array.isArray(block.content)) {
        for (const b of block.content) if (b && b.type === 'text' && typeof b.text === 'string') yield { role: 'tool', text: b.text };
      }
    }
  }
}
