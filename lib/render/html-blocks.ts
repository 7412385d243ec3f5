// The blocks of one turn as HTML: a person's words as typed, the client's context
// folded under its name, the model's text as Markdown, each tool call folded with its
// input and its result, file changes as diffs, images inline. Every piece of text is
// escaped and cut at the page's cap (cap.ts) on its way in.
import { isModeled, type Block, type ImageBlock, type NativeBlock, type TextBlock, type ToolResultBlock, type ToolUseBlock } from '../common.js';
import { capText, hiddenNote } from './cap.js';
import { userParts, type UserPart } from './context.js';
import { escapeHtml as h, escapeText, toolAnchor } from './escape.js';
import { MARKDOWN_LIMIT, markdownHtml } from './markdown-html.js';
import type { Turn } from './pairing.js';
import { pastedHtml, preHtml, proseHtml } from './prose.js';
import { formatCount, formatDuration } from './tally.js';
import { callBody, callDigest, callPurpose, resultText, viewText } from './tools.js';

/** How a to-do item shows its state. */
const TODO_MARK = { completed: '☑', in_progress: '◐', pending: '☐' } as const;

/** Media types shown inline as images; anything else (SVG, which can hold script) is named, not shown. */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The blocks of a turn as HTML, and whether it holds anything but the client's context. */
export function turnBlocks(t: Turn): { html: string; onlyContext: boolean } {
  const m = t.message;
  const parts: UserPart[] = m.role === 'user' ? userParts(m) : m.content.map(() => ({ kind: 'other' }));
  let html = '';
  let onlyContext = m.role === 'user' && m.content.length > 0;
  m.content.forEach((b, i) => {
    const part = parts[i];
    if (part.kind !== 'context') onlyContext = false;
    if (part.kind === 'context') html += contextHtml(part.name, (b as TextBlock).text);
    else if (part.kind === 'prompt') html += proseHtml((b as TextBlock).text);
    else html += blockHtml(b, t);
  });
  return { html, onlyContext };
}

/** Context a client added: folded under its name, as written. */
function contextHtml(name: string, text: string): string {
  return `<details class="context"><summary>${h(name)}</summary><div class="body">${pastedHtml(text, 'context')}</div></details>`;
}

/** The model's words: Markdown, unless too long to parse, then as written. */
function modelText(text: string): string {
  return text.length > MARKDOWN_LIMIT ? pastedHtml(text) : markdownHtml(text);
}

function blockHtml(b: Block, t: Turn): string {
  if (!isModeled(b)) return nativeBlock(b);
  switch (b.type) {
    case 'text':
      return t.message.role === 'assistant' ? modelText(b.text) : proseHtml(b.text);
    case 'thinking':
      return b.thinking === '' ? '<p class="note">Thinking (not kept in the transcript; only its signature is)</p>' : `<details class="thinking"><summary>Thinking</summary><div class="body">${modelText(b.thinking)}</div></details>`;
    case 'redacted_thinking':
      return `<p class="note">Redacted thinking (${formatCount(b.data.length)} characters, encrypted)</p>`;
    case 'tool_use':
      return call(b, t);
    case 'tool_result':
      // Shown inside its call, where one reads it.
      if (t.shownWithCall.has(b)) return '';
      return `<details class="tool${b.is_error ? ' error' : ''}"><summary><span class="tool-name">result</span><span class="digest">of <a href="#${h(toolAnchor(b.tool_use_id))}">${h(b.tool_use_id)}</a></span></summary><div class="body">${result(b)}</div></details>`;
    case 'image':
      return image(b);
    case 'artifact': {
      const src = b.source;
      const body = src.type === 'text' ? preHtml(src.text) : src.type === 'path' ? `<p>${escapeText(src.path)}</p>` : `<p class="note">${formatCount(src.data.length)} characters of base64</p>`;
      return `<details class="tool"><summary><span class="tool-name">artifact</span><span class="digest">${h(b.name)}</span></summary><div class="body">${b.description ? `<p>${escapeText(b.description)}</p>` : ''}${body}</div></details>`;
    }
    default:
      return preHtml(viewText(b));
  }
}

