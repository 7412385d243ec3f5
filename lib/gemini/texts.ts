// The text of a Gemini CLI chat line: every string of it for tx-filter --grep, the
// message text by role for tx-grep, and the flat view of a record for tx-filter --view.
// A record the client writes again (a gemini record once its calls have run) and a
// result it writes twice (in the call and as a user record) give texts with the same
// key, so tx-grep finds each once (MessageText.key).
import type { MessageText, View } from '../codec.js';
import { trimText } from '../core/trim.js';
import type { RecordView } from '../record.js';
import { isSnapshotRecord } from './chat-log.js';
import { isMessageRecord, isSetLine } from './detect.js';
import { callsOf, recordText, resultsOf, thoughtsOf } from './items.js';
import { partList } from './parts.js';
import { geminiBaseView } from './questions.js';

/** Keys whose strings are identifiers, times, opaque data or display fields, not text. */
const NOT_TEXT = new Set(['id', 'timestamp', 'type', 'sessionId', 'projectHash', 'startTime', 'lastUpdated', 'kind', 'thoughtSignature', 'data', 'mimeType', 'model', 'status', 'fileUri']);

/** Every string of a chat line's text: message text, thoughts, tool inputs and outputs, a summary; not ids, times or inline data. */
export function* geminiStrings(line: any): Generator<string> {
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

/** The strings of a JSON value, in order (tool arguments). */
function valueStrings(v: unknown): string[] {
  return typeof v === 'string' ? [v] : [...geminiStrings({ v })];
}

/**
 * The message text of a chat line by role (tx-grep): a user record's text parts as
 * `user`, a gemini record's text and thoughts as `assistant`, calls' arguments and
 * results as `tool`; a compression's snapshot as `user`. Other checkpoints repeat
 * records the file holds as lines, and are left out.
 */
export function* geminiTexts(line: any): Generator<MessageText> {
  if (!line || typeof line !== 'object') return;
  if (isSetLine(line)) {
    const messages = line.$set.messages;
    if (!Array.isArray(messages)) return;
    for (const m of messages) if (isSnapshotRecord(m)) yield { role: 'user', text: recordText(m.content), key: `${String(m.id)}\0text` };
    return;
  }
  if (!isMessageRecord(line)) return;
  const id = String(line.id);
  if (line.type === 'user') {
    const content = partList(line.content);
    for (let i = 0; i < content.length; i++) {
      const p = content[i];
      if (typeof p.text === 'string' && !p.thought) yield { role: 'user', text: p.text, key: `${id}\0${i}` };
    }
  } else if (line.type === 'gemini') {
    let i = 0;
    for (const t of thoughtsOf(line)) yield { role: 'assistant', text: t.text, key: `${id}\0thought\0${i++}` };
    const content = partList(line.content);
    for (let j = 0; j < content.length; j++) {
      const p = content[j];
      if (typeof p.text === 'string' && !p.thought) yield { role: 'assistant', text: p.text, key: `${id}\0${j}` };
    }
    for (const c of callsOf(line)) for (const text of valueStrings(c.args)) yield { role: 'tool', text, key: c.id === null ? undefined : `call\0${c.id}\0${text}` };
  }
  for (const r of resultsOf(line)) yield { role: 'tool', text: r.text, key: r.id === null ? undefined : `result\0${r.id}` };
}

/** The view of a Gemini record when no question is asked: its kind, type and text. */
export function geminiLineView(rec: RecordView, maxChars: number): View {
  const h = rec.header;
  if (h.kind === 'invalid') return { ...geminiBaseView(h, null), kind: h.kind, text: trimText(h.raw ?? h.error ?? '', maxChars) };
  const line = rec.value();
  const text = isMessageRecord(line) && (line.type === 'user' || line.type === 'gemini') ? recordText(line.content) : [...geminiStrings(line)].join('\n');
  return { ...geminiBaseView(h, line), kind: h.kind, text: trimText(text, maxChars) };
}
