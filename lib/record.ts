// Wire contract 1: the record. tx-parse writes one per native line; every other tool
// reads them. The native line rides untouched as the last key, `line`, so a tool that
// does not change it copies its bytes and never re-serialises it.
import { findTopLevelKey, isJsonSpace, valueEnd } from './core/json-scan.js';

/** The harness a line was recognised as. */
export type Harness = 'claude-code' | 'codex';

/** Every kind a line can be classified as (tx-parse(1) documents each). */
export const KINDS = [
  'prompt',
  'queued-prompt',
  'input',
  'injected',
  'command',
  'command-output',
  'tool-result',
  'assistant',
  'summary',
  'title',
  'compact',
  'hook',
  'system',
  'attachment',
  'progress',
  'meta',
  'other',
  'invalid',
] as const;

/** A line's classification. */
export type Kind = (typeof KINDS)[number];

/** The header of a record: everything but the native line. */
export interface RecordHeader {
  harness: Harness;
  /** 1-based physical line number in its source. */
  n: number;
  /** The file the line came from; absent for stdin. */
  src?: string;
  kind: Kind;
  /** Line 1 of the source began with a UTF-8 BOM. */
  bom?: true;
  /** The line ended in CR LF. */
  crlf?: true;
  /** No newline follows this line: the last line of a file without one, or an object glued to the next. */
  eol?: false;
  /** This object followed the previous record's object on the same physical line. */
  glued?: true;
  /** Invalid records: why the line is not a JSON object. */
  error?: string;
  /** Invalid records: the line as text (UTF-8 lines). */
  raw?: string;
  /** Invalid records: the line's bytes in base64 (lines that are not UTF-8). */
  raw_base64?: string;
}

/** A record as a tool sees it: the header, the native line's bytes, and its value on demand. */
export interface RecordView {
  header: RecordHeader;
  /** The native line's bytes (verbatim when the record was cut from tx-parse output). */
  lineBytes: Buffer | null;
  /** The native line parsed (cached); undefined for invalid records. */
  value(): any;
}

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

/** The line end a record's native line had: CR LF, LF, or nothing. */
export function lineEnd(header: RecordHeader): string {
  if (header.eol === false) return '';
  return header.crlf ? '\r\n' : '\n';
}

function lazyView(header: RecordHeader, lineBytes: Buffer | null, parsed?: unknown): RecordView {
  let cache: unknown = parsed;
  let done = parsed !== undefined;
  return {
    header,
    lineBytes,
    value() {
      if (!done) {
        cache = lineBytes ? JSON.parse(lineBytes.toString('utf8')) : undefined;
        done = true;
      }
      return cache;
    },
  };
}

/** Make a view of a record built in memory (the native value already parsed). */
export function recordView(header: RecordHeader, lineBytes: Buffer | null, value?: unknown): RecordView {
  return lazyView(header, lineBytes, value);
}

/** One input line read as a record if it is one, else as whatever JSON value it holds. */
export type DecodedLine = { record: RecordView } | { record: null; value: unknown } | { record: null; error: string };

/** Read a line that may be a record or another JSON line (a Common line), parsing it at most once. */
export function decodeLine(buf: Buffer): DecodedLine {
  const cut = cutRecord(buf);
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
export function decodeRecord(buf: Buffer): RecordView | null {
  const decoded = decodeLine(buf);
  return decoded.record;
}

/** The record whose `line` is its last key, cut out of the bytes without parsing the line; else null. */
function cutRecord(buf: Buffer): RecordView | null {
  const key = findTopLevelKey(buf, 'line');
  if (!key) return null;
  let close = buf.length - 1;
  while (close > 0 && isJsonSpace(buf[close])) close--;
  const end = valueEnd(buf, key.value, close);
  let tail = end;
  while (tail >= 0 && tail < close && isJsonSpace(buf[tail])) tail++;
  if (end < 0 || tail !== close || buf[close] !== 0x7d) return null;
  let header: unknown;
  try {
    header = JSON.parse(key.before === 0 ? '{}' : buf.toString('utf8', 0, key.before) + '}');
  } catch {
    return null;
  }
  return isHeader(header) ? lazyView(header, buf.subarray(key.value, close)) : null;
}

/** A record from a parsed value (a record that was reformatted or reordered), or null. */
function recordOfValue(whole: any): RecordView | null {
  if (!whole || typeof whole !== 'object' || Array.isArray(whole)) return null;
  const { line, ...header } = whole;
  if (!isHeader(header)) return null;
  if (line === undefined) return lazyView(header, null);
  return lazyView(header, Buffer.from(JSON.stringify(line)), line);
}

function isHeader(h: any): h is RecordHeader {
  return h !== null && typeof h === 'object' && typeof h.harness === 'string' && typeof h.kind === 'string' && typeof h.n === 'number';
}
