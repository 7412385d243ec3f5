// Long strings carried as their bytes. Most of what tx-common writes is tool output that
// the conversion copies from a native line into a message without looking at it; decoding
// it from JSON and encoding it again was a third of tx-common's time. Here a line's long
// strings are cut out before JSON.parse, each replaced by a marker string; the conversion
// says where a value passes through untouched (the marker stays) and every other marker
// gets its string back at once. When a message is written, each marker's text is replaced
// by the original bytes. Only bytes that JSON.stringify would write alike are carried
// (valid UTF-8, no escapes but the ones it writes), so the output is the same either way.
import { isUtf8 } from 'node:buffer';
import { COLON, findTopLevelKey, isJsonSpace, keyBytes, OPEN_BRACE, QUOTE, stringEnd, valueEnd } from './json-scan.js';
import { Slabs, type SlabCopy } from './slabs.js';

/** Where a converter lets a value pass through untouched: the key `key` of `holder`. */
export type PassesThrough = (holder: any, key: string) => boolean;

/** Where text goes: a spool, or an output. */
export interface TextSink {
  write(data: string | Buffer): void;
}

const BACKSLASH = 0x5c;
/** The largest text put together in the buffer kept for it. */
const ASSEMBLY = 1024 * 1024;
/** How far a string is walked byte by byte before its end is searched for. */
const SHORT = 128;
/** Strings shorter than this (in bytes, quotes included) are parsed as usual. */
const LONG = 4096;
/** Bytes of strings held for markers not yet written, past which lines are parsed as usual. */
const HELD_LIMIT = 16 * 1024 * 1024;

/** The long strings of parsed lines, held as bytes until the messages holding them are written. */
export class RawStrings {
  /** Copies of the strings not yet written (the line's own bytes may be read into again). */
  private readonly held = new Map<number, SlabCopy>();
  private readonly slabs = new Slabs();
  private assembled: Buffer | null = null;
  /** Bytes in `held`. */
  private heldBytes = 0;
  private next = 0;
  /** For each line parsed with markers, the number after its last one. */
  private readonly ends = new WeakMap<object, number>();
  /** The number after the markers of the lines converters have taken so far. */
  private takenEnd = 0;
  /** A marker's text in a parsed value: a NUL, then a tag no transcript holds by chance. */
  private readonly prefix: string;
  /** The same as JSON.stringify writes it. */
  private readonly written: string;

  constructor(
    /** Strings shorter than this many bytes (quotes included) are decoded as usual, and lines too. */
    readonly long = LONG,
    private readonly limit = HELD_LIMIT,
  ) {
    const tag = `txraw${Math.random().toString(36).slice(2, 10)}.`;
    this.prefix = `\u0000${tag}`;
    this.written = `\\u0000${tag}`;
  }

  /**
   * JSON.parse of the object in `buf` from `start` to `end`, the long strings of its
   * top-level `scan` value (null: of the whole object) carried as bytes wherever `passes`
   * says the value passes through, and its top-level `unread` value skipped, read as null,
   * as parseWithout skips it. Undefined when there is no long string to carry (parse it as
   * usual). Throws as JSON.parse does when the bytes are not JSON. The strings are copied
   * (core/json/slabs.ts): the bytes may be read into again once this returns.
   */
  parse(buf: Buffer, start: number, end: number, scan: string | null, unread: string | null, passes: PassesThrough): unknown {
    if (end - start < this.long || this.heldBytes > this.limit) return undefined;
    let first = start;
    while (first < end && isJsonSpace(buf[first])) first++;
    if (buf[first] !== OPEN_BRACE) return undefined;
    const scanned = scan === null ? { from: start, to: end } : topLevelValue(buf, start, end, scan);
    if (scanned === null) return undefined;
    const skip = unread === null ? null : topLevelValue(buf, start, end, unread);
    const cuts: number[] = [];
    // The unread value is not scanned: around it when it lies within the scanned one.
    if (skip !== null && skip.from >= scanned.from && skip.to <= scanned.to) {
      this.longStrings(buf, scanned.from, skip.from, cuts);
      this.longStrings(buf, skip.to, scanned.to, cuts);
    } else {
      this.longStrings(buf, scanned.from, scanned.to, cuts);
    }
    if (cuts.length === 0) return undefined;
    // The text parsed: the bytes between the cuts, a marker for each long string, null for
    // the unread value, put together as bytes and decoded once.
    const id = this.next;
    const text = this.assembly(end - start + (cuts.length / 2) * (this.written.length + 24));
    let n = 0;
    let from = start;
    let k = 0;
    for (let c = 0; c <= cuts.length; c += 2) {
      const at = c < cuts.length ? cuts[c] : end;
      if (skip !== null && skip.from >= from && skip.from < at) {
        n += buf.copy(text, n, from, skip.from);
        n += text.write('null', n, 'latin1');
        from = skip.to;
      }
      n += buf.copy(text, n, from, at);
      if (c === cuts.length) break;
      n += text.write(`"${this.written}${id + k++}"`, n, 'latin1');
      from = cuts[c + 1];
    }
    const value = JSON.parse(text.toString('utf8', 0, n)) as Record<string, unknown>;
    this.next += k;
    for (let i = 0; i < k; i++) this.hold(id + i, buf.subarray(cuts[2 * i], cuts[2 * i + 1]));
    this.settle(value, id, k, passes);
    this.ends.set(value, this.next);
    return value;
  }

