// tx-parse: native session lines in, one record per line out.
// The loop is synchronous over each chunk's lines and appends records to one output
// buffer; it waits only once per chunk (for the output to drain).
import { isLongPiece, lineBatches, LONG_LINE } from '../core/lines.js';
import { LongLineRecord, pushRecord } from '../core/records.js';
import type { Context, Tool } from '../core/run.js';
import { currentSessionForTerminal } from './current-session.js';
import { parsePhysicalLine } from '../parse-line.js';
import { isRecordValue, type Harness } from '../record.js';

const HELP = `usage: tx-parse [--strict] [FILE...]

Split and classify session lines into records, one per physical line:
  {"harness":…,"n":…,"src":…,"kind":…,"line":<the native line, verbatim>}
Reads the files named (- is stdin), or stdin; with neither and stdin a
terminal, the current session of the working directory (tx-ls --current).
Lines that are not JSON, not UTF-8, blank, or glued together are kept as
records and reported on stderr. Lines that are records already (tx-parse
output) are passed through unchanged, after one note.

  --strict     exit 1 if any line had to be kept as invalid or glued
  --jobs N     with several files, read N at a time in worker threads
               (default: the number of cores; output stays in file order)
  -h, --help   this text        --version   the version
See tx-parse(1).`;

async function main(ctx: Context): Promise<void> {
  // No file and a terminal on stdin: nothing would ever arrive, so read the current session.
  if (ctx.files.length === 0 && ctx.proc.stdin.isTTY) ctx.files.push(currentSessionForTerminal(ctx));
  const out = ctx.out;
  for await (const input of ctx.inputs()) {
    const src = input.src;
    let previous: Harness = 'claude-code';
    let long: LongLineRecord | null = null;
    let noted = false;
    for await (const batch of lineBatches(input.stream)) {
      for (const line of batch) {
        if (isLongPiece(line)) {
          if (line.first) {
            ctx.warn({ src, n: line.n }, `line longer than ${LONG_LINE} bytes, kept as an invalid record (raw_base64) without parsing`);
            long = new LongLineRecord(out, previous, line.n, src);
          }
          long!.piece(line.bytes);
          if (line.last) long!.end(line.eol);
          continue;
        }
        for (const record of parsePhysicalLine(line, src, previous)) {
          if (record.problem) ctx.warn({ src, n: line.n }, record.problem);
          // A record is not wrapped again: it goes through as it came.
          if (isRecordValue(record.value)) {
            if (!noted) ctx.note(`${src ?? 'stdin'}: these are records already (tx-parse output): passed through unchanged`);
            noted = true;
            out.push(record.lineBytes!);
            out.pushText(record.header.eol === false ? '' : record.header.crlf ? '\r\n' : '\n');
            continue;
          }
          if (record.header.kind !== 'invalid') previous = record.header.harness;
          pushRecord(out, record.header, record.lineBytes);
        }
      }
      await out.flushIfFull();
    }
  }
}

/** The tx-parse tool. */
export const parseTool: Tool = { name: 'tx-parse', help: HELP, options: {}, main, parallel: { url: import.meta.url } };
