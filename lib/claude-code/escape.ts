// The envelope escape. Envelope markup has no quoting, so a payload holding a closing
// tag (`</local-command-stdout>`) would end its element early on re-read, or forge a
// new one. Writers therefore shift every run `<` + k backslashes + `/TAG>` (TAG in
// ENVELOPE_TAGS, k >= 0) to k + 1 backslashes, and readers shift it back (k >= 1).
//
// Why that is a bijection: each such run holds exactly one `<`, at its start, so the
// runs of a string never overlap, and whether a `<` starts one depends only on the
// characters before the next `<`, which the shift leaves alone apart from the run's
// own backslashes. So escaping changes each run's k to k + 1 and nothing else, and
// unescaping undoes it: unescape(escape(s)) = s for every s, escape(s) never holds a
// bare `</TAG>` (k = 0), and for every t without one, escape(unescape(t)) = t.
// Opening tags are left as they are: an element ends at the first closing tag of its
// own name, so an opening tag inside a payload is text to every reader.
import { ENVELOPE_TAGS } from './envelope.js';

const TAGS = ENVELOPE_TAGS.map((tag) => tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
const ANY_RUN = new RegExp(`<(\\\\*)/(${TAGS})>`, 'g');
const ESCAPED_RUN = new RegExp(`<\\\\(\\\\*)/(${TAGS})>`, 'g');

/** Escape envelope markup in a payload: `</TAG>` becomes `<\/TAG>`, `<\/TAG>` becomes `<\\/TAG>`, and so on. */
export function escapeEnvelope(s: string): string {
  if (s.indexOf('/') < 0) return s;
  return s.replace(ANY_RUN, '<\\$1/$2>');
}

/** Undo escapeEnvelope: one backslash fewer in every `<\…\/TAG>` run; a bare `</TAG>` stays as it is. */
export function unescapeEnvelope(s: string): string {
  if (s.indexOf('\\') < 0) return s;
  return s.replace(ESCAPED_RUN, '<$1/$2>');
}
