// A JSON document spread over lines, as JSON.stringify(value, null, indent) writes it:
// the layout it was written in, and its pieces written back in that layout. A session
// kept as one such document (an object holding a list of the session's entries) is read
// as pieces: the members before the list (the head), each item of the list, the members
// after it (the tail); written one after another, the pieces are the document's bytes.
// Nothing here knows which document it is (lib/records/document.ts asks the codecs).

/** How a document is laid out: JSON.stringify's indent, and the line end for each of its newlines. */
export interface DocumentLayout {
  indent: string;
  eol: string;
}

/** True when a file's first bytes open a JSON object spread over lines: a first line of `{` alone (after a BOM and spaces). */
export function opensDocument(head: Buffer): boolean {
  let i = head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09)) i++;
  if (head[i] !== 0x7b) return false;
  for (i++; i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0d); i++);
  return head[i] === 0x0a;
}

/** The layout of a document that opens with `{` and a line end: that line end, and the indent of its second line (null when it has none JSON.stringify writes). */
export function layoutOf(doc: Buffer): DocumentLayout | null {
  const nl = doc.indexOf(0x0a);
  if (nl < 1) return null;
  const eol = doc[nl - 1] === 0x0d ? '\r\n' : '\n';
  let end = nl + 1;
  while (end < doc.length && (doc[end] === 0x20 || doc[end] === 0x09)) end++;
  const indent = doc.toString('latin1', nl + 1, end);
  // JSON.stringify takes at most ten characters of indent.
  return indent.length > 0 && indent.length <= 10 ? { indent, eol } : null;
}

/** A value as it stands `depth` levels deep in a document of this layout (its lines after the first indented that much more). */
export function prettyAt(value: unknown, layout: DocumentLayout, depth: number): string {
  const text = JSON.stringify(value, null, layout.indent);
  return text.includes('\n') ? text.split('\n').join(layout.eol + layout.indent.repeat(depth)) : text;
}

/** One member of the document's object, on its own line (without the comma after it). */
function member(key: string, value: unknown, layout: DocumentLayout): string {
  return `${layout.eol}${layout.indent}${JSON.stringify(key)}: ${prettyAt(value, layout, 1)}`;
}

/** The document's first piece: `{`, the members before the list, and the list's opening. */
export function documentHead(before: [string, unknown][], key: string, layout: DocumentLayout): string {
  return `{${before.map(([k, v]) => member(k, v, layout) + ',').join('')}${layout.eol}${layout.indent}${JSON.stringify(key)}: [`;
}

/** One item of the list, with the separator before it (`first`: no comma). */
export function documentItem(value: unknown, first: boolean, layout: DocumentLayout): string {
  return `${first ? '' : ','}${layout.eol}${layout.indent.repeat(2)}${prettyAt(value, layout, 2)}`;
}

/** The document's last piece: the list's close (after `items` items), the members after it, and `}` (no line end after it). */
export function documentTail(after: [string, unknown][], items: number, layout: DocumentLayout): string {
  return `${items > 0 ? layout.eol + layout.indent : ''}]${after.map(([k, v]) => ',' + member(k, v, layout)).join('')}${layout.eol}}`;
}
