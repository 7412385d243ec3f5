// How much of one block a page shows. A block past BLOCK_CAP characters is cut there
// and the page says how much was left out: a page of tens of megabytes neither opens
// in a browser nor is read by anyone, and what tx-render holds stays small. Text past
// a screen is folded, so a browser lays out only what a reader opens.
import { formatCount } from './tally.js';

/** Characters of one block a page shows at most (the rest is named, not shown). */
export const BLOCK_CAP = 200_000;

/** A screen: text with more lines or characters than this is shown up to here, the rest folded. */
export const SCREEN = { lines: 30, chars: 3000 };

/** Text cut to `cap` characters (never inside a surrogate pair), and how many were left out. */
export function capText(text: string, cap = BLOCK_CAP): { text: string; hidden: number } {
  if (text.length <= cap) return { text, hidden: 0 };
  let end = cap;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return { text: text.slice(0, end), hidden: text.length - end };
}

/** Where a screen of the text ends: after its last whole line that fits (its length when all of it fits). */
export function screenEnd(text: string): number {
  let at = 0;
  for (let line = 0; line < SCREEN.lines; line++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return text.length <= SCREEN.chars ? text.length : at > 0 ? at : cutAt(text, SCREEN.chars);
    if (nl + 1 > SCREEN.chars) break;
    at = nl + 1;
  }
  if (at >= text.length) return text.length;
  return at > 0 ? at : cutAt(text, SCREEN.chars);
}

/** `at`, moved back off the second half of a surrogate pair. */
function cutAt(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

/** What a page says of text it left out. */
export function hiddenNote(hidden: number): string {
  return `${formatCount(hidden)} more characters not shown (a page shows ${formatCount(BLOCK_CAP)} of one block; the transcript has them all)`;
}
