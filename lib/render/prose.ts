// A person's words as HTML: paragraphs kept as typed, fenced code blocks and inline
// code set as code, nothing else read as Markdown (the person did not write it for a
// renderer). Text longer than a screen is a pasted one (a traceback, a log): it is
// shown in a monospace block, its first screen open and the rest folded. The text is
// escaped first; the only markup on the result is what this module adds.
import { capText, hiddenNote, screenEnd } from './cap.js';
import { escapeText } from './escape.js';
import { formatCount } from './tally.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A person's text as escaped HTML: paragraphs and code when it fits a screen, else a folded monospace block. */
export function proseHtml(text: string): string {
  if (screenEnd(text) < text.length) return pastedHtml(text);
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
      out.push(`<pre><code>${escapeText(code.join('\n'))}</code></pre>`);
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
  return escapeText(text).replace(/`([^`\n]+)`/g, '<code>$1</code>');
}

/** How many lines a text holds (a last line without a newline counts). */
export function lineCount(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return text.endsWith('\n') || text === '' ? n : n + 1;
}

/** Text in a monospace block: cut at the page's cap, its first screen shown and the rest folded under how many lines it holds. */
export function pastedHtml(text: string, cls = 'pasted'): string {
  const { text: shown, hidden } = capText(text);
  const end = screenEnd(shown);
  let html = `<pre class="${cls}">${escapeText(shown.slice(0, end))}</pre>`;
  if (end < shown.length) {
    const rest = shown.slice(end);
    const lines = lineCount(rest);
    html += `<details class="more"><summary>${formatCount(lines)} more line${lines === 1 ? '' : 's'} (${formatCount(rest.length)} characters)</summary><pre class="${cls}">${escapeText(rest)}</pre></details>`;
  }
  if (hidden > 0) html += `<p class="note">${hiddenNote(hidden)}</p>`;
  return html;
}

/** Text in a monospace block, cut at the page's cap and saying so. */
export function preHtml(text: string, cls = ''): string {
  const { text: shown, hidden } = capText(text);
  return `<pre${cls ? ` class="${cls}"` : ''}>${escapeText(shown)}</pre>${hidden > 0 ? `<p class="note">${hiddenNote(hidden)}</p>` : ''}`;
}
