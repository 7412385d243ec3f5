// Rewriting the payloads of an envelope body while its markup stays: tx-escape must
// escape what is inside `<command-args>…</command-args>`, not the closing tag that
// ends it. The split is parseEnvelope's, but keeps the whitespace between elements
// so the body is rebuilt byte for byte around the rewritten texts.
import { ENVELOPE_TAGS } from './envelope.js';

const ELEMENT = new RegExp(`^(\\s*)<(${ENVELOPE_TAGS.join('|')})>`);
const BLANK = /^\s*$/;

/**
 * Apply `fn` to the text of every element of a body made entirely of envelope
 * elements (the bodies parseEnvelope accepts), keeping tags and whitespace; null
 * when the body is not wholly envelope markup.
 */
export function rewriteEnvelopeBody(body: string, fn: (text: string) => string): string | null {
  let out = '';
  let rest = body;
  let elements = 0;
  for (;;) {
    if (BLANK.test(rest)) return elements > 0 ? out + rest : null;
    const m = ELEMENT.exec(rest);
    if (!m) return null;
    const tag = m[2];
    const open = m[0].length;
    const closing = `</${tag}>`;
    const close = rest.indexOf(closing, open);
    if (close < 0) return null;
    out += m[0] + fn(rest.slice(open, close)) + closing;
    rest = rest.slice(close + closing.length);
    elements++;
  }
}

/** Where a string of a native line sits: the object holding it and its key. */
export interface EnvelopeSlot {
  parent: Record<string, unknown>;
  key: string;
}

/**
 * The strings of a native Claude Code line where envelope bodies are read: a system
 * line's `content`, an attachment's `attachment.prompt` (queued commands), a user
 * line's `message.content` string or the text of its first block (the places classify
 * and to-common look).
 */
export function envelopeSlots(line: any): EnvelopeSlot[] {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return [];
  if (line.type === 'system' && typeof line.content === 'string') return [{ parent: line, key: 'content' }];
  if (line.type === 'attachment') {
    const a = line.attachment;
    return a && typeof a === 'object' && !Array.isArray(a) && typeof a.prompt === 'string' ? [{ parent: a, key: 'prompt' }] : [];
  }
  if (line.type !== 'user' || !line.message || typeof line.message !== 'object') return [];
  const content = line.message.content;
  if (typeof content === 'string') return [{ parent: line.message, key: 'content' }];
  const first = Array.isArray(content) ? content[0] : undefined;
  if (first && typeof first === 'object' && first.type === 'text' && typeof first.text === 'string') return [{ parent: first, key: 'text' }];
  return [];
}
