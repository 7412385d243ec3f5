// The byte pre-filter of tx-grep: which lines of a session file could hold a match,
// found by searching the file's bytes, so that only those lines are ever JSON.parsed.
// A pattern is reduced to literals one of which every match contains
// (pattern-literals.ts). A JSON writer stores a string's characters as their
// UTF-8 bytes, with `"`, `\` and control characters escaped (`\"`, `\\`, `\n`, …), so a
// literal is searched for as JSON.stringify writes it. Any other spelling of a character
// is an escape `\uXXXX` (or `\/` for `/`): a line holding one that spells a character of
// a literal (in either case, with -i) is let through and parsed, so the filter never loses
// a match; the other escapes, such as the ANSI colours (`\u001b`) of tool output, are
// passed over without a look at the line.
// Lines longer than the read size are joined before they are searched, up to the limit
// tx-parse parses (64 MiB); a longer line is dropped as it is read, so memory stays flat.

import { LONG_LINE } from '../input/lines.js';

/** What the pre-filter searches a chunk for: the literal, and the escapes that bypass it. */
export interface Prefilter {
  /** The literals as JSON writes them (for the tests). */
  readonly needles: string[];
  /** The first offset at or after `from` in `buf` where a line could match, or -1. */
  next(buf: Buffer, from: number, text?: () => string): number;
}

const BACKSLASH = 0x5c;
const SLASH_ESCAPE = Buffer.from('\\/');
const ESCAPE = Buffer.from('\\u');
/** Characters outside ASCII that Unicode simple case folding (RE2's, and -i's) makes one with an ASCII letter: K (Kelvin) with k, ſ (long s) with s. */
const ASCII_FOLDS = new Map([
  ['k', '\u212a'],
  ['s', '\u017f'],
]);

/** The code units a literal's characters may be spelled as by an escape: each of its own, and with -i their other cases. */
function escapableUnits(literals: string[], ignoreCase: boolean): Set<number> {
  const units = new Set<number>();
  for (const literal of literals) {
    for (const ch of ignoreCase ? literal + literal.toLowerCase() + literal.toUpperCase() : literal) units.add(ch.charCodeAt(0));
    if (ignoreCase) for (const [ascii, other] of ASCII_FOLDS) if (literal.toLowerCase().includes(ascii)) units.add(other.charCodeAt(0));
  }
  return units;
}

/** The value of a hex digit byte, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/**
 * True when the `\u` at `at` cannot spell a character of the literals: its backslash is
 * itself escaped (`\\u0041` is text about an escape), it is not followed by four hex
 * digits, or the unit it spells is none of `units`.
 */
function harmlessEscape(buf: Buffer, at: number, units: Set<number>): boolean {
  let slashes = 0;
  for (let i = at - 1; i >= 0 && buf[i] === BACKSLASH; i--) slashes++;
  if (slashes % 2 === 1) return true;
  let unit = 0;
  for (let i = at + 2; i < at + 6; i++) {
    const v = i < buf.length ? hexValue(buf[i]) : -1;
    if (v < 0) return true;
    unit = unit * 16 + v;
  }
  return !units.has(unit);
}

/** A pre-filter for literals, any of which lets a line through (null: every line goes through). */
export function prefilterFor(literals: string[] | null, ignoreCase: boolean): Prefilter | null {
  if (literals === null || literals.length === 0) return null;
  const needles = literals.map((l) => JSON.stringify(l).slice(1, -1));
  const searches = needles.map((n) => Buffer.from(n));
  const folded = ignoreCase ? new RegExp(needles.map((n) => n.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('|'), 'gi') : null;
  const units = escapableUnits(literals, ignoreCase);
  // Written raw, the non-ASCII characters that fold to an ASCII letter of a literal (-i).
  const rawFolds = ignoreCase ? [...ASCII_FOLDS].filter(([ascii]) => literals.some((l) => l.toLowerCase().includes(ascii))).map(([, other]) => Buffer.from(other)) : [];
  // `\/` spells only `/`: literals without one need no search for it.
  const slash = literals.some((l) => l.includes('/')) ? [SLASH_ESCAPE] : [];
  // Searches, in order: the literals (one case-folding regular expression under -i), the raw folds, `\/`, `\u`.
  // (One search for `\u`, each hit checked, costs less than one search per escape prefix, even among the ANSI colours of tool output.)
  const plain = [...(folded ? [] : searches), ...rawFolds, ...slash];
  const first = folded ? 1 : 0;
  const count = first + plain.length + 1;
  // The next hit of each search in the buffer last searched: a search is run again only
  // once the caller has moved past its hit, so a chunk is scanned once per search.
  let searched: Buffer | null = null;
  const hits: number[] = new Array(count).fill(-2);
  const find = (k: number, buf: Buffer, from: number, text?: () => string): number => {
    if (k < first) {
      // Case folded over the bytes read as Latin-1: one character per byte, ASCII folds as in the pattern.
      folded!.lastIndex = from;
      const m = folded!.exec(text ? text() : buf.toString('latin1'));
      return m ? m.index : -1;
    }
    if (k < first + plain.length) return buf.indexOf(plain[k - first], from);
    let at = buf.indexOf(ESCAPE, from);
    while (at >= 0 && harmlessEscape(buf, at, units)) at = buf.indexOf(ESCAPE, at + 2);
    return at;
  };
  return {
    needles,
    next(buf, from, text) {
      if (buf !== searched) {
        searched = buf;
        hits.fill(-2);
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
  /**
   * Reads `length` bytes of the file at `position` (the chunks being the file's bytes in
   * order): a line spanning chunks is then read again whole once its end is found, rather
   * than kept in copies of its pieces, so it is held once.
   */
  reread?: (position: number, length: number) => Buffer;
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
  // Where the pending line starts in the file, and where the chunk being read starts (with reread).
  let pendingStart = 0;
  let offset = 0;
  // A line past the limit is dropped as it is read, never joined (tx-parse does not parse it either).
  let tooLong = false;
  const keep = (piece: Buffer, at: number) => {
    if (tooLong) return;
    if (pendingLength === 0) pendingStart = offset + at;
    if (!long.reread) pending.push(Buffer.from(piece));
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
  const joined = (tail: Buffer): Buffer => {
    if (long.reread) return long.reread(pendingStart, pendingLength + tail.length);
    pending.push(tail);
    return Buffer.concat(pending, pendingLength + tail.length);
  };
  for (const chunk of chunks) {
    let start = 0;
    if (pendingLength > 0 || tooLong) {
      const nl = chunk.indexOf(LF);
      if (nl < 0) {
        keep(chunk, 0);
        offset += chunk.length;
        continue;
      }
      if (tooLong || pendingLength + nl > limit) {
        pending = [];
        pendingLength = 0;
        skipped();
      } else {
        const whole = joined(chunk.subarray(0, nl));
        pending = [];
        pendingLength = 0;
        const l = line(whole);
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
    // Copied (or read again): the caller may read the next chunk into the same buffer.
    if (start < chunk.length) keep(chunk.subarray(start), start);
    offset += chunk.length;
  }
  if (tooLong) skipped();
  else if (pendingLength > 0) {
    const l = line(joined(Buffer.alloc(0)));
    if (passes(l.bytes)) yield l;
  }
}

function countLf(buf: Buffer, from: number, to: number): number {
  let count = 0;
  for (let i = buf.indexOf(LF, from); i >= 0 && i < to; i = buf.indexOf(LF, i + 1)) count++;
  return count;
}
