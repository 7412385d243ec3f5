// Structural scanning of JSON bytes without building values: where a value ends,
// where a top-level key starts. Strings are skipped with indexOf, so the cost is
// mostly proportional to the number of quotes and brackets, not to the text.

/** The bytes of JSON's structure, for the scanners built on this one. */
export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

/** True for the four JSON whitespace bytes. */
export function isJsonSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** Index just past the closing quote of the string whose opening quote is at `start`, or -1. */
export function stringEnd(buf: Buffer, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = buf.indexOf(QUOTE, i);
    if (q < 0) return -1;
    let k = q - 1;
    while (k > start && buf[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** Index just past the JSON value starting at `start` (after any whitespace), or -1 if it does not close. */
export function valueEnd(buf: Buffer, start: number, end = buf.length): number {
  let i = start;
  while (i < end && isJsonSpace(buf[i])) i++;
  if (i >= end) return -1;
  const first = buf[i];
  if (first === QUOTE) {
    const e = stringEnd(buf, i);
    return e < 0 || e > end ? -1 : e;
  }
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    while (i < end) {
      const b = buf[i];
      if (isJsonSpace(b) || b === COMMA || b === CLOSE_BRACE || b === CLOSE_BRACKET || b === OPEN_BRACE || b === OPEN_BRACKET || b === QUOTE) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  while (i < end) {
    const b = buf[i];
    if (b === QUOTE) {
      const e = stringEnd(buf, i);
      if (e < 0 || e > end) return -1;
      i = e;
      continue;
    }
    if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

/**
 * Scan the top-level keys of the object at the start of `buf` until `key`.
 * Returns the offset of the comma (or opening brace) before that key and the
 * offset where its value starts, or null when the object has no such key.
 */
export function findTopLevelKey(buf: Buffer, key: string): { before: number; value: number } | null {
  let i = 0;
  while (i < buf.length && isJsonSpace(buf[i])) i++;
  if (buf[i] !== OPEN_BRACE) return null;
  let before = i;
  i++;
  const want = keyBytes(key);
  for (;;) {
    while (i < buf.length && isJsonSpace(buf[i])) i++;
    if (buf[i] !== QUOTE) return null;
    const keyEnd = stringEnd(buf, i);
    if (keyEnd < 0) return null;
    const isWanted = keyEnd - i === want.length && buf.compare(want, 0, want.length, i, keyEnd) === 0;
    i = keyEnd;
    while (i < buf.length && isJsonSpace(buf[i])) i++;
    if (buf[i] !== COLON) return null;
    i++;
    if (isWanted) return { before, value: i };
    const e = valueEnd(buf, i);
    if (e < 0) return null;
    i = e;
    while (i < buf.length && isJsonSpace(buf[i])) i++;
    if (buf[i] !== COMMA) return null;
    before = i;
    i++;
  }
}

const keyCache = new Map<string, Buffer>();

/** A key as the JSON string bytes it is written as, made once per key. */
export function keyBytes(key: string): Buffer {
  let bytes = keyCache.get(key);
  if (!bytes) keyCache.set(key, (bytes = Buffer.from(JSON.stringify(key))));
  return bytes;
}
