// Search patterns (lib/core/search/pattern.ts, pattern-literals.ts): what the byte
// pre-filter relies on (every match of a random RE2 pattern holds one of the literals
// read from it), the plain-string paths agreeing with RE2 itself (case folding
// included), and a pattern that backtracks exponentially in JavaScript taking linear time.
import { RE2JS } from 're2js';
import t from 'tap';
import { compilePattern, PatternError } from '../../../lib/core/search/pattern.js';
import { isPlainPattern, patternLiterals } from '../../../lib/core/search/pattern-literals.js';
import { prng } from '../../helpers.js';

const PIECES = ['a', 'b', 'ab', '(ab|c)', '(a|bK)', '(s|)', '(?i:a|b)', 'K', 's', 'é', '.', '*', '+', '?', '|', '(', ')', '(?:', '(?i)', '(?i:', '[a-c]', '[]a]', '[^s]', '\\d', '\\w', '\\b', '{2}', '{0,2}', '{1,}', '{', '}', '\\Qa.\\E', '\\.', '\\n', '\\x{e9}', '^', '$', '\\pL'];
const TEXT = ['a', 'b', 'A', 'B', 'k', 'K', '\u212a', 's', 'S', 'ſ', 'é', 'É', '.', '1', ' ', '\n', '{', '}'];

const escaped = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

t.test('every match of a random RE2 pattern holds one of the literals read from it (as folded, when the pattern folds case)', async (t) => {
  const random = prng(11);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  let compiled = 0;
  let checked = 0;
  for (let round = 0; round < 3000; round++) {
    let pattern = '';
    for (let i = 1 + Math.floor(random() * 7); i > 0; i--) pattern += pick(PIECES);
    const ignoreCase = random() < 0.3;
    let re: RE2JS;
    try {
      re = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
    } catch {
      continue;
    }
    compiled++;
    const { literals, ignoreCase: folded } = patternLiterals(pattern, false, ignoreCase);
    if (literals === null) continue;
    const holds = literals.map((l) => (folded ? new RegExp(escaped(l), 'iu') : { test: (s: string) => s.includes(l) }));
    for (let k = 0; k < 20; k++) {
      let text = '';
      for (let i = Math.floor(random() * 12); i > 0; i--) text += pick(TEXT);
      const m = re.matcher(text);
      for (let from = 0; from <= text.length && m.find(from); from = Math.max(m.end(), from + 1)) {
        const match = text.slice(m.start(), m.end());
        checked++;
        if (!holds.some((h) => h.test(match))) t.fail(`${JSON.stringify(pattern)}${ignoreCase ? ' -i' : ''}: the match ${JSON.stringify(match)} in ${JSON.stringify(text)} holds none of ${JSON.stringify(literals)}`);
      }
    }
  }
  t.ok(compiled > 500, `${compiled} patterns compiled`);
  t.ok(checked > 1000, `${checked} matches checked`);
});

t.test('a plain string is found where RE2 finds it, case folded as RE2 folds it', async (t) => {
  const random = prng(5);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  let differ = 0;
  for (let round = 0; round < 3000; round++) {
    let needle = '';
    for (let i = 1 + Math.floor(random() * 3); i > 0; i--) needle += pick(TEXT);
    let text = '';
    for (let i = Math.floor(random() * 16); i > 0; i--) text += pick(TEXT);
    const ignoreCase = random() < 0.5;
    const ours = compilePattern(needle, { fixed: true, ignoreCase }).find(text);
    const m = RE2JS.compile(RE2JS.quote(needle), ignoreCase ? RE2JS.CASE_INSENSITIVE : 0).matcher(text);
    const theirs = m.find() ? { index: m.start(), length: m.end() - m.start() } : null;
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
      differ++;
      t.same(ours, theirs, `${JSON.stringify(needle)} in ${JSON.stringify(text)}${ignoreCase ? ' -i' : ''}`);
    }
  }
  t.equal(differ, 0, 'every case agrees');
  t.ok(isPlainPattern('fix the bug') && !isPlainPattern('a.b') && !isPlainPattern('a\\b'), 'a pattern with no special character is plain');
});

t.test('regular expressions: RE2 semantics, in linear time; what RE2 refuses is a PatternError saying why', async (t) => {
  const started = Date.now();
  t.same(compilePattern('(a+)+$').find('a'.repeat(100_000) + '!'), null);
  t.same(compilePattern('(x+x+)+y').find('x'.repeat(100_000)), null);
  t.ok(Date.now() - started < 20_000, `${Date.now() - started} ms for 200,000 characters of patterns that backtrack exponentially in JavaScript`);
  t.same(compilePattern('b+').find('aabbb'), { index: 2, length: 3 });
  t.same(compilePattern('needle', { ignoreCase: true }).find('x NEEDLE'), { index: 2, length: 6 });
  t.same(compilePattern('a|ab').find('ab'), { index: 0, length: 1 }, 'leftmost-first, as JavaScript chooses');
  t.same(compilePattern('é.').find('😀é😀'), { index: 2, length: 3 }, 'indexes in UTF-16 units; . is a code point');
  t.same(compilePattern('^b', {}).find('a\nb'), null, '^ is the start of the text');
  t.same(compilePattern('(?m)^b').find('a\nb'), { index: 2, length: 1 });
  for (const [p, why] of [['(?=a)', /no lookahead, lookbehind or backreferences/], ['(a)\\1', /no lookahead, lookbehind or backreferences/], ['(', /missing closing \)/], ['a{1001}', /invalid repeat count/]] as const) {
    let refused: unknown = null;
    try {
      compilePattern(p);
    } catch (err) {
      refused = err;
    }
    t.ok(refused instanceof PatternError, `${p} is refused`);
    t.match((refused as Error)?.message, why, `${p}: ${(refused as Error)?.message}`);
  }
});
