// tx-native: records back to the native lines they came from, byte for byte.
import { readRecordStream, writeNative } from '../core/records.js';
import type { Context, Tool } from '../core/run.js';

const HELP = `usage: tx-native [--strict] [FILE...]

Write records (from tx-parse, possibly filtered) back as native session lines:
each line exactly as it was, with its own line end, BOM, glue and final-newline
state. A line whose record was changed by a tool is written as that tool left it.

  --strict     exit 1 if any input line was not a record
  -h, --help   this text        --version   the version
See tx-native(1).`;

async function main(ctx: Context): Promise<void> {
  for await (const item of readRecordStream(ctx)) {
    if (item.record) {
      await writeNative(ctx, item.record);
      continue;
    }
    ctx.warn(item, 'not a record, skipped');
  }
}

/** The tx-native tool. */
export const nativeTool: Tool = { name: 'tx-native', help: HELP, options: {}, main };
