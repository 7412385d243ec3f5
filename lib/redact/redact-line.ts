// Redacting one input line: a record (tx-parse's output), a Common line, a native session
// line or any other JSON value has the strings inside it redacted and is written with
// JSON.stringify only when one changed; anything else is redacted as text. A line that
// keeps all its strings keeps its bytes.
import { isUtf8 } from 'node:buffer';
import { rewriteStrings } from '../core/json/field-path.js';
import type { LineSurvey, Redaction, TextRedactor } from './redact-text.js';

/** What became of one line. */
export type LineResult =
  /** Nothing to redact: write the line's own bytes. */
  | { kind: 'same'; found: Redaction[]; notJson?: true }
  /** The redacted line, without its line end; `record` is the record's header when the line is one. */
  | { kind: 'changed'; text: string; found: Redaction[]; record: { n: number; src?: string } | null; notJson?: true }
  /** The line could not be read as asked (not UTF-8; JSON nested too deeply to write back): passed through. */
  | { kind: 'skipped'; why: string };

function isRecordValue(v: any): v is { harness: string; kind: string; n: number; src?: string; line?: unknown } {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v.harness === 'string' && typeof v.kind === 'string' && typeof v.n === 'number';
}

/** Redact one line; `text` true reads it as plain text even when it is JSON. */
export async function redactLine(bytes: Buffer, redactor: TextRedactor, text: boolean): Promise<LineResult> {
  if (!isUtf8(bytes)) return { kind: 'skipped', why: 'not UTF-8, passed through' };
  // latin1 is a cheap view for the pre-filter: the keywords and markers are ASCII.
  const survey = redactor.survey(bytes.toString('latin1'));
  if (survey === null) return { kind: 'same', found: [] };
  const raw = bytes.toString('utf8');
  return redactor.settle(() => redactOnce(raw, redactor, text, survey));
}

function redactOnce(raw: string, redactor: TextRedactor, text: boolean, survey: LineSurvey): LineResult {
  if (text) return redactPlain(raw, redactor, survey);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    const plain = redactPlain(raw, redactor, survey);
    return plain.kind === 'skipped' ? plain : { ...plain, notJson: true };
  }
  const found: Redaction[] = [];
  const result = rewriteStrings(value, [[]], (s) => redactor.redact(s, found, survey));
  if (!result.changed) return { kind: 'same', found };
  let out: string;
  try {
    if (isRecordValue(result.value)) {
      // The native line stays the last key, so later tools can cut its bytes out.
      const { line, ...header } = result.value;
      out = JSON.stringify(line === undefined ? header : { ...header, line });
      return { kind: 'changed', text: out, found, record: { n: header.n, src: header.src } };
    }
    out = JSON.stringify(result.value);
  } catch (err) {
    // JSON.stringify recurses: a value nested some 10^5 deep cannot be written back.
    if (err instanceof RangeError) return { kind: 'skipped', why: 'nested too deeply to redact, passed through' };
    throw err;
  }
  return { kind: 'changed', text: out, found, record: null };
}

function redactPlain(raw: string, redactor: TextRedactor, survey: LineSurvey): LineResult {
  const found: Redaction[] = [];
  const out = redactor.redact(raw, found, survey);
  return out === raw ? { kind: 'same', found } : { kind: 'changed', text: out, found, record: null };
}
