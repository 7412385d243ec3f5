// A session kept as one JSON document, read as the lines of its harness: an input whose
// first line is `{` alone is held whole (copied, up to LONG_LINE bytes, as one long line
// would be) and offered to each codec with a document member (lib/codec.ts
// DocumentCodec). When one reads it, and the document is exactly what JSON.stringify
// writes in its layout (checked piece by piece against its bytes), it is read as its
// pieces instead of its physical lines: the members before its list as one line, each
// item of the list as one, the members after it as one, each made a line of the harness
// by its codec and marked `doc` so tx-native writes the document back byte for byte
// (a document with nothing after its list may have no tail line: the writer closes it)
// (document-write.ts). Anything else (a document no codec reads, one laid out otherwise,
// one too large) is read as the lines it has, as before.
import { isUtf8 } from 'node:buffer';
import type { DocumentCodec, LineCodec } from '../codec.js';
import { detectLineCodec, HARNESSES, lineCodecFor } from '../codecs.js';
import { isLongPiece, LONG_LINE, type LineItem, type PhysicalLine } from '../core/input/lines.js';
import { documentHead, documentItem, documentTail, layoutOf, opensDocument, type DocumentLayout } from '../core/json/document.js';
import { keyed } from '../core/keyed.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Pieces handed on per batch. */
const BATCH = 256;

/** The harnesses that read documents, in detection order. */
const READERS: readonly LineCodec[] = HARNESSES.map(lineCodecFor).filter((c) => c.document !== undefined);

/** One document split: its harness's reading of it, its layout, and its members and items. */
interface Split {
  codec: DocumentCodec;
  layout: DocumentLayout;
  key: string;
  before: [string, unknown][];
  items: unknown[];
  after: [string, unknown][];
  bom: boolean;
  /** A line end follows the closing brace. */
  eol: boolean;
}

