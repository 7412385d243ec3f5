// Trimming long strings for views: the guide's rule is never to print a whole line,
// and one field of a line (a file read, a tool's output) can be megabytes.
import { keyed } from './keyed.js';

/** Cut a string to at most `max` characters, saying how many were left out; max 0 keeps it whole. */
export function trimText(text: string, max: number): string {
  if (max <= 0 || text.length <= max) return text;
  let cut = max;
  // Do not split a surrogate pair: half of one is not a character.
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${text.slice(0, cut)}…[${text.length - cut} more chars]`;
}

/** Items kept from a long array in a trimmed value. */
export const MAX_ITEMS = 50;

/** A copy of a JSON value with every string trimmed and long arrays cut (max 0 keeps it whole). */
export function trimDeep(value: unknown, max: number): unknown {
  if (max <= 0) return value;
  if (typeof value === 'string') return trimText(value, max);
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map((v) => trimDeep(v, max));
    if (value.length > MAX_ITEMS) kept.push(`…[${value.length - MAX_ITEMS} more items]`);
    return kept;
  }
  if (value && typeof value === 'object') {
    // Keys come from the data: an own `__proto__` key must stay a key (see keyed.ts).
    const out = keyed<unknown>();
    for (const [k, v] of Object.entries(value)) out[k] = trimDeep(v, max);
    return out;
  }
  return value;
}
