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

/** Where a converter lets a value pass through untouched: the key `key` of `holder`. */
export type PassesThrough = (holder: any, key: string) => boolean;

/** Where text goes: a spool, or an output. */
export interface TextSink {
  write(data: string | Buffer): void;
}

const BACKSLASH = 0x5c;
/** Strings shorter than this (in bytes, quotes included) are parsed as usual. */
const LONG = 4096;
/** Bytes of input held for markers not yet written, past which lines are parsed as usual. */
const HELD_LIMIT = 16 * 1024 * 1024;

/** The long strings of parsed lines, held as bytes until the messages holding them are written. */
export class RawStrings {
  private readonly held = new Map<number, Buffer>();
  /** Bytes kept from being freed by `held` (whole input chunks, not only the strings). */
  private heldBytes = 0;
  private next = 0;
  /** A marker's text in a parsed value: a NUL, then a tag no transcript holds by chance. */
  private readonly prefix: string;
  /** The same as JSON.stringify writes it. */
  private readonly written: string;

  constructor(
    private readonly long = LONG,
    private readonly limit = HELD_LIMIT,
  ) {
    const tag = `txraw${Math.random().toString(36).slice(2, 10)}.`;
    this.prefix = `\u0000${tag}`;
    this.written = `\\u0000${tag}`;
  }

  /** A number that orders the markers made from now on after every earlier one. */
  mark(): number {
    return this.next;
  }

  /**
   * JSON.parse of the object in `buf` from `start` to `end`, its top-level `unread` value
   * read as null (as parseWithout does) and its long strings carried as bytes wherever
   * `passes` says the value passes through. Undefined when the line has no long string to
   * carry (parse it as usual). Throws as JSON.parse does when the bytes are not JSON. The
   * bytes must stay as they are until the markers are written or forgotten.
   */
  parse(buf: Buffer, start: number, end: number, unread: string | null, passes: PassesThrough): unknown {
    if (end - start < this.long || this.heldBytes > this.limit) return undefined;
    let first = start;
    while (first < end && isJsonSpace(buf[first])) first++;
    if (buf[first] !== OPEN_BRACE) return undefined;
    let skipFrom = end;
    let skipTo = end;
    if (unread) {
      const needle = keyBytes(unread);
      const at = buf.indexOf(needle, start);
      if (at >= 0 && at + needle.length <= end) {
        const object = buf.subarray(start, end);
        const found = findTopLevelKey(object, unread);
        const after = found ? valueEnd(object, found.value) : -1;
        if (found && after >= 0) {
          skipFrom = start + found.value;
          skipTo = start + after;
        }
      }
    }
    const cuts: number[] = [];
    this.longStrings(buf, start, skipFrom, cuts);
    this.longStrings(buf, skipTo, end, cuts);
    if (cuts.length === 0) return undefined;
    // The text parsed: the bytes between the cuts, a marker for each long string, null for the unread value.
    const id = this.next;
    const parts: string[] = [];
    let from = start;
    let k = 0;
    const skipAt = skipFrom < end ? skipFrom : Infinity;
    for (let c = 0; c <= cuts.length; c += 2) {
      const at = c < cuts.length ? cuts[c] : end;
      if (skipAt >= from && skipAt < at) {
        parts.push(buf.toString('utf8', from, skipFrom), 'null');
        from = skipTo;
      }
      parts.push(buf.toString('utf8', from, at));
      if (c === cuts.length) break;
      parts.push(`"${this.written}${id + k++}"`);
      from = cuts[c + 1];
    }
    const value = JSON.parse(parts.join(''));
    this.next += k;
    for (let i = 0; i < k; i++) this.hold(id + i, buf.subarray(cuts[2 * i], cuts[2 * i + 1]));
    this.settle(value, id, k, passes);
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
      const bytes = this.held.get(id);
      if (bytes === undefined) throw new Error('a long string was written twice');
      if (at > from) out.write(text.slice(from, at));
      // Inside the string's quotes: the marker may have been joined to other text.
      out.write(bytes.subarray(1, bytes.length - 1));
      this.release(id);
      from = j;
    }
    out.write(from === 0 ? text : text.slice(from));
  }

  /** Let go of the bytes of markers made before `mark` (their session is written). */
  forgetBefore(mark: number): void {
    for (const id of this.held.keys()) {
      if (id >= mark) break;
      this.release(id);
    }
  }

  /** Let go of every held string. */
  clear(): void {
    this.held.clear();
    this.heldBytes = 0;
  }

  /** Strings held now (for tests). */
  get size(): number {
    return this.held.size;
  }

  /** Add the start and end of each long value string of `buf` from `start` to `end` (outside any string) to `cuts`. */
  private longStrings(buf: Buffer, start: number, end: number, cuts: number[]): void {
    let i = start;
    for (;;) {
      const open = buf.indexOf(QUOTE, i);
      if (open < 0 || open >= end) return;
      const close = stringEnd(buf, open);
      if (close < 0 || close > end) return;
      i = close;
      if (close - open < this.long) continue;
      let after = close;
      while (after < end && isJsonSpace(buf[after])) after++;
      if (buf[after] !== COLON && writtenAlike(buf, open + 1, close - 1)) cuts.push(open, close);
    }
  }

  private hold(id: number, bytes: Buffer): void {
    this.held.set(id, bytes);
    this.heldBytes += bytes.buffer.byteLength;
  }

  private release(id: number): void {
    const bytes = this.held.get(id);
    if (bytes === undefined) return;
    this.held.delete(id);
    this.heldBytes -= bytes.buffer.byteLength;
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
          const text = JSON.parse(this.held.get(id)!.toString('utf8')) as string;
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
