// The records of a document's pieces (document.ts) written back as the document: its
// head opens it in the layout it names, each item follows with its separator, its tail
// closes it. A filter may have dropped pieces: items still join with commas where they
// stand, a document whose tail is missing is closed when the next record that is not
// one of its pieces comes (or the input ends), and an item or tail with no head before
// it is written as its line, as a file of lines holds it.
import { lineCodecFor } from '../codecs.js';
import { documentHead, documentItem, documentTail, type DocumentLayout } from '../core/json/document.js';
import type { Output } from '../core/output/output.js';
import type { RecordView } from '../record.js';
import { pushNative } from './read.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The document being written: its layout, and how many items it has so far. */
interface Open {
  layout: DocumentLayout;
  items: number;
  harness: string;
}

/** Writes records back as native bytes, stitching a document's pieces into the document. */
export class DocumentStitch {
  private open: Open | null = null;

  /** Write one record's native bytes (a piece of a document into its document). */
  write(out: Output, rec: RecordView): void {
    const h = rec.header;
    if (h.doc === undefined) {
      this.close(out);
      pushNative(out, rec);
      return;
    }
    const codec = lineCodecFor(h.harness).document;
    if (h.doc === 'head') {
      this.close(out);
      const members = codec?.members(rec.value(), 'head') ?? null;
      if (!h.layout || members === null) return pushNative(out, rec);
      const layout = { indent: h.layout.indent, eol: h.layout.eol };
      if (h.bom) out.push(BOM);
      out.pushText(documentHead(Object.entries(members), h.layout.key, layout));
      this.open = { layout, items: 0, harness: h.harness };
      return;
    }
    const open = this.open;
    if (open === null || open.harness !== h.harness) {
      this.close(out);
      return pushNative(out, rec);
    }
    if (h.doc === 'item') {
      out.pushText(documentItem(rec.value(), open.items === 0, open.layout));
      open.items++;
      return;
    }
    const members = codec?.members(rec.value(), 'tail') ?? {};
    out.pushText(documentTail(Object.entries(members), open.items, open.layout) + (h.eol === false ? '' : open.layout.eol));
    this.open = null;
  }

  /** Close a document whose tail did not come, with no members after its list. */
  close(out: Output): void {
    const open = this.open;
    if (open === null) return;
    this.open = null;
    out.pushText(documentTail([], open.items, open.layout) + open.layout.eol);
  }
}
