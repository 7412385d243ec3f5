// tx-redact's regular expressions stay linear on hostile input: each own rule, the
// keyword pass and secretlint's preset are run on strings built to make a backtracking
// matcher retry (a keyword then a long run of what its pattern accepts, never
// completed; a keyword repeated; runs of each character class), each 100,000
// characters long. A rule that backtracked catastrophically would take minutes on one
// of them, quadratically seconds; the bound leaves room for a loaded machine.
import t from 'tap';
import { lintText } from '../../lib/redact/secretlint.js';
import { KeywordFinder } from '../../lib/redact/keywords.js';
import { OWN_RULES, compileRule } from '../../lib/redact/rules.js';
import { Scanner } from '../../lib/redact/scan.js';
import { defaultRuleSet } from '../../lib/redact/rules.js';

const SIZE = 100_000;
/** Far above a linear pass over SIZE characters (a few ms), far below a quadratic one. */
const BOUND_MS = 1500;

function fill(unit: string): string {
  return unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
}

/** Strings each built to make some pattern retry at every character. */
function hostile(keywords: string[]): string[] {
  const runs = ['a', 'A', '0', 'aA0', '-', '_', '.', ':', '=', ' ', '"', "'", '$', '{', '}', '${', '/', '@', '+', '\\', '\n', 'a:', 'a=', ':a@', 'a.', '0:', '${a:-', 'x://', 'a:b@'];
  const out = runs.map(fill);
  for (const k of new Set(keywords)) {
    for (const r of ['a', '0', 'aA0-_', '=', ' ', '"', '${', 'A=', '.a']) out.push(k + fill(r).slice(k.length));
    out.push(fill(k + ' '));
    out.push(fill(k));
  }
  out.push(fill('postgresql://${U:-u}:'), fill('redis://:'), fill('Authorization: Bearer '), fill('?token='), fill('API_KEY="'), fill('-----BEGIN RSA PRIVATE KEY-----\n'), fill('eyJabcdefghijk.'), fill('MTabcdefghijklmnopqrstuvwx.abcdef.'), fill('123456:AA'));
  return out;
}

const keywords = OWN_RULES.flatMap((r) => r.keywords ?? []);
const inputs = hostile(keywords);

t.test('each own rule runs in linear time on every hostile string', async (t) => {
  for (const source of OWN_RULES) {
    const rule = compileRule(source);
    let worst = 0;
    let worstInput = '';
    for (const input of inputs) {
      const started = performance.now();
      rule.regex.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = rule.regex.exec(input)) !== null) {
        if (rule.pick) rule.pick(m);
        if (m[0].length === 0) rule.regex.lastIndex++;
      }
      const ms = performance.now() - started;
      if (ms > worst) [worst, worstInput] = [ms, input.slice(0, 24)];
    }
    t.ok(worst < BOUND_MS, `${source.id}: slowest ${worst.toFixed(0)} ms on ${JSON.stringify(worstInput)}…`);
  }
});

t.test('the keyword pass and a whole scan run in linear time on every hostile string', async (t) => {
  const finder = new KeywordFinder(keywords);
  const scanner = new Scanner(defaultRuleSet());
  let worst = 0;
  for (const input of inputs) {
    const started = performance.now();
    finder.in(input);
    scanner.find(input);
    worst = Math.max(worst, performance.now() - started);
  }
  t.ok(worst < BOUND_MS * 4, `slowest ${worst.toFixed(0)} ms over ${inputs.length} strings`);
});

t.test("secretlint's preset runs in linear time on hostile strings of its own hints", async (t) => {
  const hints = ['AKIA', 'AWS_SECRET_ACCESS_KEY=', '-----BEGIN', 'xoxb-', 'SG.', 'ghp_', 'github_pat_', 'sk-', 'npm_', '_authToken=', 'ops_', 'lin_api_', 'https://a:', 'mongodb://', 'postgres://${U:-u}:', 'hooks.slack.com/services/'];
  let worst = 0;
  let worstInput = '';
  for (const input of [...hostile(hints).slice(0, 40), ...hints.map((h) => fill(h + 'a0'))]) {
    const started = performance.now();
    await lintText(input.slice(0, SIZE / 4));
    const ms = performance.now() - started;
    if (ms > worst) [worst, worstInput] = [ms, input.slice(0, 24)];
  }
  t.ok(worst < BOUND_MS * 2, `slowest ${worst.toFixed(0)} ms on ${JSON.stringify(worstInput)}…`);
});
