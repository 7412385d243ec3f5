// Finding the base64 runs of a text: maximal runs of at least MIN_BASE64 characters of
// either alphabet (A-Z a-z 0-9 + / _ -), with up to two '=' after. A scan that looks at
// every MIN_BASE64th character until one is in a run, then at that run's ends only: text
// has a character outside the alphabets every few characters, so most are never read.
// (The regular expression it replaces, /(?<![…])[…]{40}[…]*={0,2}/g, read every
// character and took ten times as long.)

/** Shortest base64 run that is decoded: shorter runs are identifiers and hashes more often than payloads. */
export const MIN_BASE64 = 40;

const ALPHABET = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') ALPHABET[c.charCodeAt(0)] = 1;

function inAlphabet(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 128 && ALPHABET[c] === 1;
}

/** Each base64 run in `text` as [start, end), in order; `each` returning true stops the scan. */
export function forEachBase64Run(text: string, each: (start: number, end: number) => boolean | void): void {
  const n = text.length;
  // Every run of MIN_BASE64 or more not yet seen starts after `probe - MIN_BASE64`, and
  // the character before that is outside the alphabets: a run that long holds `probe`.
  let probe = MIN_BASE64 - 1;
  while (probe < n) {
    if (!inAlphabet(text, probe)) {
      probe += MIN_BASE64;
      continue;
    }
    let start = probe;
    while (start > 0 && inAlphabet(text, start - 1)) start--;
    let end = probe + 1;
    while (end < n && inAlphabet(text, end)) end++;
    if (end - start >= MIN_BASE64) {
      let padded = end;
      while (padded < n && padded - end < 2 && text.charCodeAt(padded) === 0x3d) padded++;
      if (each(start, padded) === true) return;
    }
    probe = end + MIN_BASE64;
  }
}
