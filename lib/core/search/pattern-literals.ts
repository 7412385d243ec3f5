// The literals a search pattern requires: what tx-grep's byte pre-filter searches a
// file for before it parses any line, and what a text is checked for before the
// regular expression runs. A pattern is RE2 syntax (lib/core/pattern.ts); it is read
// here only as far as needed to know which plain characters every match contains, and
// anything this reading does not know for certain gives no literal (every line is then
// parsed), never a wrong one.

/** The literals of a pattern, one of which every match contains, and whether they match case-insensitively. */
export interface PatternLiterals {
  /** One literal per top-level branch (deduplicated); null when none can be known. */
  literals: string[] | null;
  /** True with -i, or when the pattern sets the i flag anywhere (`(?i)`). */
  ignoreCase: boolean;
}

/**
 * A piece of a branch: a plain character, a group (its branches' pieces), a quantifier
 * (how often the piece before it occurs, at least), or anything else.
 */
type Piece = { char: string } | { group: Piece[][] } | { min: number } | { other: true };

const REPEAT = /^\{(\d+)(?:,(\d*))?\}/;
const CONTROL: Record<string, string> = { a: '\x07', f: '\f', t: '\t', n: '\n', r: '\r', v: '\v' };
const CLASS_ESCAPES = 'dDwWsSbBAzC';

/**
 * The top-level branches of an RE2 pattern as pieces (groups nested, read with a stack of
 * their own, not by recursion), and whether it sets the i flag; null when the pattern
 * holds something this reader does not know (an octal escape, an unbalanced group...),
 * which RE2 may reject or read otherwise.
 */
function readPattern(p: string): { branches: Piece[][]; ignoreCase: boolean } | null {
  // The branches of each open group, innermost last; the first is the pattern's.
  const open: Piece[][][] = [[[]]];
  let ignoreCase = false;
  const add = (piece: Piece) => {
    const branches = open[open.length - 1];
    branches[branches.length - 1].push(piece);
  };
  let i = 0;
  const optionalLazy = () => {
    if (p[i] === '?') i++;
  };
  while (i < p.length) {
    const c = p[i];
    if (c === '\\') {
      const e = p[i + 1];
      if (e === undefined) return null;
      if (e === 'Q') {
        const end = p.indexOf('\\E', i + 2);
        const quoted = p.slice(i + 2, end < 0 ? p.length : end);
        for (const ch of quoted) add({ char: ch });
        i = end < 0 ? p.length : end + 2;
        continue;
      }
      if (e === 'x') {
        const m = /^\\x(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{2}))/.exec(p.slice(i));
        if (!m) return null;
        const code = parseInt(m[1] ?? m[2], 16);
        if (code > 0x10ffff) return null;
        add({ char: String.fromCodePoint(code) });
        i += m[0].length;
        continue;
      }
      if (e === 'p' || e === 'P') {
        if (p[i + 2] === '{') {
          const end = p.indexOf('}', i + 3);
          if (end < 0) return null;
          i = end + 1;
        } else i += 3;
        add({ other: true });
        continue;
      }
      if (CLASS_ESCAPES.includes(e)) {
        add({ other: true });
        i += 2;
        continue;
      }
      if (e in CONTROL) {
        add({ char: CONTROL[e] });
        i += 2;
        continue;
      }
      // Escaped punctuation is the character itself; any other escape (octal, a letter RE2 rejects) is not read.
      if (/[A-Za-z0-9]/.test(e) || e.charCodeAt(0) > 0x7f) return null;
      add({ char: e });
      i += 2;
      continue;
    }
    if (c === '[') {
      const end = classEnd(p, i);
      if (end < 0) return null;
      add({ other: true });
      i = end;
      continue;
    }
    if (c === '(') {
      if (p[i + 1] === '?') {
        const flags = /^\(\?([imsU-]*)([):])/.exec(p.slice(i));
        if (flags) {
          if (flags[1].includes('i')) ignoreCase = true;
          i += flags[0].length;
          if (flags[2] === ')') continue;
        } else if (/^\(\?P?<[A-Za-z0-9_]+>/.test(p.slice(i))) {
          i = p.indexOf('>', i) + 1;
        } else return null;
      } else i++;
      open.push([[]]);
      continue;
    }
    if (c === ')') {
      if (open.length === 1) return null;
      const group = open.pop()!;
      add({ group });
      i++;
      continue;
    }
    if (c === '|') {
      open[open.length - 1].push([]);
      i++;
      continue;
    }
    if (c === '*' || c === '?' || c === '+') {
      add({ min: c === '+' ? 1 : 0 });
      i++;
      optionalLazy();
      continue;
    }
    if (c === '{') {
      const m = REPEAT.exec(p.slice(i));
      if (m) {
        add({ min: Number(m[1]) });
        i += m[0].length;
        optionalLazy();
        continue;
      }
      // RE2 reads a brace that starts no repetition as itself.
      add({ char: c });
      i++;
      continue;
    }
    if (c === '.' || c === '^' || c === '$') {
      add({ other: true });
      i++;
      continue;
    }
    const ch = String.fromCodePoint(p.codePointAt(i)!);
    add({ char: ch });
    i += ch.length;
  }
  if (open.length !== 1) return null;
  return { branches: open[0], ignoreCase };
}

