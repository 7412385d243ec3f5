// Reading and writing streams of records (the output of tx-parse, possibly filtered).
// Records are cut from their bytes (the header parsed, the line left for later); an
// input of native session lines is read as tx-parse would read it, after one note.
// Lines longer than LONG_LINE are never held whole: see LongRecords.
import { DEFAULT_HARNESS } from '../codecs.js';
import { isUtf8 } from 'node:buffer';
import { parsePhysicalLine } from './parse-line.js';
import { lineEnd, type Harness, type RecordHeader, type RecordView } from '../record.js';
import { nativeBytes, decodeRecord, recordView } from './record-bytes.js';
import { readsRegularFile, reusedChunks } from '../core/input/file-chunks.js';
import { findTopLevelKey, isJsonSpace } from '../core/json/json-scan.js';
import { isLongPiece, lineBatches, LONG_LINE, type LongPiece } from '../core/input/lines.js';
import type { Output } from '../core/output/output.js';
import type { Context } from '../core/tool.js';

/** One line of a record stream: a record, or a line that is not one (with its bytes). */
export type RecordStreamItem =
  | { record: RecordView; bytes: Buffer; src?: string; n: number; long?: undefined }
  /** A record made from a native line (read as tx-parse reads it): its text is written by pushItem when wanted, not made for every line. */
  | { record: RecordView; bytes: null; src?: string; n: number; long?: undefined }
  | { record: null; bytes: Buffer; src?: string; n: number; long?: undefined }
  /** A record longer than LONG_LINE: its header only; its bytes went where `long` said. */
  | { record: RecordView; bytes: null; src?: string; n: number; long: true };

/** What to do with the bytes of a record too long to hold: copy it to stdout, write its native line, or drop it. */
export type LongAction = 'copy' | 'native' | 'drop';