  /** Write a message's JSON text, each marker in it replaced by the bytes it stands for (a marker is written once). */
  write(text: string, out: TextSink): void {
    if (this.held.size === 0) {
      out.write(text);
      return;
    }
    let from = 0;
    for (let at = text.indexOf(this.written); at >= 0; at = text.indexOf(this.written, at + 1)) {
      let j = at + this.written.length;
      let id = 0;
      for (let d = text.charCodeAt(j) - 48; d >= 0 && d <= 9; d = text.charCodeAt(++j) - 48) id = id * 10 + d;
      const bytes = this.held.get(id)?.bytes;
      if (bytes === undefined) throw new Error('a long string was written twice');
      if (at > from) out.write(text.slice(from, at));
      // Inside the string's quotes: the marker may have been joined to other text.
      out.write(bytes.subarray(1, bytes.length - 1));
      this.release(id);
      from = j;
    }
    out.write(from === 0 ? text : text.slice(from));
  }

  /** `line` (a value parse gave) went to its converter: lines are taken in the order they were parsed. */
  taken(line: object): void {
    const end = this.ends.get(line);
    if (end !== undefined && end > this.takenEnd) this.takenEnd = end;
  }

  /**
   * Let go of the strings of every line taken so far and never written: their session is
   * written, so they never will be (lines a conversion leaves out). The lines parsed and
   * not yet taken keep theirs.
   */
  forgetTaken(): void {
    for (const id of this.held.keys()) {
      if (id >= this.takenEnd) break;
      this.release(id);
    }
  }

  /** A buffer of at least `size` bytes to put a line's text together in: the same one each time, up to 1 MB. */
  private assembly(size: number): Buffer {
    if (size > ASSEMBLY) return Buffer.allocUnsafe(size);
    this.assembled ??= Buffer.allocUnsafe(ASSEMBLY);
    return this.assembled;
  }

  /** Let go of every held string. */
  clear(): void {
    for (const id of [...this.held.keys()]) this.release(id);
  }

  /** Strings held now (for tests). */
  get size(): number {
    return this.held.size;
  }

  /** Add the start and end of each long value string of `buf` from `start` to `end` (outside any string) to `cuts`. */
  private longStrings(buf: Buffer, start: number, end: number, cuts: number[]): void {
    let i = start;
    while (i < end) {
      if (buf[i] !== QUOTE) {
        i++;
        continue;
      }
      const open = i;
      // Short strings (most of a line's) are walked byte by byte, cheaper than a search
      // per quote; a long one is left to stringEnd's searches.
      const walk = Math.min(end, open + SHORT);
      let j = open + 1;
      while (j < walk && buf[j] !== QUOTE) j += buf[j] === BACKSLASH ? 2 : 1;
      const close = j < walk ? j + 1 : stringEnd(buf, open);
      if (close < 0 || close > end) return;
      i = close;
      if (close - open < this.long) continue;
      let after = close;
      while (after < end && isJsonSpace(buf[after])) after++;
      if (buf[after] !== COLON && writtenAlike(buf, open + 1, close - 1)) cuts.push(open, close);
    }
  }

  // Copied into a slab: a view would keep the line's whole read buffer alive, and a reader may read into it again.
  private hold(id: number, bytes: Buffer): void {
    this.held.set(id, this.slabs.copy(bytes));
    this.heldBytes += bytes.length;
  }

