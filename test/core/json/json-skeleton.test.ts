import t from 'tap';
import { JsonSkeleton, STRING_KEEP } from '../../../lib/core/json/json-skeleton.js';

/** The skeleton of `text` fed in pieces of `step` bytes. */
function skeleton(text: string | Buffer, step: number): Buffer {
  const s = new JsonSkeleton();
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += step) s.feed(bytes.subarray(i, i + step));
  return s.finish();
}

t.test('a value within the limits comes back as itself, however its bytes are cut into pieces', async (t) => {
  const value = { a: 1, b: [1, 2, { c: 'x"y\\' }], d: null, e: true, f: -1.5e3, g: 'é\u2028😀\u0000', h: {}, i: [], '': '' };
  const text = JSON.stringify(value, null, 2).replace(/\n/g, '\r\n');
  for (let step = 1; step <= text.length; step += step < 8 ? 1 : 13) t.same(JSON.parse(skeleton(text, step).toString()), value, `pieces of ${step}`);
});

t.test('a long string keeps its first bytes, cut where a character begins, outside any escape', async (t) => {
  const cases = [
    'x'.repeat(STRING_KEEP * 3),
    'é'.repeat(STRING_KEEP),
    'a'.repeat(STRING_KEEP - 3) + '\u0001'.repeat(1000),
    'b'.repeat(STRING_KEEP - 1) + '"\\'.repeat(1000),
    '😀'.repeat(STRING_KEEP),
  ];
  for (const [k, long] of cases.entries()) {
    const text = JSON.stringify({ before: 1, long, after: 'kept' });
    for (const step of [1, 7, 65536]) {
      if (step === 1 && k > 1) continue;
      const out = skeleton(text, step);
      const parsed = JSON.parse(out.toString());
      t.ok(long.startsWith(parsed.long), `case ${k}, pieces of ${step}: a prefix of the string`);
      t.ok(Buffer.byteLength(JSON.stringify(parsed.long)) - 2 >= STRING_KEEP - 12 && Buffer.byteLength(JSON.stringify(parsed.long)) - 2 <= STRING_KEEP + 6, `case ${k}: about STRING_KEEP bytes kept`);
      t.equal(parsed.after, 'kept', `case ${k}: the members after it are read`);
      t.equal(out.toString('utf8'), Buffer.from(out.toString('utf8')).toString('utf8'), 'valid UTF-8');
    }
  }
});

t.test('nesting past 64 becomes null; a long number becomes 0', async (t) => {
  const deep = '{"a":' + '['.repeat(200) + ']'.repeat(200) + ',"b":2}';
  const parsed = JSON.parse(skeleton(deep, 5).toString());
  let v = parsed.a;
  let depth = 1;
  while (Array.isArray(v) && v.length > 0) {
    v = v[0];
    depth++;
  }
  t.equal(v, null, 'the value too deep is null');
  t.equal(depth, 64, 'at depth 64');
  t.equal(parsed.b, 2);
  t.same(JSON.parse(skeleton('{"n":' + '1'.repeat(100) + ',"m":-2.5e-3}', 3).toString()), { n: 0, m: -2.5e-3 });
});

t.test('a line of many small values stays within a few MB, and its top-level members after them are read', async (t) => {
  const wide = JSON.stringify({ head: 'h', message: { content: Array.from({ length: 400000 }, (_, i) => ({ type: 'text', text: `block ${i}` })) }, timestamp: 'T' });
  const out = skeleton(wide, 1 << 20);
  t.ok(out.length < 2 * 1024 * 1024, `${wide.length} bytes make ${out.length}`);
  const parsed = JSON.parse(out.toString());
  t.equal(parsed.head, 'h');
  t.equal(parsed.timestamp, 'T', 'the member after the long array');
  t.ok(parsed.message.content.length > 1000 && parsed.message.content.length < 400000, 'the array is cut, whole blocks first');
  t.same(parsed.message.content[5], { type: 'text', text: 'block 5' });
  const flat = '{' + Array.from({ length: 300000 }, (_, i) => `"k${i}":"${'v'.repeat(20)}"`).join(',') + '}';
  t.ok(skeleton(flat, 1 << 16).length < 5 * 1024 * 1024, 'a top level of many members is cut too');
  t.type(JSON.parse(skeleton(flat, 1 << 16).toString()), 'object');
});