/** How a tool reads a record stream. */
export interface ReadOptions {
  /** Decide, from its header, what becomes of a record longer than LONG_LINE (default: drop). */
  long?: (header: RecordHeader) => LongAction;
  /** Check each record's line is its last key as it is read (tools that write the line's bytes). */
  verify?: boolean;
  /**
   * Native lines are classified without their values (as tx-parse classifies them), each
   * parsed only when a tool asks for it: for a tool that decides from the kind first and
   * reads few lines (tx-filter), not for one that reads every line.
   */
  lazyNative?: boolean;
  /**
   * The tool is done with a batch's records, bytes and all, before it asks for the next
   * batch (it keeps counters or copies, never a record): a regular file is then read into
   * one buffer used again (file-chunks.ts) instead of a new one per read.
   */
  reuse?: boolean;
  /**
   * The tool's own parse of a native line (tx-common's: long strings carried as markers),
   * undefined to parse it as usual; its record's view is lean (value() without a key
   * parses the line whole).
   */
  nativeValue?: (bytes: Buffer) => unknown;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const NEWLINE = Buffer.from('\n');

/**
 * Every line of every input, decoded as a record where it is one, in batches (one per
 * chunk read), so a tool's loop over a batch is synchronous and pays for one promise
 * per chunk, not per record. A record longer than LONG_LINE ends the batch before it:
 * its bytes may be written as they are read, after everything before it.
 */
export async function* readRecordBatches(ctx: Context, options: ReadOptions = {}): AsyncGenerator<RecordStreamItem[]> {
  for await (const input of ctx.inputs()) {
    const src = input.src;
    // Set once the input has shown a native session line: from then on it is read as tx-parse reads.
    let native = false;
    let previous: Harness = DEFAULT_HARNESS;
    let long: LongReader | null = null;
    const chunks = options.reuse ? reusedChunks(input.stream) : input.stream;
    // A regular file read into the reused buffer is never a live source; a pipe read into
    // it may be, with no stream to say whether more is waiting.
    const mayBeLive = !readsRegularFile(chunks);
    const streamed = chunks === input.stream;
    for await (const lines of lineBatches(chunks)) {
      let batch: RecordStreamItem[] = [];
      for (const item of lines) {
        if (isLongPiece(item)) {
          if (batch.length > 0) {
            yield batch;
            batch = [];
          }
          if (item.first) long = new LongReader(ctx, src, item.n, options, native, previous);
          long!.piece(item);
          // The piece may have been written out: keep memory flat however long the line.
          await ctx.out.flushIfFull();
          if (item.last) {
            const header = long!.finish();
            long = null;
            if (header) batch.push({ record: recordView(header, null), bytes: null, src, n: item.n, long: true });
          }
          continue;
        }
        // A blank line between records is nothing; among native lines it is a record, as tx-parse makes it.
        if (item.bytes.length === 0 && !native) continue;
        if (!native) {
          const record = decodeRecord(item.bytes, options.verify);
          if (record) {
            batch.push({ record, bytes: item.bytes, src, n: item.n });
            continue;
          }
          if (!looksNative(item.bytes)) {
            batch.push({ record: null, bytes: item.bytes, src, n: item.n });
            continue;
          }
          native = true;
          ctx.noteOnce(`${src ?? 'stdin'}: native session lines, not records: read as tx-parse reads them`, 'of native session lines, read as tx-parse reads them');
        }
        // Among native lines, a line is parsed once, as tx-parse parses it; only a line that
        // may be a record after all (one says so, or one that does not parse) is tried as one.
        const parsed = parsePhysicalLine(item, src, previous, options.lazyNative === true, options.nativeValue);
        if (parsed.length > 1 || parsed[0].isRecord || parsed[0].header.kind === 'invalid') {
          const record = decodeRecord(item.bytes, options.verify);
          if (record) {
            batch.push({ record, bytes: item.bytes, src, n: item.n });
            continue;
          }
        }
        for (const p of parsed) {
          if (p.problem) ctx.warn({ src, n: item.n }, p.problem);
          if (p.header.kind !== 'invalid') previous = p.header.harness;
          batch.push({ record: recordView(p.header, p.lineBytes, p.value, p.lean), bytes: null, src, n: item.n });
        }
      }
      if (batch.length > 0) yield batch;
      // Nothing more waits on the input (a live source such as tx-parse --follow): what the
      // batch wrote goes out now, not when 64 KB have gathered, so a pipeline shows it live.
      if (mayBeLive && (!streamed || input.stream.readableLength === 0)) await ctx.out.flush();
    }
  }
}

/** A line that parses as a JSON object (and, having reached here, is not a record). */
function looksNative(bytes: Buffer): boolean {
  let i = 0;
  while (i < bytes.length && isJsonSpace(bytes[i])) i++;
  if (bytes[i] !== 0x7b || !isUtf8(bytes)) return false;
  try {
    const v = JSON.parse(bytes.toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** The JSON text of a record's header without its closing brace (fast for the common shape). */
function headerText(h: RecordHeader): string {
  const keys = Object.keys(h);
  if (keys.length === 3 && h.src === undefined) return `{"harness":"${h.harness}","n":${h.n},"kind":"${h.kind}"`;
  if (keys.length === 4 && keys[2] === 'src') return `{"harness":"${h.harness}","n":${h.n},"src":${JSON.stringify(h.src)},"kind":"${h.kind}"`;
  return JSON.stringify(h).slice(0, -1);
}

/** Append one record to the output, synchronously: header, `"line":` and the native bytes. */
export function pushRecord(out: Output, header: RecordHeader, lineBytes: Buffer | null): void {
  if (lineBytes === null) {
    out.pushText(JSON.stringify(header) + '\n');
    return;
  }
  out.pushText(headerText(header) + ',"line":');
  out.push(lineBytes);
  out.pushText('}\n');
}

/** Append an item of a record stream as its line of the stream (a record as tx-parse writes it), newline included. */
export function pushItem(out: Output, item: RecordStreamItem): void {
  if (item.bytes === null) {
    pushRecord(out, item.record.header, item.record.lineBytes);
    return;
  }
  out.push(item.bytes);
  out.pushText('\n');
}

/** Append a record's native line with its own line end (and the BOM on the line that had one). */
export function pushNative(out: Output, record: RecordView): void {
  if (record.header.bom) out.push(BOM);
  out.push(nativeBytes(record));
  const end = lineEnd(record.header);
  if (end) out.pushText(end);
}

/** Write a record's native line back with its own line end (and BOM on the line that had one). */
export async function writeNative(ctx: Context, record: RecordView): Promise<void> {
  pushNative(ctx.out, record);
  await ctx.out.flushIfFull();
}

/**
 * A line longer than LONG_LINE written as a record in pieces: an invalid record whose
 * `raw_base64` holds every byte of the line (a BOM and a CR included), with `eol:false`
 * after it when no newline ended the line. Nothing of it is parsed.
 */
export class LongLineRecord {
  private carry: Buffer = Buffer.alloc(0);

  constructor(
    private readonly out: Output,
    harness: Harness,
    n: number,
    src: string | undefined,
  ) {
    const header: RecordHeader = src === undefined ? { harness, n, kind: 'invalid' } : { harness, n, src, kind: 'invalid' };
    header.error = `line longer than ${LONG_LINE} bytes, not parsed`;
    out.pushText(JSON.stringify(header).slice(0, -1) + ',"raw_base64":"');
  }

  /** Append the next bytes of the line. */
  piece(bytes: Buffer): void {
    const all = this.carry.length > 0 ? Buffer.concat([this.carry, bytes]) : bytes;
    const whole = all.length - (all.length % 3);
    // Base64 of 3-byte groups concatenates into the base64 of the whole.
    for (let i = 0; i < whole; i += 3 * 16384) this.out.pushText(all.toString('base64', i, Math.min(whole, i + 3 * 16384)));
    this.carry = Buffer.from(all.subarray(whole));
  }

  /** Close the record. */
  end(eol: boolean): void {
    this.out.pushText(this.carry.toString('base64') + (eol ? '"}\n' : '","eol":false}\n'));
  }
}

/** One line longer than LONG_LINE in a record stream, followed piece by piece. */
export class LongReader {
  /** A record written in pieces (`raw_base64`), a native line too long to parse, or neither. */
  private mode: 'record' | 'native' | 'skip' = 'skip';
  private action: LongAction = 'drop';
  private header: RecordHeader | null = null;
  private encoder: LongLineRecord | null = null;
  /** Decoding `raw_base64`: characters not yet decoded, whether its closing quote has passed, and what followed it. */
  private b64carry = '';
  private b64done = false;
  private tail = '';

  constructor(
    private readonly ctx: Context,
    private readonly src: string | undefined,
    private readonly n: number,
    private readonly options: ReadOptions,
    private readonly native: boolean,
    private readonly previous: Harness,
  ) {}

  /** Take the next piece of the line. */
  piece(item: LongPiece): void {
    const out = this.ctx.out;
    if (item.first) this.start(item);
    else if (this.action === 'copy') {
      if (this.encoder) this.encoder.piece(item.bytes);
      else out.push(item.bytes);
    } else if (this.action === 'native') {
      if (this.mode === 'record') this.base64(item.bytes, item.last);
      else out.push(item.bytes);
    }
    if (!item.last || !this.header) return;
    const eol = this.mode === 'record' ? !/"eol"\s*:\s*false/.test(this.tail) : item.eol;
    if (!eol) this.header.eol = false;
    if (this.action === 'copy') {
      if (this.encoder) this.encoder.end(item.eol);
      else out.push(NEWLINE);
    } else if (this.action === 'native' && eol) out.push(NEWLINE);
  }

  /** The record's header once its line has ended; null when the line was not a record. */
  finish(): RecordHeader | null {
    return this.header;
  }

  private start(item: LongPiece): void {
    const out = this.ctx.out;
    const key = findTopLevelKey(item.bytes, 'raw_base64');
    let header: unknown = null;
    if (key && item.bytes[key.value] === 0x22) {
      try {
        header = JSON.parse(item.bytes.toString('utf8', 0, key.before) + '}');
      } catch {
        header = null;
      }
    }
    if (isHeader(header)) {
      this.mode = 'record';
      this.header = header;
      this.action = this.options.long?.(header) ?? 'drop';
      if (this.action === 'copy') out.push(item.bytes);
      else if (this.action === 'native') this.base64(item.bytes.subarray(key!.value + 1), item.last);
    } else if (this.native || looksLikeObjectStart(item.bytes)) {
      // A native line too long to parse: the record tx-parse writes for it.
      this.mode = 'native';
      const error = `line longer than ${LONG_LINE} bytes, not parsed`;
      this.header = this.src === undefined ? { harness: this.previous, n: this.n, kind: 'invalid', error } : { harness: this.previous, n: this.n, src: this.src, kind: 'invalid', error };
      this.ctx.warn({ src: this.src, n: this.n }, `line longer than ${LONG_LINE} bytes, kept as an invalid record (raw_base64) without parsing`);
      this.action = this.options.long?.(this.header) ?? 'drop';
      if (this.action === 'copy') {
        this.encoder = new LongLineRecord(out, this.previous, this.n, this.src);
        this.encoder.piece(item.bytes);
      } else if (this.action === 'native') out.push(item.bytes);
    } else {
      this.ctx.warn({ src: this.src, n: this.n }, `not a record (a line longer than ${LONG_LINE} bytes), skipped`);
    }
  }

  private base64(bytes: Buffer, last: boolean): void {
    if (this.b64done) {
      if (this.tail.length < 256) this.tail += bytes.toString('latin1', 0, 256);
      return;
    }
    const quote = bytes.indexOf(0x22);
    const text = this.b64carry + bytes.toString('latin1', 0, quote < 0 ? bytes.length : quote);
    const whole = quote < 0 && !last ? text.length - (text.length % 4) : text.length;
    if (whole > 0) this.ctx.out.push(Buffer.from(text.slice(0, whole), 'base64'));
    this.b64carry = text.slice(whole);
    if (quote >= 0) {
      this.b64done = true;
      this.tail = bytes.toString('latin1', quote + 1, quote + 257);
    }
  }
}

function looksLikeObjectStart(bytes: Buffer): boolean {
  let i = 0;
  while (i < bytes.length && isJsonSpace(bytes[i])) i++;
  return bytes[i] === 0x7b;
}

function isHeader(h: any): h is RecordHeader {
  return h !== null && typeof h === 'object' && typeof h.harness === 'string' && typeof h.kind === 'string' && typeof h.n === 'number';
}

