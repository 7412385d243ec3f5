// stripAnsi: each family of escape sequences goes, text and other controls stay, and
// no ESC or C1 introducer survives.
import t from 'tap';
import { prng } from '../helpers.js';
import { stripAnsi } from '../../lib/core/ansi.js';

const ESC = '\u001b';

t.test('CSI sequences go: SGR, private parameters, intermediates, and the C1 form U+009B', async (t) => {
  t.equal(stripAnsi(`${ESC}[31mred${ESC}[0m`), 'red');
  t.equal(stripAnsi(`${ESC}[38;5;3m[Rep]${ESC}[39m`), '[Rep]');
  t.equal(stripAnsi(`${ESC}[?25l${ESC}[1G${ESC}[2Kdone`), 'done');
  t.equal(stripAnsi(`a${ESC}[2 qb`), 'ab', 'intermediate byte before the final one');
  t.equal(stripAnsi(`a${ESC}[mb`), 'ab', 'no parameters');
  t.equal(stripAnsi('\u009b1mbold\u009b0m'), 'bold');
});

t.test('OSC strings go, ended by BEL or by ST in both forms; the hyperlink text stays', async (t) => {
  t.equal(stripAnsi(`${ESC}]0;window title\u0007prompt`), 'prompt');
  t.equal(stripAnsi(`${ESC}]8;;https://example.com${ESC}\\link${ESC}]8;;${ESC}\\`), 'link');
  t.equal(stripAnsi('\u009d0;title\u009ctext'), 'text');
  t.equal(stripAnsi(`${ESC}]0;t\u009ctext`), 'text', 'a 7-bit OSC ended by the C1 ST');
});

t.test('DCS, SOS, PM and APC strings go, ended by ST', async (t) => {
  t.equal(stripAnsi(`a${ESC}Pq#0;2;0;0;0${ESC}\\b`), 'ab', 'DCS');
  t.equal(stripAnsi(`a${ESC}Xstart of string${ESC}\\b`), 'ab', 'SOS');
  t.equal(stripAnsi(`a${ESC}^privacy${ESC}\\b`), 'ab', 'PM');
  t.equal(stripAnsi(`a${ESC}_Gf=24;AAAA${ESC}\\b`), 'ab', 'APC');
  t.equal(stripAnsi('a\u0090dcs\u009cb'), 'ab', 'DCS in C1 form');
});

t.test('nF escapes (charset designation) and two-character escapes go', async (t) => {
  t.equal(stripAnsi(`a${ESC}(Bb${ESC})0c${ESC}#8d`), 'abcd');
  t.equal(stripAnsi(`${ESC}7saved${ESC}8`), 'saved', 'Fp: save and restore cursor');
  t.equal(stripAnsi(`${ESC}=${ESC}>x`), 'x', 'Fp: keypad modes');
  t.equal(stripAnsi(`${ESC}Mup${ESC}Dn`), 'upn', 'Fe: reverse index, index');
  t.equal(stripAnsi(`${ESC}creset`), 'reset', 'Fs: full reset');
});

t.test('an introducer that does not begin a complete sequence is removed alone, the rest stays', async (t) => {
  t.equal(stripAnsi(`end${ESC}`), 'end', 'ESC at the end');
  t.equal(stripAnsi(`${ESC}[31`), '[31', 'CSI without a final byte');
  t.equal(stripAnsi(`${ESC}[3\u0007m`), '[3\u0007m', 'CSI broken by a control character');
  t.equal(stripAnsi(`${ESC}]0;title`), ']0;title', 'OSC without a terminator');
  t.equal(stripAnsi(`${ESC}]0;a${ESC}[1mb\u0007`), ']0;ab\u0007', 'an ESC inside an OSC body ends it unterminated');
  t.equal(stripAnsi(`${ESC}é${ESC}\u0001`), 'é\u0001', 'ESC before a character no sequence starts with');
  t.equal(stripAnsi(`${ESC}(`), '(', 'nF without its final byte');
  t.equal(stripAnsi(`${ESC}[${ESC}[31mm`), '[m', 'a broken CSI before a good one: no ESC is left to form a new one');
});

t.test('text and controls that are not escape sequences stay', async (t) => {
  for (const s of ['plain', 'tab\tcr\rbs\bbel\u0007', 'st alone \u009c, nel \u0085', '日本語 😀', '[31m not an escape', '']) {
    t.equal(stripAnsi(s), s, JSON.stringify(s));
  }
});


const FRAGMENTS = [ESC, '[', ']', '\\', '\u0007', '\u009b', '\u009c', '\u009d', '\u0090', '\u009f', 'P', '_', '(', ' ', '#', '3', '1', ';', '?', 'm', 'B', 'x', 'é', '\u0085', '\n', `${ESC}[31m`, `${ESC}]0;t\u0007`, `${ESC}\\`];
const INTRODUCER = /[\u001b\u0090\u0098\u009b\u009d\u009e\u009f]/;

/** True when `sub` can be had from `s` by deleting characters. */
function isSubsequence(sub: string, s: string): boolean {
  let j = 0;
  for (let i = 0; i < s.length && j < sub.length; i++) if (s[i] === sub[j]) j++;
  return j === sub.length;
}

t.test('over 30000 random strings: no introducer survives, stripping twice changes nothing, only deletions', async (t) => {
  const rand = prng(5);
  let failures = 0;
  for (let i = 0; i < 30000; i++) {
    let s = '';
    const n = Math.floor(rand() * 16);
    for (let k = 0; k < n; k++) s += FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)];
    const out = stripAnsi(s);
    const ok = !INTRODUCER.test(out) && stripAnsi(out) === out && isSubsequence(out, s) && (INTRODUCER.test(s) || out === s);
    if (!ok && failures++ < 5) t.fail(`${JSON.stringify(s)} -> ${JSON.stringify(out)}`);
  }
  t.equal(failures, 0, 'no failing case');
});

t.test('stays linear on a long run of unterminated string introducers', async (t) => {
  const s = `${ESC}]x`.repeat(200000);
  const start = process.hrtime.bigint();
  t.equal(stripAnsi(s), ']x'.repeat(200000));
  t.ok(Number(process.hrtime.bigint() - start) / 1e9 < 2, 'under 2 s');
});
