// The byte pre-filter of tx-grep: the literal a pattern requires, and the lines it lets
// through, which must include every line that could match, numbered as tx-parse numbers.
import t from 'tap';
import { patternLiterals } from '../../../lib/core/search/pattern-literals.js';
import { candidateLines, prefilterFor } from '../../../lib/core/search/prefilter.js';
import { prng } from '../../helpers.js';

t.test('the literals an RE2 pattern requires: fixed strings whole, regular expressions by their best run of plain characters (times the plain alternatives of a group), one set per top-level branch', async (t) => {
  const cases: [string, boolean, boolean, string[] | null][] = [
    ['a.b', true, false, ['a.b']],
    ['a|b', true, false, ['a|b']],
    ['hello world', false, false, ['hello world']],
    ['fix(ed|es)? the bug', false, false, [' the bug']],
    ['colou?r', false, false, ['colo']],
    ['ab+c', false, false, ['ab']],
    ['x*yz', false, false, ['yz']],
    ['a\\.b', false, false, ['a.b']],
    ['\\d+ items', false, false, [' items']],
    ['[abc]def', false, false, ['def']],
    ['[a|b]def', false, false, ['def']],
    ['cat|dog', false, false, ['cat', 'dog']],
    ['error|fail(ed)?|error', false, false, ['error', 'fail']],
    ['cat|.*', false, false, null],
    ['(cat|dog)s', false, false, ['cats', 'dogs']],
    ['deploy (stream|value)', false, false, ['deploy stream', 'deploy value']],
    ['deploy (stream|value)?', false, false, ['deploy ']],
    ['x(a|b)(c|d)(e|f)(g|h)', false, false, ['xaceg', 'xacfg', 'xadeg', 'xadfg', 'xbceg', 'xbcfg', 'xbdeg', 'xbdfg'].map((s) => s.slice(0, 4)).filter((s, i, a) => a.indexOf(s) === i)],
    ['(a|bc)+d', false, false, ['d']],
    ['(ab|cd)+e', false, false, ['ab', 'cd']],
    ['(a|b.)c', false, false, ['c']],
    ['((a|b))c', false, false, ['c']],
    ['\\u00e9t', false, false, null],
    ['\\x{e9}t\\x41', false, false, ['étA']],
    ['[]a]bc', false, false, ['bc']],
    ['[^]a]bc', false, false, ['bc']],
    ['[[:alpha:]]xyz', false, false, ['xyz']],
    ['\\Qa.b\\E+c', false, false, ['a.b']],
    ['\\Qa(b', false, false, ['a(b']],
    ['a{2}bc', false, false, ['bc']],
    ['x{,5}y', false, false, ['x{,5}y']],
    ['ab{0,3}c', false, false, ['a']],
    ['\\pLfoo\\p{Greek}', false, false, ['foo']],
    ['(?P<n>ab)cd(?<m>x)', false, false, ['abcdx']],
    ['bug\\.\\nThe', false, false, ['bug.\nThe']],
    ['ab*?cd', false, false, ['cd']],
    ['(a)\\1', false, false, null],
    ['a[b', false, false, null],
    ['a\\|b', false, false, ['a|b']],
    ['.*', false, false, null],
    ['', false, false, null],
    ['naïve bug', false, true, ['ve bug']],
    ['café', true, false, ['café']],
  ];
  for (const [pattern, fixed, ignoreCase, want] of cases) t.same(patternLiterals(pattern, fixed, ignoreCase).literals, want, `${JSON.stringify(pattern)}${fixed ? ' -F' : ''}${ignoreCase ? ' -i' : ''}`);
  t.same(patternLiterals('ab(?i)cd', false, false), { literals: ['abcd'], ignoreCase: true }, 'an i flag anywhere folds every literal');
  t.same(patternLiterals('(?i:x)yz', false, false), { literals: ['xyz'], ignoreCase: true });
  t.same(patternLiterals('(?s)yz', false, false), { literals: ['yz'], ignoreCase: false }, 'other flags do not');
});

t.test('a literal is searched as JSON writes it: quotes, backslashes and newlines escaped, other characters as UTF-8', async (t) => {
  t.same(prefilterFor(['say "hi"'], false)!.needles, ['say \\"hi\\"']);
  t.same(prefilterFor(['C:\\temp'], false)!.needles, ['C:\\\\temp']);
  t.same(prefilterFor(['a\nb'], false)!.needles, ['a\\nb']);
  t.same(prefilterFor(['café', 'x'], false)!.needles, ['café', 'x']);
  t.equal(prefilterFor(null, false), null, 'no literal, no pre-filter');
});

/** ASCII letters folded, and nothing else (what the pre-filter folds under -i, besides the two characters below). */
const foldAscii = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The lines a correct pre-filter must let through, by a plain split: those holding the
 * needle's bytes, or an escape (\\uXXXX, not itself escaped) of one of its characters (in
 * either case with -i), or with -i a K (Kelvin) or ſ (long s) where the needle has k or s,
 * or \\/ where it has a slash.
 */
function expected(text: string, needle: string, ignoreCase: boolean): [number, string][] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const units = new Set([...(ignoreCase ? needle + needle.toLowerCase() + needle.toUpperCase() : needle)].map((c) => c.charCodeAt(0)));
  const k = ignoreCase && /k/i.test(needle);
  const s = ignoreCase && /s/i.test(needle);
  if (k) units.add(0x212a);
  if (s) units.add(0x17f);
  const escapes = (l: string) => [...l.matchAll(/(?<!\\)(?:\\\\)*\\u([0-9a-fA-F]{4})/g)].some((m) => units.has(parseInt(m[1], 16)));
  const has = (l: string) =>
    (ignoreCase ? foldAscii(l).includes(foldAscii(needle)) : l.includes(needle)) || escapes(l) || (k && l.includes('\u212a')) || (s && l.includes('\u017f')) || (needle.includes('/') && l.includes('\\/'));
  return lines.map((l, i) => [i + 1, l.replace(/\r$/, '')] as [number, string]).filter(([, l]) => has(l));
}

