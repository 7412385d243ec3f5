// tx-native's lines of one input that are neither records nor Common lines: native
// session lines, and the lines among them that are not JSON objects (a blank line, a
// line that is not JSON, `[1,2]`, `42`, `null`). tx-parse keeps each of those as a
// record and tx-native writes it back, so here too they are written back unchanged once
// the input has shown a native session line. Before the input shows what it is, such
// lines wait (bounded), so a file that begins with one reads as tx-parse | tx-native reads
// it; after a record or a Common line, and before any native line, they are skipped.
import type { PhysicalLine } from '../core/input/lines.js';
import type { Context } from '../core/tool.js';
import { DEFAULT_HARNESS } from '../codecs.js';
import { pushNative } from '../records/read.js';
import { recordView } from '../records/record-bytes.js';

/** What a line that is not a JSON object is: said in its message. */
export type OddLine = 'blank line' | 'not JSON' | 'a JSON value that is not an object';

/** Lines held before the input shows what it is, at most: past it they are skipped. */
const HOLD_BYTES = 1024 * 1024;
const HOLD_LINES = 4096;

/** One input's native lines and the odd lines among them, written back as a record of each would be. */
export class NativeLines {
  /** What the input has shown: nothing yet, a native session line, or a record or Common line first. */
  private shown: 'nothing' | 'native' | 'other' = 'nothing';
  private held: { line: PhysicalLine; odd: OddLine }[] = [];
  private heldBytes = 0;

  constructor(
    private readonly ctx: Context,
    private readonly src: string | undefined,
    /** Called before a line is written (closes a document the output has open). */
    private readonly beforeWrite: () => void = () => {},
  ) {}

  /** A native session line (a JSON object, not a record nor Common); `before` closes what the output had open. */
  async nativeLine(line: PhysicalLine, before: () => Promise<void>): Promise<void> {
    if (this.shown !== 'native') this.ctx.noteOnce(`${this.src ?? 'stdin'}: native session lines, not records: written back unchanged`, 'of native session lines, written back unchanged');
    this.shown = 'native';
    await before();
    this.release(true);
    this.write(line);
    await this.ctx.out.flushIfFull();
  }

  /** A line that is not a JSON object: written back among native lines, else held until the input shows what it is. */
  async oddLine(line: PhysicalLine, odd: OddLine): Promise<void> {
    if (this.shown === 'native') {
      this.ctx.warn({ src: this.src, n: line.n }, `${odd}, written back unchanged`);
      this.write(line);
      await this.ctx.out.flushIfFull();
      return;
    }
    if (this.shown === 'other') {
      this.skip(line, odd);
      return;
    }
    if (this.heldBytes + line.bytes.length > HOLD_BYTES || this.held.length >= HOLD_LINES) this.release(false);
    // The line's bytes may lie in a buffer the reader uses again.
    this.held.push({ line: { ...line, bytes: Buffer.from(line.bytes) }, odd });
    this.heldBytes += line.bytes.length;
  }

  /** The input shows a record or a Common line here (or ends): what waited was not native, and is skipped. */
  notNative(): void {
    if (this.shown === 'nothing') this.shown = 'other';
    this.release(false);
  }

  private release(written: boolean): void {
    for (const { line, odd } of this.held) {
      if (written) {
        this.ctx.warn({ src: this.src, n: line.n }, `${odd}, written back unchanged`);
        this.write(line);
      } else this.skip(line, odd);
    }
    this.held = [];
    this.heldBytes = 0;
  }

  private skip(line: PhysicalLine, odd: OddLine): void {
    // An empty line between records or Common lines is nothing, as every reader takes it.
    if (line.bytes.length === 0) return;
    this.ctx.warn({ src: this.src, n: line.n }, odd === 'a JSON value that is not an object' ? 'neither a record nor a Common line, skipped' : `${odd}, skipped`);
  }

  private write(line: PhysicalLine): void {
    this.beforeWrite();
    const header = { harness: DEFAULT_HARNESS, n: line.n, kind: 'other' as const, ...(line.bom ? { bom: true as const } : {}), ...(line.crlf ? { crlf: true as const } : {}), ...(line.eol ? {} : { eol: false as const }) };
    pushNative(this.ctx.out, recordView(header, line.bytes));
  }
}
