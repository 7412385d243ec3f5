// Prose of a message as HTML: paragraphs, fenced code blocks and inline code. The text
// is escaped first; the only markup on the result is what this module adds.
import { escapeHtml } from './escape.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A message's text as escaped HTML: fenced blocks become <pre>, the rest paragraphs. */
export function proseHtml(text: string): string {
  const out: string[] = [];
  const lines = text.split('\n');
  let para: string[] = [];
  const endPara = () => {
    if (para.length > 0) out.push(`<p>${inline(para.join('\n'))}</p>`);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (open) {
      endPara();
      const fence = open[1];
      const code: string[] = [];
      i++;
      while (i < lines.length && !(lines[i].trimStart().startsWith(fence) && lines[i].trim().replace(/[`~]/g, '') === '')) code.push(lines[i++]);
      out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    if (lines[i].trim() === '') endPara();
    else para.push(lines[i]);
  }
  endPara();
  return `<div class="prose">${out.join('')}</div>`;
}

/** Inline code spans of escaped text. */
function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`\n]+)`/g, '<code>$1</code>');
}
