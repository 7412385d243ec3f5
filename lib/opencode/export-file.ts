// An `opencode export` file as records and back: what tx-parse and tx-native would do
// with one once the registry lets a codec read a document rather than lines. A record's
// `n` is the physical line its unit starts on, and `line` the unit as compact JSON
// (the file holds it laid out over many lines; tx-native lays it out again, and for a
// document the client wrote that gives back the file byte for byte).
import { statSync } from 'node:fs';
import { fileLines } from '../core/input/file-lines.js';
import { classifyOpencodeLine } from './classify.js';
import { ExportReader, ExportWriter, type ExportUnit } from './export-document.js';

/** The record of one unit of an OpenCode session (the shape of lib/record.ts with harness "opencode"). */
export interface OpencodeRecord {
  harness: 'opencode';
  n: number;
  src?: string;
  kind: string;
  line: object;
}

/** The units of an export document held as text, and what was wrong with its layout. */
export function exportTextUnits(text: string): { units: ExportUnit[]; problem: string | null } {
  const reader = new ExportReader();
  const units: ExportUnit[] = [];
  const lines = text.split('\n');
  // A final newline ends the last line; it does not begin another.
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, i) => units.push(...reader.push(line, i + 1)));
  units.push(...reader.end());
  return { units, problem: reader.problem };
}

/** The units of an export file, read one physical line at a time; `onProblem` hears of a document out of the client's layout. */
export function* exportFileUnits(file: string, onProblem?: (problem: string) => void): Generator<ExportUnit> {
  const reader = new ExportReader();
  let n = 0;
  for (const bytes of fileLines(file, statSync(file).size)) yield* reader.push(bytes.toString('utf8').replace(/\r$/, ''), ++n);
  yield* reader.end();
  if (reader.problem !== null) onProblem?.(reader.problem);
}

/** The record of one unit. */
export function recordOf(unit: ExportUnit, src?: string): OpencodeRecord {
  const r: OpencodeRecord = src === undefined ? { harness: 'opencode', n: unit.n, kind: classifyOpencodeLine(unit.value), line: unit.value } : { harness: 'opencode', n: unit.n, src, kind: classifyOpencodeLine(unit.value), line: unit.value };
  return r;
}

/** The export document of a session's lines (its info first), in the client's layout, as pieces of text. */
export function* exportDocumentOf(lines: Iterable<object>): Generator<string> {
  const writer = new ExportWriter();
  let first = true;
  for (const line of lines) {
    yield first ? writer.info(line) : writer.message(line);
    first = false;
  }
  if (first) throw new Error('no session info to write');
  yield writer.end();
}
