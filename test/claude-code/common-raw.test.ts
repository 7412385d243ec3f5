// tx-common carries the long strings of tool results as bytes (core/raw-strings.ts): on
// every corpus file, under every option, its output is the same as when every string is
// decoded and encoded again, and the same when every string of a tool result or prompt
// line is carried, however short.
import t from 'tap';
import { CommonWriter } from '../../lib/commands/common.js';
import { parseTool } from '../../lib/commands/parse.js';
import { RawStrings } from '../../lib/core/raw-strings.js';
import { decodeRecord } from '../../lib/record.js';
import { corpusFiles, runTool } from '../helpers.js';

/** tx-parse's records of a file, one buffer each. */
async function recordLines(file: string): Promise<Buffer[]> {
  const r = await runTool(parseTool, [file], []);
  const text = r.stdout;
  const lines: Buffer[] = [];
  for (let at = 0, nl = text.indexOf(10); nl >= 0; at = nl + 1, nl = text.indexOf(10, at)) lines.push(Buffer.from(text.subarray(at, nl)));
  return lines;
}

/** tx-common's output for the records, with `raw` (null: every string decoded); `heldMost`: the most strings held at once. */
async function common(records: Buffer[], args: Record<string, boolean>, raw: RawStrings | null): Promise<{ text: string; heldMost: number }> {
  const out: Buffer[] = [];
  const ctx = { args, out: { write: (d: string | Buffer) => void out.push(Buffer.from(d)) }, warn: () => {}, note: () => {} } as any;
  const writer = new CommonWriter(ctx, ctx.out, raw);
  let heldMost = 0;
  for (const [i, bytes] of records.entries()) {
    const finishing = writer.record(decodeRecord(bytes), undefined, i + 1);
    if (finishing) await finishing;
    heldMost = Math.max(heldMost, raw?.size ?? 0);
  }
  await writer.end();
  writer.dispose();
  return { text: Buffer.concat(out).toString('utf8'), heldMost };
}

const files = corpusFiles('claude-code');
t.test('the corpus converts alike with long strings carried, with every string carried, and with none', { skip: files.length === 0 ? 'no corpus' : false }, async (t) => {
  let carriedLong = 0;
  let carriedAll = 0;
  for (const file of files) {
    const records = await recordLines(file);
    const name = file.slice(file.lastIndexOf('/') + 1);
    for (const args of [{}, { active: true }, { sidechains: true }] as Record<string, boolean>[]) {
      const want = await common(records, args, null);
      const long = await common(records, args, new RawStrings());
      const all = new RawStrings(1);
      const every = await common(records, args, all);
      t.equal(long.text, want.text, `${name} ${JSON.stringify(args)}: long strings carried`);
      t.equal(every.text, want.text, `${name} ${JSON.stringify(args)}: every string carried`);
      t.equal(all.size, 0, `${name}: nothing held after the end`);
      carriedLong += long.heldMost;
      carriedAll += every.heldMost;
    }
  }
  t.ok(carriedLong > 0, `the corpus has long strings carried (${carriedLong})`);
  t.ok(carriedAll > carriedLong, `and more when every string is (${carriedAll})`);
});
