// ANSI escape sequences out of text: commands like /context draw in colour, and
// their stdout is noise with the sequences in it. The grammar is ECMA-48's, strict,
// so that only what a terminal would consume as control goes:
//   CSI     ESC [  or U+009B, parameter bytes 0x30-0x3F*, intermediates 0x20-0x2F*, final 0x40-0x7E
//   strings ESC ] (OSC), ESC P (DCS), ESC X (SOS), ESC ^ (PM), ESC _ (APC), or their C1 forms
//           U+009D, U+0090, U+0098, U+009E, U+009F; the body runs to ST (ESC \ or U+009C),
//           or for OSC also BEL; it may hold no ESC and no C1 control (U+0080-U+009F)
//   nF      ESC, intermediates 0x20-0x2F+, final 0x30-0x7E        (ESC ( B)
//   Fp/Fe/Fs ESC and one byte 0x30-0x7E                          (ESC 7, ESC M, ESC c)
// An ESC or C1 introducer that does not begin a complete sequence is removed by itself
// and what follows stays text, so no ESC and no introducer survives: stripping twice
// changes nothing more. Other control characters (CR, BS, BEL outside OSC) stay.

const ESC = 0x1b;
const BEL = 0x07;
const ST = 0x9c;
/** 7-bit final characters that open a control string after ESC, with their C1 forms. */
const STRING_OPENERS = new Set([0x5d, 0x50, 0x58, 0x5e, 0x5f]);
const C1_STRING_OPENERS = new Set([0x9d, 0x90, 0x98, 0x9e, 0x9f]);
const CSI_7BIT = 0x5b;
const CSI_C1 = 0x9b;
const OSC_7BIT = 0x5d;
const OSC_C1 = 0x9d;
const INTRODUCERS = /[\u001b\u0090\u0098\u009b\u009d-\u009f]/;

/** Index just past a CSI whose parameters start at i, or -1 if it is not complete. */
function csiEnd(s: string, i: number): number {
  while (i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x3f) i++;
  while (i < s.length && s.charCodeAt(i) >= 0x20 && s.charCodeAt(i) <= 0x2f) i++;
  if (i < s.length && s.charCodeAt(i) >= 0x40 && s.charCodeAt(i) <= 0x7e) return i + 1;
  return -1;
}

/** Index just past a control string whose body starts at i (ended by ST, or BEL when `bel`), or -1. */
function controlStringEnd(s: string, i: number, bel: boolean): number {
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === ST || (bel && c === BEL)) return i + 1;
    if (c === ESC) return i + 1 < s.length && s.charCodeAt(i + 1) === 0x5c ? i + 2 : -1;
    if (c >= 0x80 && c <= 0x9f) return -1;
  }
  return -1;
}

/** Index just past the escape sequence introduced at i (an ESC or C1 introducer), or -1 if none completes. */
function sequenceEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === CSI_C1) return csiEnd(s, i + 1);
  if (C1_STRING_OPENERS.has(c)) return controlStringEnd(s, i + 1, c === OSC_C1);
  if (i + 1 >= s.length) return -1;
  const next = s.charCodeAt(i + 1);
  if (next === CSI_7BIT) return csiEnd(s, i + 2);
  if (STRING_OPENERS.has(next)) return controlStringEnd(s, i + 2, next === OSC_7BIT);
  if (next >= 0x20 && next <= 0x2f) {
    let j = i + 1;
    while (j < s.length && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x2f) j++;
    return j < s.length && s.charCodeAt(j) >= 0x30 && s.charCodeAt(j) <= 0x7e ? j + 1 : -1;
  }
  if (next >= 0x30 && next <= 0x7e) return i + 2;
  return -1;
}

/** Remove ANSI escape sequences (CSI, OSC/DCS/SOS/PM/APC strings, nF and two-character escapes, 7-bit and C1 forms). */
export function stripAnsi(s: string): string {
  if (!INTRODUCERS.test(s)) return s;
  let out = '';
  let kept = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== ESC && c !== CSI_C1 && !C1_STRING_OPENERS.has(c)) continue;
    const end = sequenceEnd(s, i);
    out += s.slice(kept, i);
    kept = end < 0 ? i + 1 : end;
    i = kept - 1;
  }
  return out + s.slice(kept);
}
