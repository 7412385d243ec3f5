// The byte pre-filter of tx-grep: which lines of a session file could hold a match,
// found by searching the file's bytes, so that only those lines are ever JSON.parsed.
// A pattern is reduced to a literal every match must contain (the whole text for a
// fixed string; for a regular expression, its longest run of plain characters outside
// groups; one per branch of a top-level alternation, any of which lets a line through). A JSON writer stores a string's characters as their UTF-8
// bytes, with `"`, `\` and control characters escaped (`\"`, `\\`, `\n`, …), so the
// literal is searched for as JSON.stringify writes it. Any other spelling of a
// character goes through an escape that starts `\u` (or is `\/`, which matters only for
// a literal with a `/`): a line holding one (other than JSON.stringify's own `\u00XX`
// for a control character, or a `\u` that is no escape) is always let through and
// parsed, so the filter never loses a match.
// Lines longer than the read size are joined before they are searched, up to the limit
// tx-parse parses (64 MiB); a longer line is dropped as it is read, so memory stays flat.

import { LONG_LINE } from './input/lines.js';

/** What the pre-filter searches a chunk for: the literal, and the escapes that bypass it. */
export interface Prefilter {
  /** The literals as JSON writes them (for the tests). */
  readonly needles: string[];
  /** The first offset at or after `from` in `buf` where a line could match, or -1. */
  next(buf: Buffer, from: number, text?: () => string): number;
}

const BYPASS = [Buffer.from('\\u'), Buffer.from('\\/')];

/**
 * True when the `\u` at `at` is not an escape that could spell a character of the
 * literal: a backslash that is itself escaped (`\\user`, text about a path), `\u` not
 * followed by four hex digits, or `\u0000`…`\u001f` in lower case, the spelling
 * JSON.stringify itself gives a control character (so the literal holds it the same
 * way). Tool output full of ANSI escapes (`\u001b`) is not parsed for them.
 */
function harmlessU(buf: Buffer, at: number): boolean {
  let slashes = 0;
  for (let i = at - 1; i >= 0 && buf[i] === 0x5c; i--) slashes++;
  if (slashes % 2 === 1) return true;
  const hex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
  if (!hex(buf[at + 2]) || !hex(buf[at + 3]) || !hex(buf[at + 4]) || !hex(buf[at + 5])) return true;
  const lowerHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66);
  return buf[at + 2] === 0x30 && buf[at + 3] === 0x30 && (buf[at + 4] === 0x30 || buf[at + 4] === 0x31) && lowerHex(buf[at + 5]);
}

/**
 * Literals one of which every match of `pattern` contains (one per branch of a top-level
 * alternation), or null when none can be known (a branch with no plain character). With
 * `ignoreCase` only ASCII runs count: the pre-filter folds ASCII case only (as a
 * JavaScript regular expression without the u flag does).
 */
export function requiredLiterals(pattern: string, fixed: boolean, ignoreCase: boolean): string[] | null {
  const literals: string[] = [];
  for (const branch of fixed ? [pattern] : topLevelBranches(pattern)) {
    const runs: string[] = [];
    if (fixed) runs.push(branch);
    else regexRuns(branch, runs);
    let best = '';
    for (const run of runs) {
      for (const part of ignoreCase ? run.split(/[^\x00-\x7f]+/) : [run]) if (part.length > best.length) best = part;
    }
    if (best.length === 0) return null;
    if (!literals.includes(best)) literals.push(best);
  }
  return literals;
}

/** The branches of a regular expression's top-level alternation (the whole pattern when it has none). */
function topLevelBranches(p: string): string[] {
  const branches: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '[') {
      for (i++; i < p.length && p[i] !== ']'; i++) if (p[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === '|' && depth === 0) {
      branches.push(p.slice(start, i));
      start = i + 1;
    }
  }
  branches.push(p.slice(start));
  return branches;
}

/** Push the runs of plain characters every match of a regular expression without top-level alternation contains. */
function regexRuns(p: string, runs: string[]): void {
  let depth = 0;
  let cur = '';
  const cut = () => {
    if (cur) runs.push(cur);
    cur = '';
  };
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      const e = p[i + 1] ?? '';
      if (/[^A-Za-z0-9]/.test(e) && e !== '') {
        if (depth === 0) cur += e;
        i++;
        continue;
      }
      // A class (\d \w \s…), an assertion, a control or code escape, a back reference: no plain character.
      cut();
      if (e === 'x') i += 3;
      else if (e === 'u') i += 5;
      else if (e === 'c') i += 2;
      else i += 1;
      continue;
    }
    if (c === '[') {
      cut();
      for (i++; i < p.length && p[i] !== ']'; i++) if (p[i] === '\\') i++;
      continue;
    }
    if (c === '(') {
      cut();
      depth++;
      continue;
    }
    if (c === ')') {
      cut();
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (c === '|') continue;
    if (c === '*' || c === '?' || c === '{') {
      // The character before is optional (or repeated a number of times that may be 0).
      if (depth === 0) cur = cur.slice(0, -1);
      cut();
      continue;
    }
    if (c === '+' || c === '.' || c === '^' || c === '$' || c === '}') {
      cut();
      continue;
    }
    if (depth === 0) cur += c;
  }
  cut();
}

