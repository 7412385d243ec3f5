// Parsing a line without the strings its reader never looks at. Decoding and parsing
// the text of a tool's output is most of the cost of a line, and a reader that only
// counts (tx-stats) or drops a field (tx-common) does not need it: the line is walked
// once at the byte level, the strings at the paths it names become "", and the rest is
// given to JSON.parse. The result is JSON.parse's value with those strings empty, and
// it throws exactly when JSON.parse of the whole text would: a skipped string is checked
// to be a valid JSON string (no raw control byte, no bad escape) before it is skipped,
// and replacing one valid string token with another changes nothing else.
import { isJsonSpace, stringEnd } from './json-scan.js';

/** Where a reader never reads strings: a node per path, made by skimPaths. */
export interface SkimPaths {
  /** A string at this very path is skipped. */
  self: boolean;
  /** Members by key; a key not listed takes `anyKey`. */
  keys: Map<string, SkimPaths> | null;
  anyKey: SkimPaths | null;
  /** The items of an array at this path. */
  item: SkimPaths | null;
}

/** How a reader declares its unread strings: 'all' below a path, 'keep' nothing below it, or a node. */
export type SkimSpec = 'all' | 'keep' | { self?: true; keys?: Record<string, SkimSpec>; anyKey?: SkimSpec; item?: SkimSpec };

const ALL: SkimPaths = { self: true, keys: null, anyKey: null, item: null };
ALL.anyKey = ALL;
ALL.item = ALL;
const KEEP: SkimPaths = { self: false, keys: null, anyKey: null, item: null };

/** The paths of a spec, made once per reader. */
export function skimPaths(spec: SkimSpec): SkimPaths {
  if (spec === 'all') return ALL;
  if (spec === 'keep') return KEEP;
  for (const key of Object.keys(spec.keys ?? {})) if (!/^[\x20-\x7e]*$/.test(key)) throw new Error(`skim paths name ASCII keys: ${JSON.stringify(key)}`);
  const keys = spec.keys ? new Map(Object.entries(spec.keys).map(([k, v]) => [k, skimPaths(v)])) : null;
  return { self: spec.self === true, keys, anyKey: spec.anyKey ? skimPaths(spec.anyKey) : null, item: spec.item ? skimPaths(spec.item) : null };
}

/**
 * JSON.parse of the UTF-8 bytes buf[start, end), with every string at a path of `paths`
 * replaced by "". Throws when JSON.parse of the whole text throws.
 */
export function parseSkimmed(buf: Buffer, start: number, end: number, paths: SkimPaths): any {
  const cuts = skippedStrings(buf, start, end, paths);
  if (cuts === null || cuts.length === 0) return JSON.parse(buf.toString('utf8', start, end));
  let kept = end - start;
  for (let k = 0; k < cuts.length; k += 2) kept -= cuts[k + 1] - cuts[k];
  const text = Buffer.allocUnsafe(kept);
  let at = 0;
  let from = start;
  for (let k = 0; k < cuts.length; k += 2) {
    at += buf.copy(text, at, from, cuts[k]);
    from = cuts[k + 1];
  }
  buf.copy(text, at, from, end);
  return JSON.parse(text.toString('utf8'));
}

const enum Expect {
  Value,
  Key,
  After,
}

/**
 * The byte ranges (pairs of offsets) of the contents of the strings to skip, in order;
 * null when the bytes are not JSON as far as the walk can tell (JSON.parse then says why).
 * The walk keeps its own stack: nothing here recurses on the depth of the data.
 */
