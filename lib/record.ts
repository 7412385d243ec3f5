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

/** A parsed JSON value that is a record (has a record's header fields). */
export function isRecordValue(v: unknown): boolean {
  return isHeader(v) && !Array.isArray(v);
}

/** True when a parsed value has a record header's fields, each of its type. */
export function isHeader(h: any): h is RecordHeader {
  return h !== null && typeof h === 'object' && typeof h.harness === 'string' && typeof h.kind === 'string' && typeof h.n === 'number';
}
