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
  if (parent.keys !== null) {
    const key = buf.indexOf(0x5c, from) < to ? (JSON.parse(buf.toString('utf8', from, to)) as string) : buf.toString('utf8', from + 1, to - 1);
    const child = parent.keys.get(key);
    if (child !== undefined) return child;
  }
  return parent.anyKey;
}

/** Index past the closing quote of a valid JSON string opening at `start`; -1 when it is not one. */
function plainStringEnd(buf: Buffer, start: number, end: number): number {
  for (let j = start + 1; j < end; j++) {
    const c = buf[j];
    if (c === 0x22) return j + 1;
    if (c < 0x20) return -1;
    if (c === 0x5c) {
      if (j + 1 >= end) return -1;
      const d = buf[j + 1];
      if (d === 0x75) {
        if (j + 5 >= end || !isHex(buf[j + 2]) || !isHex(buf[j + 3]) || !isHex(buf[j + 4]) || !isHex(buf[j + 5])) return -1;
        j += 5;
      } else if (d === 0x22 || d === 0x5c || d === 0x2f || d === 0x62 || d === 0x66 || d === 0x6e || d === 0x72 || d === 0x74) j++;
      else return -1;
    }
  }
  return -1;
}

function isHex(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

/** A byte of a number, true, false or null. */
function isLiteralByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || b === 0x2d || b === 0x2b || b === 0x2e;
}
