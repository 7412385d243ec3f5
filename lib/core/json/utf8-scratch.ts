// One buffer that long text is encoded into, used again by every caller that is done
// with the bytes before it returns (it copies them, or writes them out). A buffer of
// its own per long text is fresh memory the process must be given page by page, and on
// a machine where that is slow it cost more than the encoding (see docs/speed.md,
// "Fresh memory"). JavaScript runs one call at a time, so callers never see each other's bytes.

/** The longest text encoded into the shared buffer, in UTF-8 bytes at most (3 per UTF-16 unit). */
const SCRATCH = 1024 * 1024;
let scratch: Buffer | null = null;

/** Text's UTF-8, in the shared buffer (valid until the next call) when it fits, else in a buffer of its own. */
export function utf8Scratch(text: string): Buffer {
  if (text.length * 3 > SCRATCH) return Buffer.from(text);
  scratch ??= Buffer.allocUnsafe(SCRATCH);
  return scratch.subarray(0, scratch.write(text));
}
