// A native session file a tool found itself (a subagent transcript), read as tx-parse
// reads it: a regular file only, each line made its records, and a line longer than
// LONG_LINE its invalid record's header alone, its bytes never held whole.
import type { Readable } from 'node:stream';
import { isLongPiece, lineBatches, LONG_LINE } from '../core/input/lines.js';
import { regularReadStream } from '../core/input/regular-file.js';
import type { Harness } from '../record.js';
import { parsePhysicalLine, type ParsedRecord } from './parse-line.js';

/** A record of a native file, with the number of the line it came from. */
export interface FileRecord {
  record: ParsedRecord;
  n: number;
}

/** The records of a native file, lines read as `harness` unless they say otherwise (throws NotRegularFile, or the open's own error, at once). */
export function nativeFileRecords(file: string, harness: Harness): AsyncGenerator<FileRecord> {
  return records(regularReadStream(file), file, harness);
}

async function* records(stream: Readable, file: string, harness: Harness): AsyncGenerator<FileRecord> {
  for await (const batch of lineBatches(stream)) {
    for (const line of batch) {
      if (!isLongPiece(line)) {
        for (const record of parsePhysicalLine(line, file, harness)) yield { record, n: line.n };
        continue;
      }
      if (!line.first) continue;
      const header = { harness, n: line.n, src: file, kind: 'invalid' as const, error: `line longer than ${LONG_LINE} bytes, not parsed` };
      yield { record: { header, lineBytes: null, problem: `line longer than ${LONG_LINE} bytes, not parsed` }, n: line.n };
    }
  }
}
