import t from 'tap';
import { MAX_ITEMS, trimDeep, trimText } from '../../lib/core/trim.js';

t.test('trimText keeps short text, cuts long text and says how much is left out', async (t) => {
  t.equal(trimText('abc', 3), 'abc');
  t.equal(trimText('abcdef', 3), 'abc…[3 more chars]');
  t.equal(trimText('abcdef', 0), 'abcdef', '0 keeps everything');
});

t.test('trimText never cuts a surrogate pair in half', async (t) => {
  const cut = trimText('ab😀cd', 3);
  t.equal(cut, 'ab…[4 more chars]');
  t.notMatch(cut, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/, 'no lone high surrogate');
});

t.test('trimDeep trims every string of a value and cuts long arrays', async (t) => {
  t.same(trimDeep({ a: 'abcdef', b: [1, 'xyzxyz'], c: null }, 2), { a: 'ab…[4 more chars]', b: [1, 'xy…[4 more chars]'], c: null });
  const long = Array.from({ length: MAX_ITEMS + 5 }, (_, i) => i);
  const cut = trimDeep(long, 10) as unknown[];
  t.equal(cut.length, MAX_ITEMS + 1);
  t.equal(cut[MAX_ITEMS], '…[5 more items]');
  t.equal(trimDeep(long, 0), long, '0 keeps the value as it is');
});
