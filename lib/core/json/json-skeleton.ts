// A bounded stand-in for a JSON line too long to hold: the shallow scans (tx-ls's
// metadata, a subagent's spawning call) read a few fields near the top of a line, and a
// line of hundreds of MB (a pasted file, a base64 image) would cost several times its
// size to join and parse. Fed the line in pieces, this copies its structure and keeps
// it valid JSON: a string keeps its first STRING_KEEP bytes, a value nested deeper than
// MAX_DEPTH becomes null, and past SOFT_LIMIT bytes the rest of a nested object or
// array is left out (past HARD_LIMIT, the rest of the line). What a caller finds in it
// is what the line says, shortened; no byte of the line is held beyond the copy.

/** Bytes a string keeps of its content. */
export const STRING_KEEP = 64 * 1024;
/** Past this many bytes of copy, the members after a nested value are left out. */
const SOFT_LIMIT = 1024 * 1024;
/** Past this many bytes of copy, every member after is left out, at the top level too. */
const HARD_LIMIT = 4 * 1024 * 1024;
/** Values nested deeper than this become null. */
const MAX_DEPTH = 64;
/** A number or literal longer than this becomes 0. */
const TOKEN_KEEP = 40;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** Builds the skeleton of one JSON text from its bytes in pieces. */
export class JsonSkeleton {
  private parts: Buffer[] = [];
  private piece = Buffer.allocUnsafe(64 * 1024);
  private fill = 0;
  private size = 0;
  /** Nesting of the source at this point. */
  private depth = 0;
  /** While > 0: the source is inside a value left out, which ends when depth falls below this. */
  private skipBelow = 0;
  /** A left-out value's closing bracket is written (the members after one were left out), or not (the value became null). */
  private skipCloses = false;
  private inString = false;
  /** Just after a backslash in a string; bytes of a \u escape still to come. */
  private slash = false;
  private escape = 0;
  /** Content bytes of the current string copied so far; and whether it is being cut. */
  private kept = 0;
  private cutting = false;
  /** A number or literal being copied (bytes held until it ends, to drop one too long). */
  private token: number[] = [];

  /** Take the next bytes of the text. */
  feed(bytes: Buffer): void {
    // Where the next quote and backslash are (searched again once passed): a string being
    // cut is crossed by search, not byte by byte.
    let quote = -1;
    let slash = -1;
    for (let i = 0; i < bytes.length; i++) {
      if (this.inString && this.cutting && !this.slash && this.escape === 0) {
        if (quote < i) quote = bytes.indexOf(QUOTE, i) >>> 0;
        if (slash < i) slash = bytes.indexOf(BACKSLASH, i) >>> 0;
        // (-1 >>> 0 is past any index: no more of them in this piece.)
        i = Math.min(quote, slash);
        if (i >= bytes.length) return;
      }
      const b = bytes[i];
      if (this.inString) {
        this.stringByte(b);
        continue;
      }
      if (this.skipBelow > 0) {
        // Inside a left-out value: only its nesting and its strings matter.
        if (b === QUOTE) this.startString(true);
        else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth++;
        else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
          this.depth--;
          if (this.depth < this.skipBelow) {
            this.skipBelow = 0;
            if (this.skipCloses) this.put(b);
          }
        }
        continue;
      }
      if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) {
        this.endToken();
        continue;
      }
      if (isTokenByte(b)) {
        this.token.push(b);
        continue;
      }
      this.endToken();
      if (b === QUOTE) {
        this.startString(false);
        this.put(b);
      } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        this.depth++;
        if (this.depth > MAX_DEPTH) {
          // Too deep to copy: the whole value is null.
          this.putText('null');
          this.skipBelow = this.depth;
          this.skipCloses = false;
        } else this.put(b);
      } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        this.depth--;
        this.put(b);
      } else if (b === COMMA && (this.size > HARD_LIMIT || (this.depth > 1 && this.size > SOFT_LIMIT))) {
        // The members after this one are left out: the container is closed where it ends.
        this.skipBelow = this.depth;
        this.skipCloses = true;
      } else this.put(b);
    }
  }

  private startString(leftOut: boolean): void {
    this.inString = true;
    this.slash = false;
    this.escape = 0;
    this.kept = 0;
    this.cutting = leftOut;
  }

  /** The skeleton, once the whole text was fed. */
  finish(): Buffer {
    this.endToken();
    if (this.inString) this.put(QUOTE);
    this.parts.push(this.piece.subarray(0, this.fill));
    return Buffer.concat(this.parts);
  }

  private stringByte(b: number): void {
    if (this.slash) {
      this.slash = false;
      this.escape = b === 0x75 ? 4 : 0;
    } else if (this.escape > 0) this.escape--;
    else if (b === QUOTE) {
      this.inString = false;
      if (this.skipBelow === 0) this.put(b);
      return;
    } else {
      // A character begins here, outside any escape: the one place a string may be cut,
      // so the copy stays valid UTF-8 and JSON.
      if ((b & 0xc0) !== 0x80 && this.kept >= STRING_KEEP) this.cutting = true;
      if (b === BACKSLASH) this.slash = true;
    }
    if (this.cutting) return;
    this.kept++;
    this.put(b);
  }

  private endToken(): void {
    if (this.token.length === 0) return;
    if (this.token.length > TOKEN_KEEP) this.putText('0');
    else for (const b of this.token) this.put(b);
    this.token = [];
  }

  private putText(text: string): void {
    for (let i = 0; i < text.length; i++) this.put(text.charCodeAt(i));
  }

  private put(b: number): void {
    if (this.fill === this.piece.length) {
      this.parts.push(this.piece);
      this.piece = Buffer.allocUnsafe(this.piece.length);
      this.fill = 0;
    }
    this.piece[this.fill++] = b;
    this.size++;
  }
}

/** Bytes of a number or a literal (true, false, null). */
function isTokenByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2b || b === 0x2e || (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a);
}
