// The text of an OpenCode line: every string of it for tx-filter --grep, the message
// text by role for tx-grep, and the flat view of a record for tx-filter --view. Each
// part is written once, so no text needs a key to be found once.
import type { MessageText, View } from '../codec.js';
import { trimText } from '../core/trim.js';
import type { RecordView } from '../record.js';
import { isMessageWithParts } from './detect.js';
import { partsOf, reasoningTexts, toolUses } from './parts.js';
import { opencodeBaseView } from './questions.js';

/** Keys whose strings are identifiers, times, opaque data or display fields, not text. */
const NOT_TEXT = new Set(['id', 'sessionID', 'messageID', 'parentID', 'projectID', 'callID', 'type', 'role', 'time', 'slug', 'version', 'modelID', 'providerID', 'mode', 'agent', 'status', 'mime', 'url', 'snapshot', 'hash', 'reason', 'variant']);

/** Every string of a line's text: message text, reasoning, tool inputs and outputs, titles; not ids, times or data URLs. */
export function* opencodeStrings(line: unknown): Generator<string> {
  if (!line || typeof line !== 'object') return;
  // An explicit stack: a line's depth comes from its data and must not reach the call stack.
  const stack: unknown[] = [line];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') yield v;
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (v && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) if (!NOT_TEXT.has(entries[i][0])) stack.push(entries[i][1]);
    }
  }
}

/** The strings of a JSON value, in order (tool inputs). */
function valueStrings(v: unknown): string[] {
  return typeof v === 'string' ? [v] : [...opencodeStrings({ v })];
}

/**
 * The message text of a line by role (tx-grep): a user message's text parts as `user`
 * (those the client wrote too: it sends them), an assistant's text and reasoning as
 * `assistant`, tool inputs and outputs as `tool`.
 */
export function* opencodeTexts(line: unknown): Generator<MessageText> {
  if (!isMessageWithParts(line)) return;
  const role = line.info.role === 'user' ? 'user' : 'assistant';
  if (role === 'assistant') for (const text of reasoningTexts(line)) yield { role, text };
  for (const p of partsOf(line)) if (p.type === 'text' && typeof p.text === 'string') yield { role, text: p.text };
  for (const u of toolUses(line)) {
    for (const text of valueStrings(u.input)) yield { role: 'tool', text };
    if (u.done) yield { role: 'tool', text: u.output };
  }
}

/** The view of an OpenCode record when no question is asked: its kind and text. */
export function opencodeLineView(rec: RecordView, maxChars: number): View {
  const h = rec.header;
  if (h.kind === 'invalid') return { ...opencodeBaseView(h, null), kind: h.kind, text: trimText(h.raw ?? h.error ?? '', maxChars) };
  const line = rec.value();
  const text = isMessageWithParts(line)
    ? partsOf(line)
        .filter((p) => p.type === 'text' && typeof p.text === 'string')
        .map((p) => p.text as string)
        .join('\n')
    : [...opencodeStrings(line)].join('\n');
  return { ...opencodeBaseView(h, line), kind: h.kind, text: trimText(text, maxChars) };
}
