// Wire contract 1: the record. tx-parse writes one per native line; every other tool
// reads them. The native line rides untouched as the last key, `line`, so a tool that
// does not change it copies its bytes and never re-serialises it.
/** The harness a line was recognised as: a name of the registry (lib/codecs.ts), such as `claude-code` or `codex`. */
export type Harness = string;

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
  /**
   * A piece of a session kept as one JSON document (tx-parse(1), DOCUMENTS): its head
   * (the members before its list), an item of the list, or its tail (the members after
   * it). `line` is the piece as a line of its harness; tx-native writes the pieces back
   * as the document, in the layout its head names.
   */
  doc?: 'head' | 'item' | 'tail';
  /** On a document's head: the key of its list, the indent and the line end it was written with. */
  layout?: { key: string; indent: string; eol: string };
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
  /**
   * The native line parsed (cached); undefined for invalid records. With `unread`, a
   * reader that never looks at that top-level key's value may get it as null, its bytes
   * skipped rather than parsed (lib/core/json/parse-without.ts).
   */
  value(unread?: string | null): any;
  /** Where the native line's bytes lie while it is still unparsed (unverified, as CutRecord cuts them); else null. */
  unparsed(): { buf: Buffer; start: number; end: number } | null;
}

/** The line end a record's native line had: CR LF, LF, or nothing. */
export function lineEnd(header: RecordHeader): string {
  if (header.eol === false) return '';
  return header.crlf ? '\r\n' : '\n';
}

/** A parsed JSON value that is a record (has a record's header fields, each of its type). */
export function isRecordValue(v: unknown): boolean {
  return isHeader(v) && !Array.isArray(v);
}

/** True when a parsed value has a record header's fields, each of its type. */
export function isHeader(h: any): h is RecordHeader {
  return h !== null && typeof h === 'object' && typeof h.harness === 'string' && typeof h.kind === 'string' && typeof h.n === 'number' && headerProblem(h) === null;
}

/**
 * A parsed object that means to be a record (it has two of `harness`, `kind` and `n`, which
 * no native line of a harness has together), whether or not its fields are right.
 */
export function looksLikeRecord(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  return (Object.hasOwn(v, 'harness') ? 1 : 0) + (Object.hasOwn(v, 'kind') ? 1 : 0) + (Object.hasOwn(v, 'n') ? 1 : 0) >= 2;
}

/** Stands for a path with a NUL in it, in a message. */
const NUL_PATH = Symbol('a string with a NUL byte');
const STRINGS = ['error', 'raw', 'raw_base64'] as const;
const FLAGS = ['bom', 'crlf', 'eol', 'glued'] as const;

/**
 * Why an object is not a record's header (`"src" is a number, not a string`), or null when
 * every field is of its type: a record is data, and a field of another type must not
 * reach a tool that takes `src` for a path or `n` for a line number.
 */
export function headerProblem(h: any): string | null {
  if (h === null || typeof h !== 'object' || Array.isArray(h)) return 'not a JSON object';
  if (typeof h.harness !== 'string' || h.harness === '') return fieldProblem('harness', h.harness, 'a harness name');
  if (typeof h.kind !== 'string' || h.kind === '') return fieldProblem('kind', h.kind, 'a kind');
  if (!Number.isSafeInteger(h.n) || h.n < 1) return fieldProblem('n', h.n, 'a line number (a whole number from 1)');
  // A path: node:fs refuses one with a NUL in it, and an empty one names nothing.
  if (h.src !== undefined && (typeof h.src !== 'string' || h.src === '' || h.src.includes('\0'))) return fieldProblem('src', typeof h.src === 'string' && h.src !== '' ? NUL_PATH : h.src, 'a file path');
  for (const key of STRINGS) if (h[key] !== undefined && typeof h[key] !== 'string') return fieldProblem(key, h[key], 'a string');
  for (const key of FLAGS) if (h[key] !== undefined && typeof h[key] !== 'boolean') return fieldProblem(key, h[key], 'true or false');
  return null;
}

function fieldProblem(key: string, value: unknown, wanted: string): string {
  return `"${key}" is ${value === undefined ? 'missing' : describe(value)}, not ${wanted}`;
}

/** A value named by its JSON type, with a short number or string shown. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return `${value}`;
  if (value === NUL_PATH) return 'a string with a NUL byte';
  if (typeof value === 'string') return value.length <= 40 && !/[\u0000-\u001f]/.test(value) ? JSON.stringify(value) : 'a string';
  return typeof value;
}
