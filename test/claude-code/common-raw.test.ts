// tx-common carries the long strings of tool results as bytes (core/json/raw-strings.ts): on
// every corpus file, under every option, its output is the same as when every string is
// decoded and encoded again, and the same when every string of a tool result or prompt
// line is carried, however short.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { CommonWriter } from '../../lib/commands/common.js';
import { parseTool } from '../../lib/commands/parse.js';
import { physicalLine } from '../../lib/core/input/lines.js';
import { RawStrings } from '../../lib/core/json/raw-strings.js';
import { parsePhysicalLine } from '../../lib/records/parse-line.js';
import { type Harness } from '../../lib/record.js';
import { decodeRecord, recordView } from '../../lib/records/record-bytes.js';
import { corpusFiles, runTool } from '../helpers.js';

/** tx-parse's records of a file, one buffer each. */
async function recordLines(file: string): Promise<Buffer[]> {
  const r = await runTool(parseTool, [file], []);
  const text = r.stdout;
  const lines: Buffer[] = [];
  for (let at = 0, nl = text.indexOf(10); nl >= 0; at = nl + 1, nl = text.indexOf(10, at)) lines.push(Buffer.from(text.subarray(at, nl)));
  return lines;
}

/**
 * tx-common's output for the records, or for the native file (as readRecordBatches reads
 * it), with `raw` (null: every string decoded); `heldMost`: the most strings held at once.
 */
async function common(input: Buffer[] | string, args: Record<string, boolean>, raw: RawStrings | null): Promise<{ text: string; heldMost: number }> {
  const out: Buffer[] = [];
  const ctx = { args, out: { write: (d: string | Buffer) => void out.push(Buffer.from(d)) }, warn: () => {}, note: () => {} } as any;
  const writer = await CommonWriter.open(ctx, ctx.out, raw);
  let heldMost = 0;
  const take = async (finishing: Promise<void> | undefined) => {
    if (finishing) await finishing;
    heldMost = Math.max(heldMost, raw?.size ?? 0);
  };
  if (typeof input === 'string') {
    const lines = readFileSync(input).toString('latin1').split('\n');
    let previous: Harness = 'claude-code';
    for (const [i, text] of lines.entries()) {
      if (i === lines.length - 1 && text === '') break;
      const line = physicalLine(Buffer.from(text, 'latin1'), i + 1, i < lines.length - 1);
      for (const p of parsePhysicalLine(line, input, previous, false, (bytes) => writer.nativeValue(bytes))) {
        if (p.header.kind !== 'invalid') previous = p.header.harness;
        await take(writer.record(recordView(p.header, p.lineBytes, p.value, p.lean), input, i + 1));
      }
    }
  } else {
    for (const [i, bytes] of input.entries()) await take(writer.record(decodeRecord(bytes), undefined, i + 1));
  }
  await writer.end();
  writer.dispose();
  return { text: Buffer.concat(out).toString('utf8'), heldMost };
}

const files = corpusFiles('claude-code');
t.test('the corpus converts alike with long strings carried, with every string carried, and with none: from records and from native files', { skip: files.length === 0 ? 'no corpus' : false }, async (t) => {
  for (const from of ['records', 'native lines'] as const) {
    let carriedLong = 0;
    let carriedAll = 0;
    for (const file of files) {
      const input = from === 'records' ? await recordLines(file) : file;
      const name = `${from}, ${file.slice(file.lastIndexOf('/') + 1)}`;
      for (const args of [{}, { active: true }, { sidechains: true }] as Record<string, boolean>[]) {
        const want = await common(input, args, null);
        const long = await common(input, args, new RawStrings());
        const all = new RawStrings(1);
        const every = await common(input, args, all);
        t.equal(long.text, want.text, `${name} ${JSON.stringify(args)}: long strings carried`);
        t.equal(every.text, want.text, `${name} ${JSON.stringify(args)}: every string carried`);
        t.equal(all.size, 0, `${name}: nothing held after the end`);
        carriedLong += long.heldMost;
        carriedAll += every.heldMost;
      }
    }
    t.ok(carriedLong > 0, `${from}: the corpus has long strings carried (${carriedLong})`);
    t.ok(carriedAll > carriedLong, `${from}: and more when every string is (${carriedAll})`);
  }
});