function members(entries: [string, unknown][]): Record<string, unknown> {
  const out = keyed<unknown>();
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/** True when `piece` is what `body` holds at `at`. */
function holds(body: Buffer, at: number, piece: string): number {
  const bytes = Buffer.from(piece);
  return at + bytes.length <= body.length && body.compare(bytes, 0, bytes.length, at, at + bytes.length) === 0 ? bytes.length : -1;
}

/** The document's split, when a harness reads it and its bytes are exactly its pieces written in its layout; else null. */
function split(buf: Buffer): Split | null {
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  let body = bom ? buf.subarray(3) : buf;
  if (!opensDocument(body)) return null;
  const layout = layoutOf(body);
  if (layout === null) return null;
  const end = Buffer.from(layout.eol);
  const eol = body.length >= end.length && body.subarray(body.length - end.length).equals(end);
  if (eol) body = body.subarray(0, body.length - end.length);
  if (!isUtf8(body)) return null;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const doc = value as Record<string, unknown>;
  for (const reader of READERS) {
    const codec = reader.document!;
    const key = codec.items;
    if (!Object.hasOwn(doc, key) || !Array.isArray(doc[key])) continue;
    const keys = Object.keys(doc);
    const at = keys.indexOf(key);
    const before = keys.slice(0, at).map((k): [string, unknown] => [k, doc[k]]);
    const after = keys.slice(at + 1).map((k): [string, unknown] => [k, doc[k]]);
    if (!codec.accepts(members([...before, ...after]))) continue;
    // The head and tail must read as this harness's lines wherever they are read.
    const tail = codec.line(members(after), 'tail');
    if (detectLineCodec(codec.line(members(before), 'head')) !== reader || (tail !== null && detectLineCodec(tail) !== reader)) continue;
    // With no tail line the writer closes the document itself, with a line end.
    if (tail === null && (after.length > 0 || !eol)) continue;
    const s: Split = { codec, layout, key, before, items: doc[key] as unknown[], after, bom, eol };
    return exact(s, body) ? s : null;
  }
  return null;
}

/** True when the pieces of a split, written in its layout, are the body's bytes. */
function exact(s: Split, body: Buffer): boolean {
  try {
    let at = holds(body, 0, documentHead(s.before, s.key, s.layout));
    for (let i = 0; i < s.items.length && at >= 0; i++) {
      const n = holds(body, at, documentItem(s.items[i], i === 0, s.layout));
      at = n < 0 ? -1 : at + n;
    }
    if (at < 0) return false;
    const n = holds(body, at, documentTail(s.after, s.items.length, s.layout));
    return n >= 0 && at + n === body.length;
  } catch {
    // A value nested too deeply for JSON.stringify: not read as a document.
    return false;
  }
}

function newlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** The lines a document is read as: head, items, tail, each numbered by the physical line it starts on. */
function* pieces(s: Split): Generator<PhysicalLine> {
  const line = (n: number, value: unknown, fields: Record<string, unknown>): PhysicalLine => ({ n, bytes: Buffer.from(JSON.stringify(value)), crlf: false, eol: true, bom: false, fields });
  let at = 1;
  const head = line(1, s.codec.line(members(s.before), 'head')!, { doc: 'head', layout: { key: s.key, indent: s.layout.indent, eol: s.layout.eol } });
  head.bom = s.bom;
  yield head;
  at += newlines(documentHead(s.before, s.key, s.layout));
  for (let i = 0; i < s.items.length; i++) {
    yield line(at + 1, s.items[i], { doc: 'item' });
    at += newlines(documentItem(s.items[i], i === 0, s.layout));
  }
  const last = s.codec.line(members(s.after), 'tail');
  if (last === null) return;
  const tail = line(s.items.length > 0 ? at + 1 : at, last, { doc: 'tail' });
  tail.eol = s.eol;
  yield tail;
}

/** The lines a whole input is read as when it is a document a harness reads; null otherwise. */
export function documentLines(buf: Buffer): Iterable<PhysicalLine> | null {
  const s = split(buf);
  return s === null ? null : pieces(s);
}

/** True for a first line that may open a document: `{` alone. */
function opening(item: LineItem): boolean {
  return !isLongPiece(item) && item.n === 1 && item.eol && item.bytes.length <= 8 && item.bytes.toString('latin1').trim() === '{';
}

/** The bytes of held lines, line ends and a BOM as they were. */
function bytesOf(held: LineItem[][]): Buffer {
  const parts: Buffer[] = [];
  for (const batch of held) {
    for (const item of batch) {
      const l = item as PhysicalLine;
      if (l.bom) parts.push(BOM);
      parts.push(l.bytes);
      if (l.eol) parts.push(Buffer.from(l.crlf ? '\r\n' : '\n'));
    }
  }
  return Buffer.concat(parts);
}

/**
 * Batches of lines with a document's pieces in place of its physical lines, when the
 * input is one a harness reads (see above); otherwise the batches as they came. Only an
 * input whose first line is `{` alone is held, and only up to LONG_LINE bytes.
 */
export async function* withDocuments(batches: AsyncIterable<LineItem[]>): AsyncGenerator<LineItem[]> {
  const it = batches[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  if (first.value.length === 0 || !opening(first.value[0]!)) {
    yield first.value;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    return;
  }
  const held: LineItem[][] = [];
  let size = 0;
  let whole = true;
  let batch: LineItem[] = first.value;
  for (;;) {
    // Copied: a reader may read its next chunk into the same buffer.
    held.push(batch.map((item) => ({ ...item, bytes: Buffer.from(item.bytes) })));
    for (const item of batch) {
      if (isLongPiece(item)) whole = false;
      size += item.bytes.length + 2;
    }
    if (!whole || size > LONG_LINE) {
      whole = false;
      break;
    }
    const next = await it.next();
    if (next.done) break;
    batch = next.value;
  }
  const lines = whole ? documentLines(bytesOf(held)) : null;
  if (lines !== null) {
    let out: LineItem[] = [];
    for (const l of lines) {
      out.push(l);
      if (out.length === BATCH) {
        yield out;
        out = [];
      }
    }
    if (out.length > 0) yield out;
    return;
  }
  yield* held;
  for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
}
