// A user's search pattern (tx-grep's PATTERN, tx-filter's --grep), matched in time
// linear in the text whatever the pattern: a backtracking engine (JavaScript's own)
// takes exponential time on patterns such as `(a+)+$`, so a regular expression is RE2
// syntax and runs on re2js, a JavaScript port of RE2 (no backreferences, no lookaround:
// RE2 leaves out exactly what cannot be matched in linear time). A plain string needs no
// automaton: it is found by indexOf, or case-insensitively by a JavaScript regular
// expression holding only that string (no quantifier, so nothing to backtrack into), with
// the u flag so that case folds as RE2 folds it (simple case folding: ſ is s, K is k).
// A regular expression first runs as RE2's DFA, which says whether a text matches; only a
// text that does is searched again for where (re2js finds a position with a slower NFA).
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { isPlainPattern, patternLiterals } from './pattern-literals.js';

// re2js is loaded the first time a regular expression is compiled: a plain string, the
// commonest pattern, needs none of its 300 KB (loading it cost each thread about 50 ms).
const require = createRequire(import.meta.url);
let re2js: typeof import('re2js') | null = null;

/** Where a match is in a text: its index and length in UTF-16 code units. */
export interface Match {
  index: number;
  length: number;
}

/** A compiled pattern. */
export interface TextMatcher {
  /** The leftmost match in `text`, or null. */
  find(text: string): Match | null;
  /** True when `text` holds a match. */
  test(text: string): boolean;
}

/** How a pattern is read. */
export interface PatternOptions {
  /** The pattern is a plain string (-F). */
  fixed?: boolean;
  /** Match case-insensitively (-i). */
  ignoreCase?: boolean;
}

/** A pattern RE2 does not accept; the message says why, for a usage error. */
export class PatternError extends Error {}

const SPECIAL = /[\\^$.*+?()[\]{}|/]/g;

/** A plain string found as it is, or case-insensitively by Unicode simple case folding. */
function plainMatcher(text: string, ignoreCase: boolean): TextMatcher {
  if (!ignoreCase) {
    return {
      find: (t) => {
        const at = t.indexOf(text);
        return at < 0 ? null : { index: at, length: text.length };
      },
      test: (t) => t.includes(text),
    };
  }
  const re = new RegExp(text.replace(SPECIAL, '\\$&'), 'iu');
  return {
    find: (t) => {
      const m = re.exec(t);
      return m ? { index: m.index, length: m[0].length } : null;
    },
    test: (t) => re.test(t),
  };
}

/** Why re2js refused a pattern, in a user's words. */
function refusal(err: unknown): string {
  const message = String((err as Error)?.message ?? err).replace(/^error parsing regexp: /, '');
  const hint = /Perl syntax|invalid escape sequence: `\\[1-9]`|invalid named capture: `\(\?<[=!]/.test(message) ? ' (RE2 syntax: no lookahead, lookbehind or backreferences)' : '';
  return `not a regular expression: ${message}${hint}`;
}

/** The literals every match contains, as a quick test of a text before the automaton runs (null: none known). */
function literalTest(pattern: string, ignoreCase: boolean): ((t: string) => boolean) | null {
  const { literals, ignoreCase: folded } = patternLiterals(pattern, false, ignoreCase);
  if (literals === null) return null;
  if (!folded) return (t) => literals.some((l) => t.includes(l));
  const re = new RegExp(literals.map((l) => l.replace(SPECIAL, '\\$&')).join('|'), 'iu');
  return (t) => re.test(t);
}

/** Compile a pattern (RE2 syntax, or a plain string with `fixed`); throws PatternError when it is not one. */
export function compilePattern(pattern: string, options: PatternOptions = {}): TextMatcher {
  const ignoreCase = options.ignoreCase === true;
  if (options.fixed || isPlainPattern(pattern)) return plainMatcher(pattern, ignoreCase);
  const { RE2JS } = (re2js ??= require('re2js') as typeof import('re2js'));
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (err) {
    throw new PatternError(refusal(err));
  }
  const quick = literalTest(pattern, ignoreCase);
  const test = (t: string) => (quick === null || quick(t)) && re.test(t);
  return {
    test,
    find: (t) => {
      if (!test(t)) return null;
      const m = re.matcher(t);
      return m.find() ? { index: m.start(), length: m.end() - m.start() } : null;
    },
  };
}
