// Field paths: the syntax, what a path selects, and that each string is rewritten once.
import t from 'tap';
import { parseFieldPath, rewriteStrings } from '../../../lib/core/json/field-path.js';

const upper = (s: string) => s.toUpperCase();

function rewrite(value: unknown, paths: string[]) {
  return rewriteStrings(structuredClone(value), paths.map(parseFieldPath), upper);
}

t.test('the syntax: keys, [] every element, [N] one element, * every member, escaped characters', async (t) => {
  t.same(parseFieldPath('line.message.content[].text'), [{ key: 'line' }, { key: 'message' }, { key: 'content' }, { every: 'array' }, { key: 'text' }]);
  t.same(parseFieldPath('.a[2][]'), [{ key: 'a' }, { index: 2 }, { every: 'array' }]);
  t.same(parseFieldPath('*.b'), [{ every: 'member' }, { key: 'b' }]);
  t.same(parseFieldPath('[].x'), [{ every: 'array' }, { key: 'x' }]);
  t.same(parseFieldPath('a\\.b.\\*.c\\[\\]\\\\'), [{ key: 'a.b' }, { key: '*' }, { key: 'c[]\\' }]);
  t.same(parseFieldPath('.'), [], "'.' is the whole value");
});

t.test('malformed paths are refused with a reason', async (t) => {
  for (const bad of ['', 'a..b', 'a.', 'a[', 'a[x]', 'a]b', 'a[]b', 'a\\']) t.throws(() => parseFieldPath(bad), /bad field path/, JSON.stringify(bad));
});

t.test('a path selects the value it reaches and every string inside it, never keys', async (t) => {
  const doc = { a: 'a', b: { c: ['x', { d: 'y' }], 'key': 'k' }, n: 1 };
  t.same(rewrite(doc, ['b']).value, { a: 'a', b: { c: ['X', { d: 'Y' }], key: 'K' }, n: 1 });
  t.same(rewrite(doc, ['b.c[]']).value, { a: 'a', b: { c: ['X', { d: 'Y' }], key: 'k' }, n: 1 });
  t.same(rewrite(doc, ['b.c[1].d']).value, { a: 'a', b: { c: ['x', { d: 'Y' }], key: 'k' }, n: 1 });
  t.same(rewrite(doc, ['*']).value, { a: 'A', b: { c: ['X', { d: 'Y' }], key: 'K' }, n: 1 });
  t.same(rewrite({ low: 'v' }, ['.']).value, { low: 'V' }, 'keys stay as they are');
  t.same(rewrite('top', ['.']), { value: 'TOP', changed: true }, 'a bare string value');
});

t.test('a path that reaches nothing, or [] on a non-array, selects nothing', async (t) => {
  const doc = { content: 'text', list: [] };
  t.same(rewrite(doc, ['missing.x', 'content[].text', 'content[0]', 'list[3]']), { value: doc, changed: false });
});

t.test('overlapping paths rewrite each string once', async (t) => {
  const once = rewriteStrings({ a: { b: 'x' } }, [parseFieldPath('a'), parseFieldPath('a.b'), parseFieldPath('.')], (s) => s + '!');
  t.same(once.value, { a: { b: 'x!' } });
});

t.test('changed says whether any string became different', async (t) => {
  t.equal(rewrite({ a: 'ALREADY' }, ['a']).changed, false);
  t.equal(rewrite({ a: 'lower' }, ['a']).changed, true);
});