  private release(id: number): void {
    const copy = this.held.get(id);
    if (copy === undefined) return;
    this.held.delete(id);
    this.heldBytes -= copy.bytes.length;
    this.slabs.free(copy);
  }

  /** Give its string back to each of the `count` markers from `first` on that does not pass through. */
  private settle(value: unknown, first: number, count: number, passes: PassesThrough): void {
    let left = count;
    const stack: unknown[] = [value];
    while (left > 0 && stack.length > 0) {
      const node = stack.pop() as any;
      const keys = Array.isArray(node) ? null : Object.keys(node);
      const n = keys ? keys.length : (node as unknown[]).length;
      for (let i = 0; i < n; i++) {
        const key = keys ? keys[i] : String(i);
        const v = node[key];
        if (typeof v === 'string') {
          const id = this.idOf(v, first, count);
          if (id < 0) continue;
          left--;
          if (keys && passes(node, key)) continue;
          const text = JSON.parse(this.held.get(id)!.bytes.toString('utf8')) as string;
          // A key named __proto__ is data here: define it, never assign it.
          Object.defineProperty(node, key, { value: text, writable: true, enumerable: true, configurable: true });
          this.release(id);
        } else if (v !== null && typeof v === 'object') {
          stack.push(v);
        }
      }
    }
  }

  /** The marker number of `s` when it is one of the markers from `first` on, else -1. */
  private idOf(s: string, first: number, count: number): number {
    if (s.length <= this.prefix.length || s.charCodeAt(0) !== 0 || !s.startsWith(this.prefix)) return -1;
    const id = Number(s.slice(this.prefix.length));
    return Number.isInteger(id) && id >= first && id < first + count ? id : -1;
  }
}

/** Where the value of the top-level `key` of the object in `buf` from `start` to `end` lies; null when it has none. */
function topLevelValue(buf: Buffer, start: number, end: number, key: string): { from: number; to: number } | null {
  // One search says whether the key's bytes are there at all before the keys are walked.
  const at = buf.indexOf(keyBytes(key), start);
  if (at < 0 || at >= end) return null;
  const object = buf.subarray(start, end);
  const found = findTopLevelKey(object, key);
  const after = found ? valueEnd(object, found.value) : -1;
  return found && after >= 0 ? { from: start + found.value, to: start + after } : null;
}

/**
 * The JSON string body from `start` to `end` is what JSON.stringify writes for the text
 * it stands for: valid UTF-8, no control bytes, and no escapes but \" \\ \b \f \n \r \t
 * and \u00XX (lower-case hex) for the other control characters.
 */
function writtenAlike(buf: Buffer, start: number, end: number): boolean {
  return !hasControlByte(buf, start, end) && escapesAlike(buf, start, end) && isUtf8(buf.subarray(start, end));
}

/** A byte below 0x20 lies between `start` and `end` (JSON allows none in a string). */
function hasControlByte(buf: Buffer, start: number, end: number): boolean {
  // Four bytes a turn: the loop is most of what carrying a string costs.
  let i = start;
  for (; i + 4 <= end; i += 4) if (buf[i] < 0x20 || buf[i + 1] < 0x20 || buf[i + 2] < 0x20 || buf[i + 3] < 0x20) return true;
  for (; i < end; i++) if (buf[i] < 0x20) return true;
  return false;
}

/** Every escape between `start` and `end` is one JSON.stringify writes. */
function escapesAlike(buf: Buffer, start: number, end: number): boolean {
  for (let i = buf.indexOf(BACKSLASH, start); i >= 0 && i < end; i = buf.indexOf(BACKSLASH, i + 2)) {
    const e = buf[i + 1];
    if (e === 0x6e || e === 0x22 || e === BACKSLASH || e === 0x74 || e === 0x72 || e === 0x62 || e === 0x66) continue;
    if (e !== 0x75 || buf[i + 2] !== 0x30 || buf[i + 3] !== 0x30) return false;
    const hi = buf[i + 4];
    const lo = buf[i + 5];
    if ((hi !== 0x30 && hi !== 0x31) || !((lo >= 0x30 && lo <= 0x39) || (lo >= 0x61 && lo <= 0x66))) return false;
    // \b \t \n \f \r have short forms, which JSON.stringify writes instead.
    if (hi === 0x30 && (lo === 0x38 || lo === 0x39 || lo === 0x61 || lo === 0x63 || lo === 0x64)) return false;
    i += 4;
  }
  return true;
}
