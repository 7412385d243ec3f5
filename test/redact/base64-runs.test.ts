// The base64 run scan finds what the regular expression it replaced found: every maximal
// run of 40 or more characters of either alphabet, with up to two '=' after, in order.
// Random texts biased to runs around 40 characters, and the edges named one by one.
import t from 'tap';
import { forEachBase64Run, MIN_BASE64 } from '../../lib/redact/base64-runs.js';
import { prng } from '../helpers.js';

const BY_REGEX = new RegExp(`(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{${MIN_BASE64}}[A-Za-z0-9+/_-]*={0,2}`, 'g');

function byRegex(text: string): string[] {
  return [...text.matchAll(BY_REGEX)].map((m) => `${m.index}-${m.index + m[0].length}`);
}

function byScan(text: string): string[] {
  const runs: string[] = [];
  forEachBase64Run(text, (start, end) => {
    runs.push(`${start}-${end}`);
  });
  return runs;
}

const IN = 'Az09+/_-';
const OUT = [' ', '=', '\\', '"', '.', 'é', '中', '\n', '\u{1F600}'];

function randomText(random: () => number): string {
  let text = '';
  const pieces = 1 + Math.floor(random() * 12);
  for (let p = 0; p < pieces; p++) {
    const length = Math.floor(random() * 90);
    for (let i = 0; i < length; i++) text += IN[Math.floor(random() * IN.length)];
    const gap = Math.floor(random() * 4);
    for (let i = 0; i < gap; i++) text += OUT[Math.floor(random() * OUT.length)];
  }
  return text;
}

t.test('random texts: the same runs as the regular expression', async (t) => {
  const random = prng(4242);
  let runs = 0;
  let differ = 0;
  for (let i = 0; i < 5000; i++) {
    const text = randomText(random);
    const want = byRegex(text);
    runs += want.length;
    if (byScan(text).join() !== want.join()) differ++;
  }
  t.ok(runs > 1000, `the texts hold runs (${runs})`);
  t.equal(differ, 0, 'no text where the scan and the regular expression disagree');
});

t.test('the edges', async (t) => {
  const r = (n: number, c = 'A') => c.repeat(n);
  const cases: Array<[string, string, string[]]> = [
    ['39 characters are not a run', r(39), []],
    ['40 at the very start and end', r(40), ['0-40']],
    ['a run at the end of a text', `x ${r(45)}`, ['2-47']],
    ['two = after a run, not three', `${r(40)}===`, ['0-42']],
    ['a run after =', `${r(40)}==${r(40)}`, ['0-42', '42-82']],
    ['a non-ASCII character breaks a run', `${r(30)}é${r(30)}`, []],
    ['a character outside the BMP breaks a run', `${r(20)}\u{1F600}${r(60)}`, ['22-82']],
  ];
  for (const [name, text, want] of cases) t.same(byScan(text), want, name);
});

t.test('a callback returning true stops the scan', async (t) => {
  const seen: number[] = [];
  forEachBase64Run(`${'A'.repeat(40)} ${'B'.repeat(40)} ${'C'.repeat(40)}`, (start) => {
    seen.push(start);
    return seen.length === 2;
  });
  t.same(seen, [0, 41]);
});
