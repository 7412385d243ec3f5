import t from 'tap';
import { findTopLevelKey, valueEnd } from '../../../lib/core/json/json-scan.js';

const b = (s: string) => Buffer.from(s);

t.test('valueEnd finds the end of each kind of value', async (t) => {
  const cases: [string, number][] = [
    ['{"a":1} tail', 7],
    ['[1,[2,{"x":"]"}]]x', 17],
    ['"a\\"b" rest', 6],
    ['"a\\\\" rest', 5],
    ['  true,', 6],
    ['-12.5e3}', 7],
    ['{"k":"}{"}{"b":2}', 10],
  ];
  for (const [text, end] of cases) t.equal(valueEnd(b(text), 0), end, text);
});

t.test('valueEnd says -1 for values that do not close', async (t) => {
  for (const text of ['{"a":1', '"abc', '[1,2', '   ']) t.equal(valueEnd(b(text), 0), -1, text);
});

t.test('valueEnd agrees with JSON.parse on where every value of a corpus-like line ends', async (t) => {
  const values = [{ a: 'x"}]\\', b: [1, { c: null }] }, 'str"ing\\', [[]], 0.5, false, { 'k"ey': '\u2028' }];
  for (const v of values) {
    const text = JSON.stringify(v);
    // Offsets are in bytes: U+2028 is one character and three bytes.
    t.equal(valueEnd(b(text + ' , {"more":1}'), 0), Buffer.byteLength(text), JSON.stringify(text).replace(/\u2028/g, '\\u2028'));
  }
});

t.test('findTopLevelKey skips nested keys and keys inside strings', async (t) => {
  const text = '{"harness":"x","deep":{"line":1},"s":"\\"line\\":","line":{"a":1}}';
  const found = findTopLevelKey(b(text), 'line');
  t.ok(found);
  t.equal(text.slice(found!.before, found!.before + 1), ',');
  t.equal(text.slice(found!.value), '{"a":1}}');
  t.equal(findTopLevelKey(b('{"a":{"line":1}}'), 'line'), null);
  t.equal(findTopLevelKey(b('not json'), 'line'), null);
});