/** Index just past the character class opening at `at` (RE2 rules: a `]` first is literal, `[:name:]` inside), or -1. */
function classEnd(p: string, at: number): number {
  let i = at + 1;
  if (p[i] === '^') i++;
  if (p[i] === ']') i++;
  while (i < p.length) {
    const c = p[i];
    if (c === ']') return i + 1;
    if (c === '\\') {
      const e = p[i + 1];
      if (e === undefined || e === 'Q') return -1;
      if ((e === 'x' || e === 'p' || e === 'P') && p[i + 2] === '{') {
        const end = p.indexOf('}', i + 3);
        if (end < 0) return -1;
        i = end + 1;
      } else i += 2;
      continue;
    }
    if (c === '[' && p[i + 1] === ':') {
      const end = p.indexOf(':]', i + 2);
      if (end < 0) return -1;
      i = end + 2;
      continue;
    }
    i++;
  }
  return -1;
}

/** The most alternatives a run may have (each is one more search of every byte). */
const MAX_ALTERNATIVES = 8;

/** The strings of a group each of whose branches is plain characters only (`(stream|value)`), or null. */
function plainAlternatives(branches: Piece[][], ignoreCase: boolean): string[] | null {
  const alternatives: string[] = [];
  for (const branch of branches) {
    let s = '';
    for (const piece of branch) {
      if (!('char' in piece) || (ignoreCase && piece.char.charCodeAt(0) > 0x7f)) return null;
      s += piece.char;
    }
    alternatives.push(s);
  }
  return alternatives;
}

/**
 * The runs a branch's every match contains: each a set of strings, one of which is in the
 * match (plain characters in a row, times the plain alternatives of a group among them:
 * `deploy (stream|value)` is deploy stream or deploy value). With `ignoreCase` only ASCII
 * counts (the pre-filter folds ASCII case).
 */
function branchRuns(pieces: Piece[], ignoreCase: boolean): string[][] {
  const runs: string[][] = [];
  let cur = [''];
  // The run as it was before the last piece, for a quantifier that makes that piece optional.
  let before = cur;
  const cut = () => {
    if (cur.every((s) => s.length > 0)) runs.push(cur);
    cur = [''];
    before = cur;
  };
  for (const piece of pieces) {
    if ('char' in piece && !(ignoreCase && piece.char.charCodeAt(0) > 0x7f)) {
      before = cur;
      cur = cur.map((s) => s + piece.char);
    } else if ('group' in piece) {
      const alternatives = plainAlternatives(piece.group, ignoreCase);
      if (alternatives === null || alternatives.length * cur.length > MAX_ALTERNATIVES) cut();
      else {
        before = cur;
        cur = cur.flatMap((s) => alternatives.map((a) => s + a));
      }
    } else if ('min' in piece) {
      // The piece before may occur no time at all: it is not required. Repeated, it ends the run.
      if (piece.min === 0) cur = before;
      cut();
    } else cut();
  }
  cut();
  return runs;
}

/** The better of two runs: the one whose shortest string is longer (rarer in text), then the one with fewer strings. */
function better(a: string[], b: string[] | null): boolean {
  if (b === null) return true;
  const shortest = (r: string[]) => Math.min(...r.map((s) => s.length));
  return shortest(a) > shortest(b) || (shortest(a) === shortest(b) && a.length < b.length);
}

/**
 * The literals one of which every match of `pattern` contains: the text itself for a
 * fixed string, else the longest run of plain characters outside groups of each
 * top-level branch. Case-insensitively only ASCII runs count (the pre-filter folds ASCII
 * case and the few other characters that fold to ASCII letters).
 */
export function patternLiterals(pattern: string, fixed: boolean, ignoreCase: boolean): PatternLiterals {
  let branchesRuns: string[][][];
  if (fixed) branchesRuns = [ignoreCase ? pattern.split(/[^\x00-\x7f]+/).filter(Boolean).map((s) => [s]) : [[pattern]]];
  else {
    const read = readPattern(pattern);
    if (read === null) return { literals: null, ignoreCase };
    ignoreCase ||= read.ignoreCase;
    const folds = ignoreCase;
    branchesRuns = read.branches.map((b) => branchRuns(b, folds));
  }
  const literals: string[] = [];
  for (const runs of branchesRuns) {
    let best: string[] | null = null;
    for (const run of runs) if (better(run, best)) best = run;
    if (best === null || best.some((s) => s.length === 0)) return { literals: null, ignoreCase };
    for (const s of best) if (!literals.includes(s)) literals.push(s);
  }
  if (literals.length > MAX_ALTERNATIVES) return { literals: null, ignoreCase };
  return { literals, ignoreCase };
}

/** True when an RE2 pattern is a plain string (no character with a meaning of its own). */
export function isPlainPattern(pattern: string): boolean {
  return !/[\\.+*?()|[\]{}^$]/.test(pattern);
}
