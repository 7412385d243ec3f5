// From one physical line to its records: JSON or not, UTF-8 or not, one object or
// several glued together. Nothing is dropped: every byte lands in some record.
import { isAscii, isUtf8 } from 'node:buffer';
import { classifyLine, kindReadsText } from './classify.js';
import { valueEnd } from '../core/json/json-scan.js';
import type { PhysicalLine } from '../core/input/lines.js';
import { isRecordValue, type Harness, type RecordHeader } from '../record.js';

/** A record made from a physical line, with the parsed native value when it has one. */
export interface ParsedRecord {
  header: RecordHeader;
  lineBytes: Buffer | null;
  value?: unknown;
  /** Why the line needs a word on stderr, if it does. */
  problem?: string;
  /** The line is a record already (tx-parse output), as isRecordValue says of its value. */
  isRecord?: boolean;
  /** `value` is a reader's own parse (parsePhysicalLine's `parse`), not the line's plain value. */
  lean?: true;
}

function splitGlued(bytes: Buffer): { bytes: Buffer; value: object }[] | null {
  const parts: { bytes: Buffer; value: object }[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = valueEnd(bytes, start);
    if (end < 0) return null;
    let piece = bytes.subarray(start, end);
    // Trailing whitespace after the last object belongs to the last piece.
    let next = end;
    while (next < bytes.length && (bytes[next] === 0x20 || bytes[next] === 0x09 || bytes[next] === 0x0d)) next++;
    if (next === bytes.length) piece = bytes.subarray(start, next);
    let value: unknown;
    try {
      value = JSON.parse(piece.toString('utf8'));
    } catch {
      return null;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    parts.push({ bytes: piece, value });
    start = next === bytes.length ? next : end;
  }
  return parts.length > 1 ? parts : null;
}

/**
 * The value of a UTF-8 line parsed from its Latin-1 text, when that gives the line's
 * record exactly; undefined when the line must be parsed as UTF-8. Latin-1 maps each
 * byte to one character, so the JSON structure, and with it validity, is the same (bytes
 * beyond ASCII can only stand inside strings, where JSON allows any character from
 * U+0080 up), and a string compared with ASCII is equal, or starts with it, under both
 * readings. What differs is text beyond ASCII itself, where the kind may hang on Unicode
 * whitespace; such lines (kindReadsText) are parsed again as UTF-8, as are lines that do
 * not parse (for the exact error message).
 */
function headerValue(bytes: Buffer): unknown {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('latin1'));
  } catch {
    return undefined;
  }
  return kindReadsText(value) ? undefined : value;
}

/**
 * Turn one physical line into one record, or several for glued objects. With
 * `headerOnly`, the caller wants the header, not the value: a line with bytes beyond
 * ASCII is then parsed from its Latin-1 text, about three times cheaper to make than its
 * UTF-8 text and as exact for this purpose (see headerValue), and `value` is left out.
 * Without `headerOnly`, `parse` may give the value a reader wants instead of the whole
 * line's (undefined: parse it whole); the record is then marked `lean`.
 * (The common path is kept short and the rare ones in functions of their own: this runs
 * once per line, and the optimizing compiler's work grows with what it inlines.)
 */
export function parsePhysicalLine(line: PhysicalLine, src: string | undefined, previous: Harness, headerOnly = false, parse?: (bytes: Buffer) => unknown): ParsedRecord[] {
  const bytes = line.bytes;
  if (!isUtf8(bytes)) return invalidLine(line, src, previous, 'not UTF-8', 'not UTF-8, kept as an invalid record (raw_base64)');
  // A reader's own parse gives an object or nothing (then the line is parsed as usual).
  let value: unknown = parse && !headerOnly ? parse(bytes) : undefined;
  const lean = value !== undefined;
  if (lean) {
    // Parsed already.
  } else if (headerOnly && !isAscii(bytes)) {
    value = headerValue(bytes);
    if (value === undefined) return parseUtf8(line, src, previous);
  } else {
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      return brokenLine(line, src, previous, err as Error);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [notObject(line, src, previous, headerOnly ? undefined : value)];
  const { harness, kind } = classifyLine(value);
  const record: ParsedRecord = { header: headerOf(line, src, harness, kind), lineBytes: bytes };
  if (!headerOnly) record.value = value;
  if (lean) record.lean = true;
  if (isRecordValue(value)) record.isRecord = true;
  return [record];
}

/** The records of a line read as UTF-8 (value included). */
function parseUtf8(line: PhysicalLine, src: string | undefined, previous: Harness): ParsedRecord[] {
  return parsePhysicalLine(line, src, previous, false);
}

/** A record's header for a line: where it came from and how it ended. */
function headerOf(line: PhysicalLine, src: string | undefined, harness: Harness, kind: RecordHeader['kind']): RecordHeader {
  const h: RecordHeader = src === undefined ? { harness, n: line.n, kind } : { harness, n: line.n, src, kind };
  if (line.bom) h.bom = true;
  if (line.crlf) h.crlf = true;
  if (!line.eol) h.eol = false;
  return h;
}

/** The record of a JSON value that is not an object. */
function notObject(line: PhysicalLine, src: string | undefined, previous: Harness, value: unknown): ParsedRecord {
  const record: ParsedRecord = { header: headerOf(line, src, previous, 'other'), lineBytes: line.bytes, problem: 'a JSON value that is not an object, kept as kind other' };
  if (value !== undefined) record.value = value;
  return record;
}

/** The invalid record keeping a line's bytes (as text, or base64 when not UTF-8). */
function invalidLine(line: PhysicalLine, src: string | undefined, previous: Harness, error: string, problem: string): ParsedRecord[] {
  const header = headerOf(line, src, previous, 'invalid');
  header.error = error;
  if (isUtf8(line.bytes)) header.raw = line.bytes.toString('utf8');
  else header.raw_base64 = line.bytes.toString('base64');
  return [{ header, lineBytes: null, problem }];
}

/** The records of a UTF-8 line that did not parse: blank, glued objects, or not JSON. */
function brokenLine(line: PhysicalLine, src: string | undefined, previous: Harness, err: Error): ParsedRecord[] {
  if (line.bytes.toString('utf8').trim() === '') return invalidLine(line, src, previous, 'blank line', 'blank line, kept as an invalid record');
  const glued = splitGlued(line.bytes);
  if (!glued) return invalidLine(line, src, previous, `not JSON: ${err.message}`, 'not JSON, kept as an invalid record');
  return glued.map((part, i) => {
    const { harness, kind } = classifyLine(part.value);
    const header = headerOf(line, src, harness, kind);
    if (i > 0) {
      header.glued = true;
      delete header.bom;
    }
    if (i < glued.length - 1) {
      delete header.crlf;
      header.eol = false;
    }
    const problem = i === 0 ? `${glued.length} JSON objects glued on one line, kept as ${glued.length} records` : undefined;
    return { header, lineBytes: part.bytes, value: part.value, problem };
  });
}
