// tx-render's HTML: one self-contained page, written as turns arrive. The page's
// head goes out first, each turn as soon as its tool results are in, and the figures
// only known at a session's end (duration, tokens) in its footer, which the page's
// script copies up into the header.
import { isModeled, type Block, type CommonSession, type ImageBlock, type NativeBlock, type ToolResultBlock, type ToolUseBlock } from '../common.js';
import { CSP, SCRIPT, STYLE } from './assets.js';
import { escapeHtml as h, toolAnchor } from './escape.js';
import { answersOnly, type Turn } from './pairing.js';
import { proseHtml } from './prose.js';
import { formatCount, SessionSequence, totals, usageLine } from './tally.js';
import { callBody, callDigest, resultText } from './tools.js';

/** Where the page goes: text pieces, written in order. */
export interface PageSink {
  write(text: string): Promise<void>;
}

/** Media types shown inline as images; anything else (SVG, which can hold script) is named, not shown. */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Writes one page for a Common stream of one or more sessions. */
export class HtmlPage {
  private readonly sessions = new SessionSequence();
  /** The day of the last time shown, so a turn shows its date only when the day changes. */
  private day = '';
  private started = false;

  constructor(private readonly sink: PageSink) {}

  /** Open a session (and the page, for the first). */
  async session(s: CommonSession): Promise<void> {
    await this.endSession();
    if (!this.started) await this.begin(s);
    const { k, prefix } = this.sessions.begin(s);
    const sub = s.parent?.tool_use_id !== undefined;
    const cls = sub ? 'session subagent' : 'session';
    const parentAttr = sub ? ` data-parent="${h(toolAnchor(s.parent!.tool_use_id!))}"` : '';
    const heading = sub ? 'h2' : k === 1 ? 'h1' : 'h2';
    const title = sessionTitle(s);
    const facts: [string, string][] = [];
    if (sub) {
      const p = s.parent!;
      facts.push(['subagent', [p.agent_type, p.description].filter(Boolean).join(' — ') || (p.agent_id ?? '')]);
    }
    if (s.id && !sub) facts.push(['session', s.id]);
    if (s.cwd) facts.push(['cwd', s.cwd]);
    if (s.git_branch) facts.push(['branch', s.git_branch]);
    if (s.model) facts.push(['model', s.model]);
    if (s.harness) facts.push(['harness', s.version ? `${s.harness} ${s.version}` : s.harness]);
    if (s.started_at) facts.push(['start', s.started_at]);
    let dl = facts.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join('');
    dl += `<dt>duration</dt><dd data-fact="duration">see the end</dd><dt>tokens</dt><dd data-fact="tokens">see the end</dd>`;
    if (sub) dl += `<dt>dispatched by</dt><dd><a href="#${h(toolAnchor(s.parent!.tool_use_id!))}">the ${h(s.parent!.agent_type ?? 'Agent')} call</a></dd>`;
    this.day = '';
    const untitled = !s.title && !sub ? ' data-untitled' : '';
    await this.sink.write(`<section class="${cls}" id="${h(prefix || 's1-')}session"${parentAttr}><header><${heading}${untitled}>${h(title)}</${heading}><dl class="facts">${dl}</dl></header>\n`);
  }

  /** Write one turn. */
  async turn(t: Turn): Promise<void> {
    if (!this.sessions.open) await this.session({ type: 'session', harness: 'unknown', id: '' });
    const id = this.sessions.count(t.n, t.message);
    const m = t.message;
    const onlyResults = answersOnly(t);
    const cls = onlyResults ? 'turn user results' : `turn ${m.role}`;
    const meta: string[] = [`<span class="who">${onlyResults ? 'tool results' : h(m.role)}</span>`];
    if (m.timestamp) meta.push(`<time datetime="${h(m.timestamp)}" title="${h(m.timestamp)}">${h(this.clock(m.timestamp))}</time>`);
    if (m.role === 'assistant' && m.model && m.model !== this.sessions.open!.session.model) meta.push(`<span>${h(m.model)}</span>`);
    if (m.role === 'assistant' && m.usage && typeof m.usage === 'object') meta.push(`<span class="tokens">${h(usageLine(m.usage))}</span>`);
    if (m.sidechain) meta.push('<span class="tag">sidechain</span>');
    meta.push(`<a class="anchor" href="#${id}">#${t.n}</a>`);
    let html = m.after_compaction ? '<div class="compaction">— conversation compacted; the model continues from the summary below —</div>' : '';
    html += `<article class="${cls}" id="${id}"><div class="meta">${meta.join('')}</div>`;
    for (const b of m.content) html += this.block(b, t);
    html += '</article>\n';
    await this.sink.write(html);
  }

  /** Close the open session: its footer carries the figures known only now. */
  async endSession(): Promise<void> {
    const open = this.sessions.close();
    if (!open) return;
    const t = open.tally;
    const { duration, tokens } = totals(t);
    const span = t.first && t.last ? ` (${h(t.first)} – ${h(t.last)})` : '';
    await this.sink.write(
      `<footer>${formatCount(t.messages)} messages, ${formatCount(t.toolCalls)} tool calls · duration <span data-fact="duration">${h(duration)}</span>${span} · tokens <span data-fact="tokens">${h(tokens)}</span></footer></section>\n`,
    );
  }

