// Transcript text inside tx-render's Markdown. The model's text is Markdown already and
// is kept so, with what could break the document around it disarmed. A person's text
// was not written for a renderer: it is escaped so that it reads as typed (no
// `__init__.py` in bold, no `python@3.12` mail link), with its line breaks kept and its
// code (fenced blocks, backtick spans) still code. Nothing from a transcript becomes HTML.
import { capText, hiddenNote, screenEnd } from './cap.js';
import { showControls } from './escape.js';
import { lineCount } from './prose.js';
import { formatCount } from './tally.js';

/** A fenced code block longer than any backtick run in the text. */
export function fence(text: string, lang: string): string {
  let longest = 2;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${showControls(text).replace(/\n$/, '')}\n${f}\n\n`;
}

/** A fenced block cut at the page's cap, saying so. */
export function cappedFence(text: string, lang: string): string {
  const { text: shown, hidden } = capText(text);
  return fence(shown, lang) + (hidden > 0 ? `*${hiddenNote(hidden)}*\n\n` : '');
}

/** Inline code that holds any text. */
export function code(text: string): string {
  const flat = showControls(text).replace(/\n/g, ' ');
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const f = '`'.repeat(longest + 1);
  return /^`|`$/.test(flat) ? `${f} ${flat} ${f}` : `${f}${flat}${f}`;
}

/** A line of transcript text inside Markdown: no HTML, no line breaks. */
export function mdInline(text: string): string {
  return escapeAngles(showControls(text).replace(/\s*\n\s*/g, ' '));
}

/** A line of a person's text inside Markdown (a title made of a prompt): read as typed, no HTML, no line breaks. */
export function mdLiteral(text: string): string {
  return literal(showControls(text).replace(/\s*\n\s*/g, ' '), true);
}

/** `<` and `&` as entities, so nothing in the text opens HTML. */
function escapeAngles(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** One line of text, or one fenced code block (re-fenced), of a message. */
type Piece = { code: boolean; text: string };

/** The lines of a text, with each fenced code block made one piece written again with a fence of our own; `other` writes the other lines. */
function pieces(text: string, other: (line: string) => string): Piece[] {
  const lines = text.split('\n');
  const out: Piece[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) {
      out.push({ code: false, text: other(lines[i]) });
      continue;
    }
    const marker = open[1];
    const lang = /^[\w+#.-]*/.exec(lines[i].slice(open[0].length).trim())![0];
    const body: string[] = [];
    for (i++; i < lines.length; i++) {
      const line = lines[i].trim();
      if (line.startsWith(marker) && line.replace(marker[0] === '`' ? /`/g : /~/g, '') === '') break;
      body.push(lines[i]);
    }
    out.push({ code: true, text: fence(body.join('\n'), lang).replace(/\n+$/, '') });
  }
  return out;
}

/**
 * The model's prose as Markdown, kept as written except where it could break the page
 * around it: outside code, `<` and `&` become entities; each fenced code block is
 * written again at the left margin with a fence of our own, longer than any backtick
 * run inside it, so an unclosed or oddly indented fence (a list item's) ends where
 * this message ends and never swallows the next turn.
 */
export function proseMd(text: string): string {
  const { text: shown, hidden } = capText(text);
  const body = pieces(showControls(shown), (line) => outsideCode(line, disarm))
    .map((p) => p.text)
    .join('\n');
  return body.replace(/\n+$/, '') + (hidden > 0 ? `\n\n*${hiddenNote(hidden)}*` : '');
}

/**
 * A person's words as Markdown that reads as they typed them: outside code, every
 * character Markdown would act on is escaped, and each line ends in a hard break. A
 * text longer than a screen is a paste: its first screen is fenced, the rest folded.
 */
export function userMd(text: string): string {
  const { text: shown, hidden } = capText(text);
  const end = screenEnd(shown);
  const note = hidden > 0 ? `*${hiddenNote(hidden)}*\n\n` : '';
  if (end < shown.length) {
    const rest = shown.slice(end);
    const lines = lineCount(rest);
    return fence(shown.slice(0, end), 'text') + `<details>\n<summary>${formatCount(lines)} more line${lines === 1 ? '' : 's'}</summary>\n\n${fence(rest, 'text')}</details>\n\n` + note;
  }
  const ps = pieces(showControls(shown), (line) => (line.trim() === '' ? '' : outsideCode(line, literal)));
  let body = '';
  ps.forEach((p, i) => {
    const next = ps[i + 1];
    // A line break inside a paragraph stays one: a backslash at the end of a line is a hard break.
    const hard = !p.code && p.text !== '' && next !== undefined && !next.code && next.text !== '';
    body += p.text + (next === undefined ? '' : hard ? '\\\n' : '\n');
  });
  return body.replace(/\n+$/, '') + '\n\n' + note;
}

/** A code span: a backtick run, then text, then a run of the same length. */
const CODE_SPAN = /(?<!`)(`+)(?!`)[^]*?(?<!`)\1(?!`)/g;

/** One line with `escape` applied outside its code spans. */
function outsideCode(line: string, escape: (text: string, lineStart: boolean) => string): string {
  // Past this length code spans are not looked for (the search could take quadratic time): the whole line is escaped.
  if (line.length > 4000) return escape(line, true);
  let out = '';
  let at = 0;
  for (const m of line.matchAll(CODE_SPAN)) {
    out += escape(line.slice(at, m.index), at === 0) + m[0];
    at = m.index + m[0].length;
  }
  out += escape(line.slice(at), at === 0);
  return out;
}

/** The model's text where `<` and `&` cannot open HTML and a link cannot point at a script URL. */
function disarm(text: string, lineStart: boolean): string {
  const out = escapeAngles(text).replace(/\]\((\s*(?:javascript|vbscript|data):)/gi, ']\\($1');
  // A link reference definition to a script URL is made plain text.
  return lineStart ? out.replace(/^(\s{0,3})(\[[^\]]*\]:\s*(?:javascript|vbscript|data):)/i, '$1\\$2') : out;
}

/** A person's text with nothing Markdown acts on: emphasis, links, mail and web autolinks' `@`, tables, headings, lists and quotes at the line's start. */
function literal(text: string, lineStart: boolean): string {
  let out = escapeAngles(text)
    .replace(/[\\*_[\]|~`]/g, '\\$&')
    .replace(/([A-Za-z0-9._+-])@/g, '$1\\@')
    .replace(/(^|[^A-Za-z0-9])(www)\./gi, '$1$2\\.')
    .replace(/(https?|ftp):\/\//gi, '$1\\://');
  if (lineStart) out = out.replace(/^(\s{0,3})([#>+=-]|\d{1,9}(?=[.)]))/, (_m, sp: string, mark: string) => `${sp}${/^\d/.test(mark) ? mark + '\\' : '\\' + mark}`);
  return out;
}