t.test('at every chunk boundary, the lines let through are exactly those holding the needle or an escape of one of its characters, with their line numbers', async (t) => {
  const text = ['{"a":"no"}', '{"b":"a needle here"}', '{"c":"x"}\r', '{"d":"esc \\u00e9"}', '{"ansi":"\\u001b[32m ok"}', '{"path":"C:\\\\users\\\\u006e"}', '', '{"e":"NEEDLE"}', '{"f":"slash \\/"}', '{"g":"n\\u0065edle"}', '{"h":"N\\u0045EDLE"}', '{"g":"needle at end"}'].join('\n');
  const bytes = Buffer.from(text);
  for (const ignoreCase of [false, true]) {
    const filter = prefilterFor(['needle'], ignoreCase);
    const want = expected(text, 'needle', ignoreCase);
    let bad = 0;
    for (let k = 0; k <= bytes.length; k++) {
      const chunks = [Buffer.from(bytes.subarray(0, k)), Buffer.from(bytes.subarray(k))];
      const got = [...candidateLines(chunks, filter)].map((l) => [l.n, l.bytes.toString()]);
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        bad++;
        t.same(got, want, `split at ${k}${ignoreCase ? ' (-i)' : ''}`);
      }
    }
    t.equal(bad, 0, `every split point agrees${ignoreCase ? ' (-i)' : ''}`);
  }
});

t.test('random texts in random chunks: the same lines as a plain split, and every line without a filter', async (t) => {
  const random = prng(7);
  const words = ['{"t":"', 'abc', 'needle', 'NeEdLe', '\\u0041', '\\u006e', '\\u006E', '\\u0045', '\\u001b[0m', '\\u001', '\\\\user', '\\\\u0064', '\\u00E9', '\\/', 'é', 'de', 'sk', 'ſ', '\u212a', '\\u017F', '\\u212a', '\r', '\n', '"}', ' '];
  for (let round = 0; round < 200; round++) {
    let text = '';
    for (let i = 0; i < 60; i++) text += words[Math.floor(random() * words.length)];
    const bytes = Buffer.from(text);
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; ) {
      const n = 1 + Math.floor(random() * 30);
      chunks.push(Buffer.from(bytes.subarray(at, at + n)));
      at += n;
    }
    const got = [...candidateLines(chunks, prefilterFor(['needle'], round % 2 === 1))].map((l) => [l.n, l.bytes.toString()]);
    t.same(got, expected(text, 'needle', round % 2 === 1), `round ${round}`);
    const slashed = [...candidateLines(chunks, prefilterFor(['a/b'], false))].map((l) => [l.n, l.bytes.toString()]);
    t.same(slashed, expected(text, 'a/b', false), `round ${round}: a literal with a slash lets \\/ through`);
    const either = [...candidateLines(chunks, prefilterFor(['abc', 'needle'], round % 2 === 1))].map((l) => [l.n, l.bytes.toString()]);
    const wantEither = new Set([...expected(text, 'abc', round % 2 === 1), ...expected(text, 'needle', round % 2 === 1)].map((x) => x[0]));
    t.same(either.map((x) => x[0]), [...wantEither].sort((a, b) => a - b), `round ${round}: two literals, either lets a line through`);
    const desk = [...candidateLines(chunks, prefilterFor(['desk'], round % 2 === 1))].map((l) => [l.n, l.bytes.toString()]);
    t.same(desk, expected(text, 'desk', round % 2 === 1), `round ${round}: with -i, K and ſ (raw or escaped) let a literal with k or s through`);
    const reread = (at: number, length: number) => Buffer.from(bytes.subarray(at, at + length));
    const again = [...candidateLines(chunks, prefilterFor(['needle'], round % 2 === 1), { reread })].map((l) => [l.n, l.bytes.toString()]);
    t.same(again, got, `round ${round}: the same lines when a line spanning chunks is read again whole`);
    const all = [...candidateLines(chunks, null)].map((l) => l.n);
    t.equal(all.length, expected(text, '', false).length, `round ${round}: every line without a filter`);
  }
});

t.test('a BOM on line 1 is not part of its bytes', async (t) => {
  const got = [...candidateLines([Buffer.from('\ufeff{"a":"needle"}\n')], prefilterFor(['needle'], false))];
  t.same(got.map((l) => l.bytes.toString()), ['{"a":"needle"}']);
});

t.test('a line longer than the limit is not joined nor let through, and said by its number; the lines after it keep theirs', async (t) => {
  const text = Buffer.from('{"a":"needle"}\n{"long":"needle ' + 'x'.repeat(40) + '"}\n{"c":"needle"}\n{"tail":"needle' + 'y'.repeat(40));
  for (let k = 0; k <= text.length; k++) {
    const said: number[] = [];
    const reread = k % 2 === 0 ? undefined : (at: number, length: number) => Buffer.from(text.subarray(at, at + length));
    const got = [...candidateLines([Buffer.from(text.subarray(0, k)), Buffer.from(text.subarray(k))], prefilterFor(['needle'], false), { limit: 30, onLong: (n) => said.push(n), reread })].map((l) => l.n);
    if (JSON.stringify([got, said]) !== JSON.stringify([[1, 3], [2, 4]])) t.same([got, said], [[1, 3], [2, 4]], `split at ${k}`);
  }
  t.pass('every split point');
});
