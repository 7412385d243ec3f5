// Records as bytes: a record written with its native line cut in as the last key, and
// read back with the line cut out unparsed, parsed only when a tool asks for its value.
import { findTopLevelKey, isJsonSpace, valueEnd } from '../core/json/json-scan.js';
import { stringifyJson } from '../core/json/json-text.js';
import { parseWithout } from '../core/json/parse-without.js';
import { isHeader, type RecordHeader, type RecordView } from '../record.js';

const LINE_KEY = Buffer.from(',"line":');
const CLOSE = Buffer.from('}\n');

/** Serialise a record: the header's JSON, then `"line":` and the native bytes, then `}` and a newline. */
export function encodeRecord(header: RecordHeader, lineBytes: Buffer | null): Buffer[] {
  const head = JSON.stringify(header);
  if (lineBytes === null) return [Buffer.from(head + '\n')];
  return [Buffer.from(head.slice(0, -1)), LINE_KEY, lineBytes, CLOSE];
}

/** The native bytes a record stands for, without its line end. */
export function nativeBytes(view: RecordView): Buffer {
  if (view.lineBytes) return view.lineBytes;
  const h = view.header;
  if (h.raw_base64 !== undefined) return Buffer.from(h.raw_base64, 'base64');
  return Buffer.from(h.raw ?? '');
}

function lazyView(header: RecordHeader, lineBytes: Buffer | null, parsed?: unknown, leanParsed = false): RecordView {
  let cache: unknown = parsed;
  let done = parsed !== undefined;
  /** The cache lacks a skipped value (value(unread)). */
  let lean = leanParsed;
  return {
    header,
    lineBytes,
    value(unread?: string | null) {
      if (!done || (lean && !unread)) {
        const without = unread && lineBytes ? parseWithout(lineBytes, 0, lineBytes.length, unread) : undefined;
        lean = without !== undefined;
        cache = lean ? without : lineBytes ? JSON.parse(lineBytes.toString('utf8')) : undefined;
        done = true;
      }
      return cache;
    },
    unparsed() {
      return done || !lineBytes ? null : { buf: lineBytes, start: 0, end: lineBytes.length };
    },
  };
}

/**
 * A record cut from its bytes on the assumption that `line` is its last key, as
 * tx-parse writes it. The assumption is checked only when it matters: parsing the
 * cut bytes succeeds exactly when they are one whole JSON value (a key after `line`
 * would leave `,"key":…` behind, which JSON.parse refuses), and `lineBytes` scans
 * for the value's end once. When it fails, the whole record is parsed instead.
 */
class CutRecord implements RecordView {
  private parsed: unknown;
  /** `lean`: parsed from the cut bytes with one key's value skipped (value(unread)). */
  private state: 'unread' | 'lean' | 'cut' | 'whole' = 'unread';
  private verified: Buffer | null | undefined;

  constructor(
    readonly header: RecordHeader,
    private readonly record: Buffer,
    private readonly start: number,
    private readonly close: number,
    verified: boolean,
  ) {
    if (verified) this.verified = record.subarray(start, close);
  }

  get lineBytes(): Buffer | null {
    if (this.verified === undefined) {
      if (this.state === 'cut' || ((this.state === 'unread' || this.state === 'lean') && lastValue(this.record, this.start, this.close))) {
        this.verified = this.record.subarray(this.start, this.close);
      } else {
        const line = this.whole();
        this.verified = line === undefined ? null : Buffer.from(JSON.stringify(line));
      }
    }
    return this.verified;
  }

  value(unread?: string | null): any {
    if (this.state === 'unread' || (this.state === 'lean' && !unread)) {
      try {
        const lean = unread ? parseWithout(this.record, this.start, this.close, unread) : undefined;
        if (lean !== undefined) {
          this.parsed = lean;
          this.state = 'lean';
        } else {
          this.parsed = JSON.parse(this.record.toString('utf8', this.start, this.close));
          this.state = 'cut';
        }
      } catch (err) {
        this.parsed = this.whole(err as Error);
      }
    }
    return this.parsed;
  }

