// The text of a pi session line, in two senses: every string a --grep searches
// (tx-filter(1)), and the message text by who wrote it (tx-grep(1)). Identifiers,
// timestamps, signatures, image data and the accounting of a reply are not text.
import type { MessageText } from '../codec.js';

const str = (v: unknown): v is string => typeof v === 'string';

// Keys whose strings are not text, at any depth: links, signatures, image payloads, a reply's accounting.
const NOT_TEXT = new Set([
  'type',
  'id',
  'parentId',
  'timestamp',
  'data',
  'mimeType',
  'thinkingSignature',
  'textSignature',
  'thoughtSignature',
  'api',
  'provider',
  'model',
  'usage',
  'stopReason',
  'responseId',
  'toolCallId',
  'role',
]);

// Fields of an entry that are its place in the session, not its text.
const ENVELOPE = new Set(['cwd', 'version', 'parentSession', 'targetId', 'fromId', 'firstKeptEntryId', 'firstKeptEntryIndex', 'tokensBefore', 'fromHook']);

/** Every string inside a value, in document order, at any depth (an explicit stack: depth comes from the data). */
function* strings(value: unknown, skip: ReadonlySet<string>): Generator<string> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (str(v)) {
      yield v;
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    const children = Array.isArray(v) ? v : Object.entries(v).flatMap(([k, x]) => (skip.has(k) ? [] : [x]));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/** The text blocks of a content (a string, or blocks), in order. */
export function* contentTexts(content: unknown): Generator<string> {
  if (str(content)) yield content;
  else if (Array.isArray(content)) for (const b of content) if (b && b.type === 'text' && str(b.text)) yield b.text;
}

/** A content's text blocks joined by newlines, with `[image]` for each image (a tool result as a person reads it). */
export function contentText(content: unknown, images = true): string {
  if (str(content)) return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const b of content) {
    if (b && b.type === 'text' && str(b.text)) parts.push(b.text);
    else if (images && b && str(b.type)) parts.push(`[${b.type}]`);
  }
  return parts.join('\n');
}

/**
 * Every string a --grep searches in a pi line: a message's content (text, thinking,
 * tool-call arguments, tool results; not images or signatures), a shell command and its
 * output, a summary, an extension's message, and the fields of any other entry but its
 * links (a session name, a model change, a label).
 */
export function* piStrings(line: any): Generator<string> {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return;
  if (line.type === 'message') {
    const m = line.message;
    if (!m || typeof m !== 'object') return;
    if (m.role === 'bashExecution') {
      if (str(m.command)) yield m.command;
      if (str(m.output)) yield m.output;
      return;
    }
    if (str(m.summary)) yield m.summary;
    yield* strings(m.content, NOT_TEXT);
    if (str(m.errorMessage)) yield m.errorMessage;
    return;
  }
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(line)) if (!ENVELOPE.has(k)) rest[k] = v;
  yield* strings(rest, NOT_TEXT);
}

/**
 * The message text of a pi line by role (tx-grep): what a person typed, an extension's
 * message and the summaries the client gives the model as user text; the model's text
 * and thinking; a tool call's argument strings and a tool result's text as tool. A shell
 * command a person ran (`!cmd`) is theirs; its output is the tool's.
 */
export function* piTexts(line: any): Generator<MessageText> {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return;
  if (line.type === 'custom_message') {
    for (const text of contentTexts(line.content)) yield { role: 'user', text };
    return;
  }
  if (line.type === 'compaction' || line.type === 'branch_summary') {
    if (str(line.summary)) yield { role: 'user', text: line.summary };
    return;
  }
  if (line.type !== 'message' || !line.message || typeof line.message !== 'object') return;
  const m = line.message;
  switch (m.role) {
    case 'user':
    case 'custom':
    case 'hookMessage':
      for (const text of contentTexts(m.content)) yield { role: 'user', text };
      return;
    case 'branchSummary':
    case 'compactionSummary':
      if (str(m.summary)) yield { role: 'user', text: m.summary };
      return;
    case 'bashExecution':
      if (str(m.command)) yield { role: 'user', text: m.command };
      if (str(m.output)) yield { role: 'tool', text: m.output };
      return;
    case 'toolResult':
      for (const text of contentTexts(m.content)) yield { role: 'tool', text };
      return;
    case 'assistant':
      if (!Array.isArray(m.content)) return;
      for (const b of m.content) {
        if (!b || typeof b !== 'object') continue;
        if (b.type === 'text' && str(b.text)) yield { role: 'assistant', text: b.text };
        else if (b.type === 'thinking' && str(b.thinking) && b.redacted !== true) yield { role: 'assistant', text: b.thinking };
        else if (b.type === 'toolCall') for (const text of strings(b.arguments, NOT_TEXT)) yield { role: 'tool', text };
      }
      return;
    default:
      return;
  }
}
