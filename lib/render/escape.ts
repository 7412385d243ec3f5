// Text from a transcript goes into a page only through these: every character that
// could start markup is written as an entity, and ids are cut to a safe alphabet.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe as HTML element content or as a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** An element id made from a transcript's id: only letters, digits, `_` and `-` survive. */
export function safeId(prefix: string, id: string): string {
  return prefix + id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120);
}

/** The anchor of a tool call, from its tool_use id. */
export function toolAnchor(toolUseId: string): string {
  return safeId('t-', toolUseId);
}
