// The export document as lines and back: every recorded document comes back byte for
// byte; lines come out as the document is read (one message held at a time); a document
// out of the client's layout is read all the same, said so, and written back in the
// client's layout (the same JSON value).
import { readFileSync } from 'node:fs';
import t from 'tap';
import { ExportReader, layOut } from '../../lib/opencode/export-document.js';
import { exportDocumentOf, exportFileUnits, exportTextUnits, recordOf } from '../../lib/opencode/export-file.js';
import { assistant, recordedExports, sessionInfo, user } from './build.js';

const docOf = (lines: object[]) => [...exportDocumentOf(lines)].join('');

t.test('every recorded export document is read in layout and written back byte for byte', (t) => {
  for (const { scenario, file } of recordedExports()) {
    const text = readFileSync(file, 'utf8');
    const { units, problem } = exportTextUnits(text);
    t.equal(problem, null, `${scenario}: in the client's layout`);
    t.equal(docOf(units.map((u) => u.value)), text, `${scenario}: the same bytes`);
    const fromFile = [...exportFileUnits(file)];
    t.same(fromFile, units, `${scenario}: read from the file line by line, the same units`);
  }
  t.end();
});

t.test("the writer's layout is JSON.stringify(document, null, 2) and a newline, with no messages too", (t) => {
  const info = sessionInfo();
  const messages = [user([{ type: 'text', text: 'line one\nline two "quoted"' }]), assistant([{ type: 'step-start' }, { type: 'text', text: '' }])];
  t.equal(docOf([info, ...messages]), JSON.stringify({ info, messages }, null, 2) + '\n', 'with messages');
  t.equal(docOf([info]), JSON.stringify({ info, messages: [] }, null, 2) + '\n', 'without');
  t.equal(layOut({ a: [1, { b: [] }] }, 2), JSON.stringify({ a: [1, { b: [] }] }, null, 2).replaceAll('\n', '\n    '), 'nested two levels');
  t.end();
});

t.test('a message comes out as soon as its closing line is read, before the document ends', (t) => {
  const messages = Array.from({ length: 200 }, (_, i) => user([{ type: 'text', text: `prompt ${i}` }]));
  const lines = docOf([sessionInfo(), ...messages]).split('\n');
  const reader = new ExportReader();
  let seen = 0;
  let firstAt = -1;
  lines.forEach((line, i) => {
    const units = reader.push(line, i + 1);
    seen += units.length;
    if (seen >= 2 && firstAt < 0) firstAt = i + 1;
  });
  t.equal(seen + reader.end().length, 201, 'the info and 200 messages');
  t.ok(firstAt > 0 && firstAt < 40, `the first message came out at line ${firstAt} of ${lines.length}`);
  t.end();
});

t.test('a document out of layout from its start (one line of compact JSON) is read whole, and said so', (t) => {
  const info = sessionInfo();
  const messages = [user([{ type: 'text', text: 'hi' }])];
  const compact = JSON.stringify({ info, messages }) + '\n';
  const { units, problem } = exportTextUnits(compact);
  t.match(problem, /not in the layout opencode export writes/);
  t.same(units.map((u) => u.value), [info, ...messages], 'the same values');
  t.equal(docOf(units.map((u) => u.value)), JSON.stringify({ info, messages }, null, 2) + '\n', 'written back in the layout');
  t.end();
});

t.test('a document that leaves the layout after some messages keeps those and reads the rest', (t) => {
  const info = sessionInfo();
  const messages = [user([{ type: 'text', text: 'one' }]), assistant([{ type: 'text', text: 'two' }]), user([{ type: 'text', text: 'three' }])];
  const lines = JSON.stringify({ info, messages }, null, 2).split('\n');
  // Re-indent the third message by a space too many: valid JSON, another layout.
  const third = lines.lastIndexOf('    {');
  for (let i = third + 1; i < lines.length - 3; i++) lines[i] = ' ' + lines[i];
  const { units, problem } = exportTextUnits(lines.join('\n') + '\n');
  t.match(problem, /the message that starts on line \d+ is not in the client's layout/);
  t.same(units.map((u) => u.value), [info, ...messages], 'every value, in order');
  t.end();
});

t.test('a document cut short is an error, not fewer lines', (t) => {
  const text = JSON.stringify({ info: sessionInfo(), messages: [user([{ type: 'text', text: 'one' }])] }, null, 2);
  t.throws(() => exportTextUnits(text.slice(0, text.length - 20)), SyntaxError);
  t.end();
});

t.test('a record per unit: harness opencode, the line its unit starts on, its kind, the unit as the line', (t) => {
  const { file } = recordedExports().find((d) => d.scenario === 'resume')!;
  const text = readFileSync(file, 'utf8');
  const records = [...exportFileUnits(file)].map((u) => recordOf(u, 's.json'));
  t.same(
    records.map((r) => [r.harness, r.kind]),
    [['opencode', 'meta'], ['opencode', 'prompt'], ['opencode', 'assistant'], ['opencode', 'prompt'], ['opencode', 'assistant']],
  );
  const lines = text.split('\n');
  t.equal(lines[records[0]!.n - 1], '  "info": {', 'the info starts on its key\'s line');
  t.ok(records.slice(1).every((r) => lines[r.n - 1] === '    {'), 'each message on its opening brace');
  t.same(Object.keys(records[1]!), ['harness', 'n', 'src', 'kind', 'line'], 'line is the last key, as in every record');
  t.end();
});
