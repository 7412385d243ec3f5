// Slash-command envelope markup: `<command-name>/x</command-name><command-args>…`.
// Claude Code writes slash commands, their output and `!` shell escapes as bodies made
// of these tags. Only a body that is entirely such markup is an envelope; a message
// that merely quotes a tag is text.

/** Tags of a command invocation. */
export const COMMAND_TAGS = ['command-name', 'command-message', 'command-args', 'command-contents', 'bash-input'] as const;
/** Tags of a command's output. */
export const OUTPUT_TAGS = ['local-command-stdout', 'local-command-stderr', 'bash-stdout', 'bash-stderr'] as const;
/** The boilerplate tag the CLI puts before local-command output. */
export const CAVEAT_TAG = 'local-command-caveat';
/** Every envelope tag the codec knows. */
export const ENVELOPE_TAGS: readonly string[] = [...COMMAND_TAGS, ...OUTPUT_TAGS, CAVEAT_TAG];

/** One element of an envelope body. */
export interface EnvelopePart {
  tag: string;
  /** The element's text, still escaped as it stands in the file. */
  text: string;
}

const ELEMENT = new RegExp(`^\\s*<(${ENVELOPE_TAGS.join('|')})>`);

/**
 * Split a body made entirely of envelope elements (whitespace between them allowed);
 * null when anything else is in it. An element ends at the first closing tag of its
 * name: payloads are escaped on write (`</tag>` as `<\/tag>`) so that is unambiguous.
 */
export function parseEnvelope(body: string): EnvelopePart[] | null {
  const parts: EnvelopePart[] = [];
  let rest = body;
  for (;;) {
    if (/^\s*$/.test(rest)) return parts.length > 0 ? parts : null;
    const m = ELEMENT.exec(rest);
    if (!m) return null;
    const tag = m[1];
    const open = m[0].length;
    const close = rest.indexOf(`</${tag}>`, open);
    if (close < 0) return null;
    parts.push({ tag, text: rest.slice(open, close) });
    rest = rest.slice(close + tag.length + 3);
  }
}

/** What an envelope body is: a command, a command's output, the caveat, or null for plain text. */
export function envelopeKind(body: string): 'command' | 'command-output' | 'caveat' | null {
  if (!ELEMENT.test(body)) return null;
  const parts = parseEnvelope(body);
  if (!parts) return null;
  if (parts.some((p) => (COMMAND_TAGS as readonly string[]).includes(p.tag))) return 'command';
  if (parts.some((p) => (OUTPUT_TAGS as readonly string[]).includes(p.tag))) return 'command-output';
  return 'caveat';
}
