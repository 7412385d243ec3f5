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

/** A copy of a JSON value with every string trimmed and long arrays cut (max 0 keeps it whole); any depth (no recursion). */
export function trimDeep(value: unknown, max: number): unknown {
  if (max <= 0) return value;
  const copy = (v: unknown): { out: unknown; todo?: [unknown, unknown] } => {
    if (typeof v === 'string') return { out: trimText(v, max) };
    if (Array.isArray(v)) return { out: [], todo: [v, null] };
    // Keys come from the data: an own `__proto__` key must stay a key (see keyed.ts).
    if (v && typeof v === 'object') return { out: keyed<unknown>(), todo: [v, null] };
    return { out: v };
  };
  const first = copy(value);
  const stack: Array<[unknown, unknown]> = first.todo ? [[value, first.out]] : [];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    if (Array.isArray(from)) {
      const out = to as unknown[];
      for (const v of from.slice(0, MAX_ITEMS)) {
        const c = copy(v);
        out.push(c.out);
        if (c.todo) stack.push([v, c.out]);
      }
      if (from.length > MAX_ITEMS) out.push(`…[${from.length - MAX_ITEMS} more items]`);
    } else {
      const out = to as Record<string, unknown>;
      for (const [k, v] of Object.entries(from as object)) {
        const c = copy(v);
        out[k] = c.out;
        if (c.todo) stack.push([v, c.out]);
      }
    }
  }
  return first.out;
}
