// Reading a stream of records (the output of tx-parse, possibly filtered).
import { lineEnd, nativeBytes, decodeRecord, type RecordView } from '../record.js';
import { splitLines } from './lines.js';
import type { Context } from './run.js';

/** One line of a record stream: a record, or a line that is not one (with its bytes). */
export type RecordStreamItem = { record: RecordView; bytes: Buffer; src?: string; n: number } | { record: null; bytes: Buffer; src?: string; n: number };

/** Every line of every input, decoded as a record where it is one. */
export async function* readRecordStream(ctx: Context): AsyncGenerator<RecordStreamItem> {
  for await (const input of ctx.inputs()) {
    for await (const line of splitLines(input.stream)) {
      if (line.bytes.length === 0) continue;
      yield { record: decodeRecord(line.bytes), bytes: line.bytes, src: input.src, n: line.n };
    }
  }
}

/** Write a record's native line back with its own line end (and BOM on the line that had one). */
export async function writeNative(ctx: Context, record: RecordView): Promise<void> {
  if (record.header.bom) await ctx.out.write(Buffer.from([0xef, 0xbb, 0xbf]));
  await ctx.out.write(nativeBytes(record));
  const end = lineEnd(record.header);
  if (end) await ctx.out.write(end);
}