  unparsed(): { buf: Buffer; start: number; end: number } | null {
    return this.state === 'unread' ? { buf: this.record, start: this.start, end: this.close } : null;
  }

  /** The record parsed whole: `line` was not the last key, or is not JSON. */
  private whole(cutError?: Error): unknown {
    if (this.state === 'whole') return this.parsed;
    let value: any;
    try {
      value = JSON.parse(this.record.toString('utf8'));
    } catch {
      throw cutError ?? new Error("the record's line is not JSON");
    }
    this.state = 'whole';
    this.parsed = value && typeof value === 'object' ? value.line : undefined;
    return this.parsed;
  }
}

/** The value at `start` ends exactly at `close` (only whitespace between). */
function lastValue(buf: Buffer, start: number, close: number): boolean {
  let tail = valueEnd(buf, start, close);
  if (tail < 0) return false;
  while (tail < close && isJsonSpace(buf[tail])) tail++;
  return tail === close;
}

/** Make a view of a record built in memory (the native value already parsed; `lean`: a reader's own parse, so value() without a key parses the line whole). */
export function recordView(header: RecordHeader, lineBytes: Buffer | null, value?: unknown, lean = false): RecordView {
  return lazyView(header, lineBytes, value, lean);
}

/** One input line read as a record if it is one, else as whatever JSON value it holds. */
export type DecodedLine = { record: RecordView } | { record: null; value: unknown } | { record: null; error: string };

/**
 * Read a line that may be a record or another JSON line (a Common line), parsing it at
 * most once. With `verify`, a record's line is checked to be its last key now (a scan of
 * its bytes); without, the check waits until the line is parsed or its bytes are asked for.
 */
export function decodeLine(buf: Buffer, verify = false): DecodedLine {
  const cut = cutRecord(buf, verify);
  if (cut) return { record: cut };
  let value: unknown;
  try {
    value = JSON.parse(buf.toString('utf8'));
  } catch (err) {
    return { record: null, error: (err as Error).message };
  }
  const record = recordOfValue(value);
  return record ? { record } : { record: null, value };
}

/**
 * Read one record line. The header is parsed on its own; the native line is cut out
 * of the record's bytes when it is the last key, else re-serialised from a full parse.
 * Returns null when the bytes are not a record.
 */
export function decodeRecord(buf: Buffer, verify = false): RecordView | null {
  const decoded = decodeLine(buf, verify);
  return decoded.record;
}

/** The record whose `line` is its last key, cut out of the bytes without parsing the line; else null. */
function cutRecord(buf: Buffer, verify: boolean): RecordView | null {
  // Records begin with their header; anything else is not worth a key scan.
  let i = 0;
  while (i < buf.length && isJsonSpace(buf[i])) i++;
  if (buf[i] !== 0x7b) return null;
  const key = findTopLevelKey(buf, 'line');
  if (!key) return null;
  let close = buf.length - 1;
  while (close > 0 && isJsonSpace(buf[close])) close--;
  if (buf[close] !== 0x7d || close <= key.value) return null;
  if (verify && !lastValue(buf, key.value, close)) return null;
  let header: unknown;
  try {
    header = JSON.parse(key.before === 0 ? '{}' : buf.toString('utf8', 0, key.before) + '}');
  } catch {
    return null;
  }
  return isHeader(header) ? new CutRecord(header, buf, key.value, close, verify) : null;
}

/** A record from a parsed value (a record that was reformatted or reordered), or null. */
function recordOfValue(whole: any): RecordView | null {
  if (!whole || typeof whole !== 'object' || Array.isArray(whole)) return null;
  const { line, ...header } = whole;
  if (!isHeader(header)) return null;
  if (line === undefined) return lazyView(header, null);
  return lazyView(header, Buffer.from(stringifyJson(line)), line);
}