function skippedStrings(buf: Buffer, start: number, end: number, root: SkimPaths): number[] | null {
  const cuts: number[] = [];
  const frames: (SkimPaths | null)[] = [];
  const objects: boolean[] = [];
  let node: SkimPaths | null = root;
  let expect = Expect.Value;
  let i = start;
  for (;;) {
    while (i < end && isJsonSpace(buf[i])) i++;
    if (expect === Expect.After && frames.length === 0) return i === end ? cuts : null;
    if (i >= end) return null;
    const c = buf[i];
    if (expect === Expect.Value) {
      if (c === 0x22) {
        if (node !== null && node.self) {
          const e = plainStringEnd(buf, i, end);
          if (e < 0) return null;
          if (e - i > 2) cuts.push(i + 1, e - 1);
          i = e;
        } else {
          const e = stringEnd(buf, i);
          if (e < 0 || e > end) return null;
          i = e;
        }
        expect = Expect.After;
      } else if (c === 0x7b) {
        frames.push(node);
        objects.push(true);
        i++;
        expect = Expect.Key;
      } else if (c === 0x5b) {
        frames.push(node);
        objects.push(false);
        i++;
        while (i < end && isJsonSpace(buf[i])) i++;
        if (buf[i] === 0x5d) {
          frames.pop();
          objects.pop();
          i++;
          expect = Expect.After;
        } else node = node === null ? null : node.item;
      } else {
        // A number or literal (JSON.parse checks its spelling); anything else stops the walk after it.
        while (i < end && isLiteralByte(buf[i])) i++;
        expect = Expect.After;
      }
    } else if (expect === Expect.Key) {
      if (c === 0x7d) {
        frames.pop();
        objects.pop();
        i++;
        expect = Expect.After;
        continue;
      }
      if (c !== 0x22) return null;
      const e = stringEnd(buf, i);
      if (e < 0 || e > end) return null;
      const parent = frames[frames.length - 1];
      node = parent === null ? null : childOf(parent, buf, i, e);
      i = e;
      while (i < end && isJsonSpace(buf[i])) i++;
      if (buf[i] !== 0x3a) return null;
      i++;
      expect = Expect.Value;
    } else {
      const inObject = objects[objects.length - 1];
      if (c === 0x2c) {
        i++;
        if (inObject) expect = Expect.Key;
        else {
          const parent = frames[frames.length - 1];
          node = parent === null ? null : parent.item;
          expect = Expect.Value;
        }
      } else if (c === (inObject ? 0x7d : 0x5d)) {
        frames.pop();
        objects.pop();
        i++;
      } else return null;
    }
  }
}

/** The node of a member, from its key's bytes (the quoted string at buf[from, to)). */
function childOf(parent: SkimPaths, buf: Buffer, from: number, to: number): SkimPaths | null {
  if (parent.keys === null) return parent.anyKey;
  const length = to - from - 2;
  for (let j = from + 1; j < to - 1; j++) {
    if (buf[j] === 0x5c) return parent.keys.get(JSON.parse(buf.toString('utf8', from, to)) as string) ?? parent.anyKey;
  }
  // An unescaped key is its bytes: compared with each named key (ASCII, skimPaths checks) of its length.
  for (const [key, child] of parent.keys) {
    if (key.length !== length) continue;
    let j = 0;
    while (j < length && buf[from + 1 + j] === key.charCodeAt(j)) j++;
    if (j === length) return child;
  }
  return parent.anyKey;
}

/** Index past the closing quote of a valid JSON string opening at `start`; -1 when it is not one. */
function plainStringEnd(buf: Buffer, start: number, end: number): number {
  const e = stringEnd(buf, start);
  if (e < 0 || e > end) return -1;
  const last = e - 1;
  if (last - start < 64) {
    for (let j = start + 1; j < last; j++) {
      const c = buf[j];
      if (c < 0x20) return -1;
      if (c === 0x5c) {
        if (!isEscape(buf, j)) return -1;
        j += buf[j + 1] === 0x75 ? 5 : 1;
      }
    }
    return e;
  }
  // Long strings: every escape is one JSON allows (a backslash and what follows it are one
  // escape, so runs pair up), and no raw control character (a regular expression over the
  // bytes as Latin-1 finds one faster than a loop).
  const text = buf.subarray(0, last);
  for (let j = text.indexOf(0x5c, start + 1); j >= 0; j = text.indexOf(0x5c, j + (buf[j + 1] === 0x75 ? 6 : 2))) if (!isEscape(buf, j)) return -1;
  return CONTROL.test(buf.toString('latin1', start + 1, last)) ? -1 : e;
}

const CONTROL = /[\x00-\x1f]/;

/** The backslash at `j` starts an escape JSON allows. */
function isEscape(buf: Buffer, j: number): boolean {
  const d = buf[j + 1];
  if (d === 0x75) return isHex(buf[j + 2]) && isHex(buf[j + 3]) && isHex(buf[j + 4]) && isHex(buf[j + 5]);
  return d === 0x22 || d === 0x5c || d === 0x2f || d === 0x62 || d === 0x66 || d === 0x6e || d === 0x72 || d === 0x74;
}

function isHex(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

/** A byte of a number, true, false or null. */
function isLiteralByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || b === 0x2d || b === 0x2b || b === 0x2e;
}