/** A block Common carries without modelling it (a tool_reference, a document): its type, and its JSON when opened. */
function nativeBlock(b: NativeBlock): string {
  return `<details class="tool"><summary><span class="tool-name">${h(String(b.type))}</span><span class="digest">block</span></summary><div class="body">${preHtml(viewText(b))}</div></details>`;
}

/** How long a call took: from its message to the message of its result, when both have a time. */
function took(t: Turn, call: ToolUseBlock): string {
  const end = t.resultTimes.get(call.id);
  const start = t.message.timestamp;
  if (!end || !start) return '';
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ` <span class="took" title="from the call to its result">${formatDuration(ms, true)}</span>` : '';
}

function call(c: ToolUseBlock, t: Turn): string {
  const r = t.results.get(c.id);
  const body = callBody(c);
  const error = r?.is_error === true;
  const purpose = callPurpose(c);
  let html = `<details class="tool${error ? ' error' : ''}" id="${h(toolAnchor(c.id))}"><summary><span class="tool-name">${h(c.name)}</span><span class="digest">${h(callDigest(c))}</span>${purpose ? `<span class="purpose">${h(purpose)}</span>` : ''}${error ? ' <span class="tag">error</span>' : ''}${took(t, c)}</summary><div class="body">`;
  if (body.kind === 'diff') html += diffHtml(body.text);
  else if (body.kind === 'todos') html += `<ul class="todos">${body.todos.map((x) => `<li class="${x.status}"><span class="mark">${TODO_MARK[x.status]}</span>${escapeText(x.content)}</li>`).join('')}</ul>`;
  else if (body.kind !== 'none') html += preHtml(body.text);
  if (c.tool?.kind === 'agent') html += '<div class="subagent-slot hidden"></div>';
  if (r) html += `${body.kind === 'none' ? '' : '<div class="label">result</div>'}${result(r)}`;
  else html += '<p class="note">No result follows this call in the transcript.</p>';
  return html + '</div></details>';
}

function result(r: ToolResultBlock): string {
  let html = `<div class="result${r.is_error ? ' error' : ''}">`;
  const text = resultText(r.content);
  if (text !== '') html += preHtml(text);
  if (Array.isArray(r.content)) for (const b of r.content) if (b && typeof b === 'object' && b.type === 'image') html += image(b as ImageBlock);
  if (text === '' && !Array.isArray(r.content)) html += '<p class="note">(empty)</p>';
  return html + '</div>';
}

/** A unified diff with each line marked as added, removed, hunk or file header. */
function diffHtml(text: string): string {
  const { text: shown, hidden } = capText(text);
  const spans = shown
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => {
      const cls = l.startsWith('+++') || l.startsWith('---') || l.startsWith('***') ? 'file' : l.startsWith('@@') ? 'hunk' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : 'ctx';
      return `<span class="${cls}">${escapeText(l) || ' '}</span>`;
    });
  return `<pre class="diff">${spans.join('')}</pre>${hidden > 0 ? `<p class="note">${hiddenNote(hidden)}</p>` : ''}`;
}

/** An image block: inline when it is a raster image in base64, else named. */
function image(b: ImageBlock): string {
  const src = b.source as { type?: unknown; media_type?: unknown; data?: unknown; url?: unknown };
  if (src?.type === 'base64' && typeof src.media_type === 'string' && typeof src.data === 'string') {
    const data = src.data.replace(/\s+/g, '');
    if (INLINE_IMAGES.has(src.media_type) && /^[A-Za-z0-9+/]*={0,2}$/.test(data)) return `<img class="inline" alt="image (${h(src.media_type)})" src="data:${src.media_type};base64,${data}">`;
    return `<p class="note">An image of type ${h(src.media_type)} (${formatCount(data.length)} characters of base64), not shown.</p>`;
  }
  if (src?.type === 'url' && typeof src.url === 'string') return `<p class="note">An image at ${h(src.url)} (not loaded: the page reads nothing from the network).</p>`;
  return '<p class="note">An image without data.</p>';
}
