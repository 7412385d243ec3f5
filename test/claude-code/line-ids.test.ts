import { randomUUID } from 'node:crypto';
import t from 'tap';
import { Chunked, LineIds } from '../../lib/claude-code/line-ids.js';

t.test('LineIds gives each distinct string one dense id, uuids and other strings alike', async (t) => {
  const ids = new LineIds();
  const strings: string[] = [];
  // Enough uuids to rehash the table several times, and strings that only look like uuids.
  for (let i = 0; i < 20000; i++) strings.push(randomUUID());
  const upper = strings[5].toUpperCase();
  const odd = ['', 'x', upper, strings[6].replace(/-/g, ''), strings[7] + ' ', '__proto__', 'constructor', '00000000-0000-0000-0000-000000000000', 'g0000000-0000-0000-0000-000000000000'];
  strings.push(...odd);
  const given = strings.map((s) => ids.id(s));
  t.same(given, strings.map((_, i) => i), 'ids are 0, 1, 2… in the order strings were first seen');
  t.equal(ids.size, strings.length);
  t.same(strings.map((s) => ids.id(s)), given, 'the same string gets the same id again');
  t.same(strings.map((s) => ids.find(s)), given, 'find agrees with id');
  t.not(ids.id(upper), ids.id(strings[5]), 'a uuid in capitals is another string (uuids are compared exactly)');
  t.equal(ids.find(randomUUID()), -1, 'an unknown uuid has no id');
  t.equal(ids.find('never seen'), -1, 'an unknown string has no id');
  t.equal(ids.size, strings.length, 'find gives no id');
});

t.test('Chunked holds numbers by index across chunks, with its initial value where none was set', async (t) => {
  const c = new Chunked((n) => new Int32Array(n), -2);
  t.equal(c.get(10), -2);
  c.set(200000, 7);
  c.set(3, 4);
  t.equal(c.get(200000), 7);
  t.equal(c.get(3), 4);
  t.equal(c.get(100000), -2, 'a chunk made for a later index holds the initial value');
  t.equal(c.get(5000000), -2, 'beyond every chunk');
});
