// tx-redact over every real transcript: what it finds there is listed for review (these
// are false positives unless a reviewer says otherwise; docs/tx-redact.md counts them), and the
// wire holds: as many lines out as in, an unchanged line keeps its bytes, a changed line
// is JSON, a record keeps its header with 'line' last, and tx-native writes the file back
// line for line.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import t from 'tap';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import { redactTool } from '../../lib/commands/redact.js';
import { decodeRecord } from '../../lib/records/record-bytes.js';
import { corpusFiles, runTool } from '../helpers.js';

const files = [...corpusFiles('claude-code'), ...corpusFiles('codex')];
if (files.length === 0) t.plan(0, 'no corpus beside the repository (../shared/corpus): nothing to sweep');

function lines(buf: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (;;) {
    const nl = buf.indexOf(0x0a, start);
    if (nl < 0) break;
    parts.push(buf.subarray(start, nl));
    start = nl + 1;
  }
  if (start < buf.length) parts.push(buf.subarray(start));
  return parts;
}

let hits = 0;
let linesSeen = 0;
for (const file of files) {
  t.test(basename(file), async (t) => {
    const original = readFileSync(file);
    const parsed = await runTool(parseTool, [file], []);
    const redacted = await runTool(redactTool, ['--report'], [parsed.stdout]);
    t.equal(redacted.status, 0, 'exit 0');
    const before = lines(parsed.stdout);
    const after = lines(redacted.stdout);
    t.equal(after.length, before.length, 'as many records out as in');
    let changed = 0;
    for (let i = 0; i < before.length; i++) {
      if (before[i].equals(after[i])) continue;
      changed++;
      const record = decodeRecord(after[i]);
      const header = decodeRecord(before[i])!.header;
      if (!record || !record.lineBytes || record.header.n !== header.n || record.header.kind !== header.kind) t.fail(`record ${i + 1}: header or 'line' lost`);
      else JSON.parse(record.lineBytes.toString('utf8'));
    }
    const report = redacted.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    for (const r of report) t.comment(`hit for review: ${r.rule} at line ${r.n} (secret ${r.hash})`);
    hits += report.length;
    linesSeen += before.length;
    t.equal(changed > 0, report.length > 0, 'lines change exactly when something is reported');
    const native = await runTool(nativeTool, [], [redacted.stdout]);
    t.equal(lines(native.stdout).length, lines(original).length, 'tx-native writes as many lines as the file had');
    if (report.length === 0) t.ok(native.stdout.equals(original), 'nothing found: the file comes back byte for byte');
    // The raw native file, read directly, is redacted the same way.
    const direct = await runTool(redactTool, ['--report'], [original]);
    t.equal(direct.stderr.split('\n').filter((l) => l.startsWith('{')).length, report.length, 'raw session lines: the same findings');
  });
}
t.teardown(() => console.log(`# tx-redact corpus sweep: ${hits} hits in ${linesSeen} lines of ${files.length} files`));