/** A pre-filter for literals, any of which lets a line through (null: every line goes through). */
export function prefilterFor(literals: string[] | null, ignoreCase: boolean): Prefilter | null {
  if (literals === null || literals.length === 0) return null;
  const needles = literals.map((l) => JSON.stringify(l).slice(1, -1));
  const searches = needles.map((n) => Buffer.from(n));
  const escaped = needles.map((n) => n.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'));
  const folded = ignoreCase ? new RegExp(escaped.join('|'), 'gi') : null;
  // Searches: the literals (one case-folding regular expression under -i), `\/`, then `\u`.
  const count = (folded ? 1 : needles.length) + 2;
  const slash = literals.some((l) => l.includes('/'));
  // The next hit of each search in the buffer last searched: a search is run again only
  // once the caller has moved past its hit, so a chunk is scanned once per search.
  let searched: Buffer | null = null;
  const hits: number[] = new Array(count).fill(-2);
  const find = (k: number, buf: Buffer, from: number, text?: () => string): number => {
    if (k === count - 1) {
      let at = buf.indexOf(BYPASS[0], from);
      while (at >= 0 && harmlessU(buf, at)) at = buf.indexOf(BYPASS[0], at + 2);
      return at;
    }
    if (k === count - 2) return buf.indexOf(BYPASS[1], from);
    if (folded) {
      // Case folded over the bytes read as Latin-1: one character per byte, ASCII folds as in the pattern.
      folded.lastIndex = from;
      const m = folded.exec(text ? text() : buf.toString('latin1'));
      return m ? m.index : -1;
    }
    return buf.indexOf(searches[k], from);
  };
  return {
    needles,
    next(buf, from, text) {
      if (buf !== searched) {
        searched = buf;
        hits.fill(-2);
        // `\/` spells only `/`: literals without one need no search for it.
        if (!slash) hits[count - 2] = -1;
      }
      let best = -1;
      for (let k = 0; k < count; k++) {
        if (hits[k] !== -1 && hits[k] < from) hits[k] = find(k, buf, from, text);
        if (hits[k] >= 0 && (best < 0 || hits[k] < best)) best = hits[k];
      }
      return best;
    },
  };
}

const LF = 0x0a;
const CR = 0x0d;

/** What becomes of lines longer than a limit: they are not searched, and said. */
export interface LongLines {
  /** Bytes (default LONG_LINE, 64 MiB, as tx-parse). */
  limit?: number;
  /** Called with the line number of each line not searched. */
  onLong?: (n: number) => void;
}

/** A line that may match: its 1-based number and its bytes (valid until the next chunk is read). */
export interface CandidateLine {
  n: number;
  bytes: Buffer;
}

/**
 * The lines of a file (given as chunks) that the pre-filter lets through, numbered as
 * tx-parse numbers them, without the line end (and without a BOM on line 1). With no
 * pre-filter every line comes out. A line's bytes are valid until the next chunk is
 * asked for (the chunks' buffers may be reused). Lines that end in one chunk are found by searching
 * the chunk; a line spanning chunks is joined once and then searched.
 */
export function* candidateLines(chunks: Iterable<Buffer>, filter: Prefilter | null, long: LongLines = {}): Generator<CandidateLine> {
  const limit = long.limit ?? LONG_LINE;
  let n = 0;
  let pending: Buffer[] = [];
  let pendingLength = 0;
  // A line past the limit is dropped as it is read, never joined (tx-parse does not parse it either).
  let tooLong = false;
  const keep = (piece: Buffer) => {
    if (tooLong) return;
    pending.push(Buffer.from(piece));
    pendingLength += piece.length;
    if (pendingLength > limit) {
      tooLong = true;
      pending = [];
      pendingLength = 0;
    }
  };
  const skipped = () => {
    tooLong = false;
    long.onLong?.(++n);
  };
  const line = (bytes: Buffer): CandidateLine => {
    n++;
    if (n === 1 && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    return { n, bytes };
  };
  const passes = (bytes: Buffer) => filter === null || filter.next(bytes, 0) >= 0;
  for (const chunk of chunks) {
    let start = 0;
    if (pendingLength > 0 || tooLong) {
      const nl = chunk.indexOf(LF);
      if (nl < 0) {
        keep(chunk);
        continue;
      }
      if (tooLong || pendingLength + nl > limit) {
        pending = [];
        pendingLength = 0;
        skipped();
      } else {
        pending.push(chunk.subarray(0, nl));
        const joined = Buffer.concat(pending, pendingLength + nl);
        pending = [];
        pendingLength = 0;
        const l = line(joined);
        if (passes(l.bytes)) yield l;
      }
      start = nl + 1;
    }
    const last = chunk.lastIndexOf(LF);
    if (last >= start) {
      const region = chunk.subarray(start, last + 1);
      if (filter === null) {
        for (let at = 0; at < region.length; ) {
          const nl = region.indexOf(LF, at);
          if (nl - at > limit) skipped();
          else yield line(region.subarray(at, nl));
          at = nl + 1;
        }
      } else {
        let text: string | null = null;
        const latin1 = () => (text ??= region.toString('latin1'));
        let at = 0;
        for (;;) {
          const hit = filter.next(region, at, latin1);
          if (hit < 0) {
            n += countLf(region, at, region.length);
            break;
          }
          const lineStart = hit === 0 ? 0 : region.lastIndexOf(LF, hit - 1) + 1;
          n += countLf(region, at, lineStart);
          const nl = region.indexOf(LF, hit);
          if (nl - lineStart > limit) skipped();
          else yield line(region.subarray(lineStart, nl));
          at = nl + 1;
        }
      }
      start = last + 1;
    }
    // Copied: the caller may read the next chunk into the same buffer.
    if (start < chunk.length) keep(chunk.subarray(start));
  }
  if (tooLong) skipped();
  else if (pendingLength > 0) {
    const l = line(Buffer.concat(pending, pendingLength));
    if (passes(l.bytes)) yield l;
  }
}

function countLf(buf: Buffer, from: number, to: number): number {
  let count = 0;
  for (let i = buf.indexOf(LF, from); i >= 0 && i < to; i = buf.indexOf(LF, i + 1)) count++;
  return count;
}
