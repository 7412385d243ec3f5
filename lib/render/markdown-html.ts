// The model's text as HTML: assistants write Markdown, so the page renders it, with
// markdown-it (docs/layout.md says why that library). Raw HTML in the text is shown
// as text (html: false escapes it), links to script, file and data URLs stay text,
// images are named with their address rather than shown, and nesting stops at
// MAX_NESTING levels, so neither depth nor markup from a transcript reaches the page.
// Past MARKDOWN_LIMIT characters text is not parsed at all: it is shown as written.
import MarkdownIt from 'markdown-it';
import { escapeHtml, showControls } from './escape.js';

/** Levels of blocks and inline markup past which markdown-it stops nesting (its default is 100). */
const MAX_NESTING = 20;

/** Characters of one text past which it is shown as written, not parsed as Markdown. */
export const MARKDOWN_LIMIT = 100_000;

const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false, maxNesting: MAX_NESTING });

md.renderer.rules.image = (tokens, idx) => {
  const t = tokens[idx];
  const src = String(t.attrGet('src') ?? '');
  return `<span class="note">[image ${escapeHtml(t.content)}: ${escapeHtml(src)}, not loaded]</span>`;
};

const linkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('rel', 'noopener noreferrer nofollow');
  return linkOpen(tokens, idx, options, env, self);
};

/** Markdown text as HTML: the page's own markup around the text, escaped, and nothing from it that can run or load. */
export function markdownHtml(text: string): string {
  return `<div class="markdown">${md.render(showControls(text))}</div>`;
}
