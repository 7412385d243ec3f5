// Parsing an object without one top-level value: the rest exactly as JSON.parse gives
// it, the skipped value as null, and the whole parse asked for whenever the key is not
// the object's own.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { parseWithout } from '../../../lib/core/json/parse-without.js';
import { corpusFiles } from '../../helpers.js';

const KEY = 'toolUseResult';
const bytes = (v: unknown) => Buffer.from(JSON.stringify(v));
/** What parseWithout must give for a line whose top level has the key. */
const expected = (v: Record<string, unknown>) => ({ ...v, [KEY]: null });

t.test('the top-level value is skipped, and every other value is as JSON.parse gives it', async (t) => {
  const line = { type: 'user', message: { content: [{ type: 'tool_result', content: 'é😀 "quoted" \\ back' }] }, toolUseResult: { file: { content: 'x'.repeat(5000), n: [1, 2.5, -3e2, true, null] } }, uuid: 'u1' };
  t.same(parseWithout(bytes(line), 0, bytes(line).length, KEY), expected(line));
  for (const value of ['a string with } and ]', 7, true, null, [], [{ a: '"' }]]) {
    const l = { type: 'user', toolUseResult: value, after: 'kept' };
    t.same(parseWithout(bytes(l), 0, bytes(l).length, KEY), expected(l), `a value of ${JSON.stringify(value)}`);
  }
});

t.test('the bytes between start and end are the object: a record\'s line is read in place', async (t) => {
  const line = bytes({ a: 1, toolUseResult: { big: 'y'.repeat(100) }, z: [2] });
  const record = Buffer.concat([Buffer.from('{"harness":"claude-code","line":'), line, Buffer.from('}')]);
  const start = record.indexOf('{"a"');
  t.same(parseWithout(record, start, start + line.length, KEY), { a: 1, toolUseResult: null, z: [2] });
  t.equal(parseWithout(record, start, start + 10, KEY), undefined, 'a key past `end` is not seen');
});

t.test('undefined (parse it whole) when the key is not the object\'s own', async (t) => {
  const cases: [string, string][] = [
    ['no such key', '{"type":"user","message":{}}'],
    ['only nested', '{"type":"progress","data":{"message":{"toolUseResult":{"a":1}}}}'],
    ['only in a string', '{"type":"user","text":"\\"toolUseResult\\":{}"}'],
    ['only in a string, unescaped form', '{"type":"user","text":"x \\u0022toolUseResult\\u0022: 1"}'],
    ['not an object', '["toolUseResult":1]'],
  ];
  for (const [name, text] of cases) t.equal(parseWithout(Buffer.from(text), 0, text.length, KEY), undefined, name);
});

t.test('spacing around the key, as no client writes it, is read as JSON allows', async (t) => {
  const text = '{ "type":"user" , "toolUseResult" :  {"a":1} , "b" : 2 }';
  t.same(parseWithout(Buffer.from(text), 0, text.length, KEY), { type: 'user', toolUseResult: null, b: 2 });
});

t.test('nested copies of the key are left alone when the top level has it too', async (t) => {
  const line = { data: { toolUseResult: { inner: 1 } }, toolUseResult: { outer: 2 }, last: { toolUseResult: 'kept' } };
  t.same(parseWithout(bytes(line), 0, bytes(line).length, KEY), expected(line));
});

t.test('the rest of the object is still checked: JSON.parse\'s error when it is not JSON', async (t) => {
  t.throws(() => parseWithout(Buffer.from('{"toolUseResult":{"a":1},"b":tru}'), 0, 33, KEY), SyntaxError);
  t.throws(() => parseWithout(Buffer.from('{"toolUseResult":{"a":1}},"after":1'), 0, 35, KEY), SyntaxError, 'bytes after the object');
});

const files = corpusFiles('claude-code');
t.test('every line of every Claude Code corpus file: the key skipped exactly when the line has it at the top level, the rest as JSON.parse gives it', { skip: files.length === 0 ? 'no corpus beside the project' : false }, async (t) => {
  let lean = 0;
  let whole = 0;
  for (const file of files) {
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      let full: any;
      try {
        full = JSON.parse(text);
      } catch {
        continue;
      }
      if (!full || typeof full !== 'object' || Array.isArray(full)) continue;
      const line = Buffer.from(text);
      const got = parseWithout(line, 0, line.length, KEY);
      if (Object.hasOwn(full, KEY)) {
        lean++;
        t.same(got, expected(full), `${file}: a line with ${KEY}`, { diagnostic: false });
      } else {
        whole++;
        if (got !== undefined) t.fail(`${file}: skipped a key the line does not have at the top level`);
      }
    }
  }
  t.ok(lean > 1000, `${lean} lines read without ${KEY}, ${whole} whole`);
});
