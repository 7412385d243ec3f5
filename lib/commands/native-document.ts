// What tx-native writes besides whole native lines: a session of a harness whose file is
// one document, written as that document's pieces (records/document-write.ts stitches
// them), and a native line that came in as it is, written back as a record of it would be.
import type { DocumentCodec } from '../codec.js';
import { DEFAULT_HARNESS } from '../codecs.js';
import type { PhysicalLine } from '../core/input/lines.js';
import { stringifyJson } from '../core/json/json-text.js';
import type { Output } from '../core/output/output.js';
import type { DocumentStitch } from '../records/document-write.js';
import { recordView } from '../records/record-bytes.js';
import type { Harness } from '../record.js';

/** A session being written as one document: its harness's reading of it, the stitch, and whether its head is out. */
export interface DocumentOut {
  harness: Harness;
  codec: DocumentCodec;
  stitch: DocumentStitch;
  begun: boolean;
}

/** One native line of a session, written as the next piece of its document (the first: its head, in the client's layout). */
export async function writePiece(out: Output, d: DocumentOut, line: object): Promise<void> {
  const head = !d.begun;
  d.begun = true;
  const layout = head ? { layout: { key: d.codec.items, ...d.codec.layout! } } : {};
  d.stitch.write(out, recordView({ harness: d.harness, n: 0, kind: 'other', doc: head ? 'head' : 'item', ...layout }, Buffer.from(stringifyJson(line)), line));
  await out.flushIfFull();
}

/** A native line as a record of it, to write it back with its own BOM and line end. */
export function nativeLineView(line: PhysicalLine) {
  return recordView({ harness: DEFAULT_HARNESS, n: line.n, kind: 'other', ...(line.bom ? { bom: true } : {}), ...(line.crlf ? { crlf: true } : {}), ...(line.eol ? {} : { eol: false }) }, line.bytes);
}
