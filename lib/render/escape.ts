// Text from a transcript goes into a page only through these: every character that
// could start markup is written as an entity, ids are cut to a safe alphabet, and the
// controls that reorder text (bidi overrides and isolates) are shown by name instead
// of acting: they could make text read other than it is, and a page of lines that
// each hold one took seconds to lay out.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The characters that change the direction of the text around them (Unicode's explicit bidi formatting characters and marks). */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** A bidi control as the page shows it: its code point between white brackets, which Markdown gives no meaning. */
export function controlName(c: string): string {
  return `⟦U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟧`;
}

/** Text with each bidi control replaced by its name (for Markdown and attributes). */
export function showControls(text: string): string {
  return text.replace(BIDI, controlName);
}

/** Text safe as HTML element content or as a quoted attribute value; bidi controls are named. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]).replace(BIDI, controlName);
}

/** Text safe as HTML element content, with each bidi control named in a span the page marks. */
export function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]).replace(BIDI, (c) => `<span class="bidi" title="a control character that reorders text, shown by name">${controlName(c)}</span>`);
}

/** An element id made from a transcript's id: only letters, digits, `_` and `-` survive. */
export function safeId(prefix: string, id: string): string {
  return prefix + id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120);
}

/** The anchor of a tool call, from its tool_use id. */
export function toolAnchor(toolUseId: string): string {
  return safeId('t-', toolUseId);
}
