// One pass over a JSON object's top-level keys, noting where the wanted values lie,
// without building any value: the shallow scan behind tx-ls's metadata.
import { CLOSE_BRACE, COLON, COMMA, isJsonSpace, OPEN_BRACE, QUOTE, stringEnd, valueEnd } from './json-scan.js';

/** Value ranges of the wanted keys of one JSON object, and where the object ends. */
export interface ObjectScan {
  values: Map<string, [number, number]>;
  end: number;
}

/**
 * Scan the object starting at `start` once, noting where the wanted top-level
 * keys' values lie. Null when it is not a complete object (a broken line).
 */
export function scanObject(buf: Buffer, wanted: ReadonlySet<string>, start = 0): ObjectScan | null {
  let i = start;
  while (i < buf.length && isJsonSpace(buf[i])) i++;
  if (buf[i] !== OPEN_BRACE) return null;
  i++;
  const values = new Map<string, [number, number]>();
  while (i < buf.length && isJsonSpace(buf[i])) i++;
  if (buf[i] === CLOSE_BRACE) return { values, end: i + 1 };
  for (;;) {
    while (i < buf.length && isJsonSpace(buf[i])) i++;
    if (buf[i] !== QUOTE) return null;
    const keyEnd = stringEnd(buf, i);
    if (keyEnd < 0) return null;
    // Keys we want are plain ASCII; a key with escapes never equals one.
    const key = keyEnd - i - 2 <= 24 ? buf.toString('latin1', i + 1, keyEnd - 1) : '';
    i = keyEnd;
    while (i < buf.length && isJsonSpace(buf[i])) i++;
    if (buf[i] !== COLON) return null;
    i++;
    while (i < buf.length && isJsonSpace(buf[i])) i++;
    const e = valueEnd(buf, i);
    if (e < 0 || e === i) return null;
    if (wanted.has(key) && !values.has(key)) values.set(key, [i, e]);
    i = e;
    while (i < buf.length && isJsonSpace(buf[i])) i++;
    if (buf[i] === COMMA) {
      i++;
      continue;
    }
    if (buf[i] === CLOSE_BRACE) return { values, end: i + 1 };
    return null;
  }
}

/** The objects of one physical line: usually one, several when glued (`{…}{…}`), none when broken. */
export function scanLineObjects(line: Buffer, wanted: ReadonlySet<string>): Map<string, [number, number]>[] | null {
  const found: Map<string, [number, number]>[] = [];
  let at = 0;
  for (;;) {
    const one = scanObject(line, wanted, at);
    if (!one) return null;
    found.push(one.values);
    let i = one.end;
    while (i < line.length && isJsonSpace(line[i])) i++;
    if (i >= line.length) return found;
    if (line[i] !== OPEN_BRACE) return null;
    at = i;
  }
}

/** The string at a value range, or null when the value is not a string. */
export function stringAt(buf: Buffer, range: [number, number] | undefined): string | null {
  if (!range || buf[range[0]] !== QUOTE) return null;
  try {
    return JSON.parse(buf.toString('utf8', range[0], range[1])) as string;
  } catch {
    return null;
  }
}
