// A note about a whole input (native session lines where records were expected) is
// said for the first input it is about; the other inputs like it are counted in one
// line at the end, on one thread and on workers alike, so a store of 10,000 files
// gives two lines of stderr, not 10,000.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { OnceNotes } from '../../lib/core/once-notes.js';
import { repo } from '../helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'tx-once-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
const line = (id: string, text: string) => JSON.stringify({ type: 'user', sessionId: id, uuid: `${id}-u`, timestamp: '2025-01-01T00:00:00Z', message: { role: 'user', content: text } }) + '\n';
const natives = ['a', 'b', 'c'].map((id) => {
  const f = join(scratch, `${id}.jsonl`);
  writeFileSync(f, line(id, `prompt of ${id}`));
  return f;
});
const bin = (name: string, args: string[]) => spawnSync(process.execPath, [repo('build', 'bin', `${name}.js`), ...args], { encoding: 'utf8', input: '' });
const records = join(scratch, 'r.records');
writeFileSync(records, bin('tx-parse', [natives[0]]).stdout);

const READ = 'native session lines, not records: read as tx-parse reads them';

t.test('three native files: the first is named, the other two counted at the end, with or without workers', async (t) => {
  for (const [name, extra] of [['tx-stats', []], ['tx-filter', ['--human-prompts']], ['tx-common', []]] as [string, string[]][]) {
    for (const jobs of ['1', '2']) {
      const r = bin(name, [...extra, '--jobs', jobs, ...natives]);
      t.equal(r.status, 0, `${name} --jobs ${jobs}: exit 0`);
      t.equal(r.stderr, `${name}: ${natives[0]}: ${READ}\n${name}: 2 more inputs of native session lines, read as tx-parse reads them\n`, `${name} --jobs ${jobs}: two lines of notes`);
    }
  }
  const n = bin('tx-native', natives);
  t.equal(n.stderr, `tx-native: ${natives[0]}: native session lines, not records: written back unchanged\ntx-native: 2 more inputs of native session lines, written back unchanged\n`, 'tx-native: the same');
});

t.test('records first, then native files: the note names the first native file', async (t) => {
  for (const jobs of ['1', '2']) {
    const r = bin('tx-stats', ['--jobs', jobs, records, natives[1], natives[2]]);
    t.equal(r.stderr, `tx-stats: ${natives[1]}: ${READ}\ntx-stats: 1 more input of native session lines, read as tx-parse reads them\n`, `--jobs ${jobs}`);
  }
});

t.test('one native input: its note alone, with no count', async (t) => {
  const r = bin('tx-common', [natives[0]]);
  t.equal(r.stderr, `tx-common: ${natives[0]}: ${READ}\n`);
});

t.test('OnceNotes keeps each summary apart and says only counts above zero', async (t) => {
  const said: string[] = [];
  const notes = new OnceNotes((m) => said.push(m));
  notes.note('a: first kind', 'of the first kind');
  notes.note('b: second kind', 'of the second kind');
  notes.note('c: first kind', 'of the first kind');
  notes.note('d: first kind', 'of the first kind');
  notes.note('e: third kind', 'of the third kind');
  notes.note('f: third kind', 'of the third kind');
  notes.end();
  t.same(said, ['a: first kind', 'b: second kind', 'e: third kind', '2 more inputs of the first kind', '1 more input of the third kind']);
});