  /** Finish the page. */
  async end(): Promise<void> {
    await this.endSession();
    if (!this.started) await this.begin(null);
    if (this.sessions.begun === 0) await this.sink.write('<p class="note">The input held no session.</p>\n');
    await this.sink.write(`</main>\n<script>${SCRIPT}</script>\n</body>\n</html>\n`);
  }

  /** A message's time as the turn shows it: `20:04:25`, with the date when the day changed (UTC). */
  private clock(timestamp: string): string {
    const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(timestamp);
    if (!m) return timestamp;
    const sameDay = m[1] === this.day;
    this.day = m[1];
    return sameDay ? m[2] : `${m[1]} ${m[2]}`;
  }

  private async begin(first: CommonSession | null): Promise<void> {
    this.started = true;
    const title = first ? sessionTitle(first) : 'Session';
    await this.sink.write(
      `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${h(CSP)}">\n` +
        `<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="referrer" content="no-referrer">\n<title>${h(title)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n` +
        `<div class="bar"><span class="name">${h(title)}</span><input id="q" type="search" placeholder="Search turns" aria-label="Search turns" disabled><span class="count" id="count"></span><button id="theme" type="button" disabled>Light / dark</button></div>\n<main>\n`,
    );
  }

  private block(b: Block, t: Turn): string {
    if (!isModeled(b)) return this.nativeBlock(b);
    switch (b.type) {
      case 'text':
        return proseHtml(b.text);
      case 'thinking':
        return b.thinking === '' ? '<p class="note">Thinking (not kept in the transcript; only its signature is)</p>' : `<details class="thinking"><summary>Thinking</summary><div class="body">${proseHtml(b.thinking)}</div></details>`;
      case 'redacted_thinking':
        return `<p class="note">Redacted thinking (${formatCount(b.data.length)} characters, encrypted)</p>`;
      case 'tool_use':
        return this.call(b, t.results.get(b.id));
      case 'tool_result':
        if (t.shownWithCall.has(b)) return `<p class="note">Result shown with <a href="#${h(toolAnchor(b.tool_use_id))}">its call</a>.</p>`;
        return `<details class="tool${b.is_error ? ' error' : ''}"><summary><span class="tool-name">result</span><span class="digest">of <a href="#${h(toolAnchor(b.tool_use_id))}">${h(b.tool_use_id)}</a></span></summary><div class="body">${this.result(b)}</div></details>`;
      case 'image':
        return image(b);
      case 'artifact': {
        const src = b.source;
        const body = src.type === 'text' ? `<pre>${h(src.text)}</pre>` : src.type === 'path' ? `<p>${h(src.path)}</p>` : `<p class="note">${formatCount(src.data.length)} characters of base64</p>`;
        return `<details class="tool"><summary><span class="tool-name">artifact</span><span class="digest">${h(b.name)}</span></summary><div class="body">${b.description ? `<p>${h(b.description)}</p>` : ''}${body}</div></details>`;
      }
      default:
        return `<pre>${h(JSON.stringify(b, null, 2) ?? '')}</pre>`;
    }
  }

  /** A block Common carries without modelling it (a tool_reference, a document): its type, and its JSON when opened. */
  private nativeBlock(b: NativeBlock): string {
    return `<details class="tool"><summary><span class="tool-name">${h(String(b.type))}</span><span class="digest">block</span></summary><div class="body"><pre>${h(JSON.stringify(b, null, 2) ?? '')}</pre></div></details>`;
  }

  private call(call: ToolUseBlock, result: ToolResultBlock | undefined): string {
    const body = callBody(call);
    const error = result?.is_error === true;
    let html = `<details class="tool${error ? ' error' : ''}" id="${h(toolAnchor(call.id))}"><summary><span class="tool-name">${h(call.name)}</span><span class="digest">${h(callDigest(call))}</span>${error ? ' <span class="tag">error</span>' : ''}</summary><div class="body">`;
    if (body.kind === 'diff') html += diffHtml(body.text);
    else if (body.kind !== 'none') html += `<pre>${h(body.text)}</pre>`;
    if (call.tool?.kind === 'agent') html += '<div class="subagent-slot hidden"></div>';
    if (result) html += `${body.kind === 'none' ? '' : '<div class="label">result</div>'}${this.result(result)}`;
    else html += '<p class="note">No result follows this call in the transcript.</p>';
    return html + '</div></details>';
  }

  private result(r: ToolResultBlock): string {
    let html = `<div class="result${r.is_error ? ' error' : ''}">`;
    const text = resultText(r.content);
    if (text !== '') html += `<pre>${h(text)}</pre>`;
    if (Array.isArray(r.content)) for (const b of r.content) if (b && typeof b === 'object' && b.type === 'image') html += image(b as ImageBlock);
    if (text === '' && !Array.isArray(r.content)) html += '<p class="note">(empty)</p>';
    return html + '</div>';
  }
}

/** A session's name for the page: its title, else its id. */
export function sessionTitle(s: CommonSession): string {
  if (s.title) return s.title;
  if (s.parent?.description) return s.parent.description;
  return s.id ? `Session ${s.id}` : 'Session';
}

/** A unified diff with each line marked as added, removed, hunk or file header. */
function diffHtml(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n');
  const spans = lines.map((l) => {
    const cls = l.startsWith('+++') || l.startsWith('---') || l.startsWith('***') ? 'file' : l.startsWith('@@') ? 'hunk' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : 'ctx';
    return `<span class="${cls}">${h(l) || ' '}</span>`;
  });
  return `<pre class="diff">${spans.join('')}</pre>`;
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
