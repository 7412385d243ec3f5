// tx-render's HTML: one self-contained page, written as turns arrive. The page's
// head goes out first, each turn as soon as its tool results are in, and the figures
// only known at a session's end (duration, tokens) in its footer, which the page's
// script copies up into the header. A session without a title is named by the first
// prompt a person typed (title-hold.ts).
import type { CommonSession } from '../common.js';
import { CSP, SCRIPT, STYLE } from './assets.js';
import { escapeHtml as h, toolAnchor } from './escape.js';
import { turnBlocks } from './html-blocks.js';
import { promptTitle } from './context.js';
import { answersOnly, isCall, type Turn } from './pairing.js';
import { formatCount, SessionSequence, totals, usageLine } from './tally.js';
import { TitleHold } from './title-hold.js';

/** Prompts a session's list names at most. */
const MAX_PROMPTS = 1000;

/** Where the page goes: text pieces, written in order. */
export interface PageSink {
  write(text: string): Promise<void>;
}

/** Writes one page for a Common stream of one or more sessions. */
export class HtmlPage {
  private readonly sessions = new SessionSequence();
  /** The day of the last time shown, so a turn shows its date only when the day changes. */
  private day = '';
  private started = false;
  private readonly hold: TitleHold;
  /** The open session's prompts, for its list of them: anchor, words, calls made before the next. */
  private prompts: { id: string; title: string; calls: number }[] = [];

  constructor(private readonly sink: PageSink) {
    this.hold = new TitleHold(
      (text) => sink.write(text),
      (title) => this.header(this.sessions.open!.session, title ?? sessionTitle(this.sessions.open!.session)),
    );
  }

  /** Open a session (and the page, for the first). */
  async session(s: CommonSession): Promise<void> {
    await this.endSession();
    this.sessions.begin(s);
    this.day = '';
    this.prompts = [];
    if (!s.title && !s.parent?.description) this.hold.wait();
    else await this.header(s, sessionTitle(s));
  }

  /** Write the open session's header (and the page's head, for the first). */
  private async header(s: CommonSession, title: string): Promise<void> {
    if (!this.started) await this.begin(title);
    const { k, prefix } = this.sessions.open!;
    const sub = s.parent?.tool_use_id !== undefined;
    const cls = sub ? 'session subagent' : 'session';
    const parentAttr = sub ? ` data-parent="${h(toolAnchor(s.parent!.tool_use_id!))}"` : '';
    const heading = sub ? 'h2' : k === 1 ? 'h1' : 'h2';
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
    await this.sink.write(`<section class="${cls}" id="${h(prefix || 's1-')}session"${parentAttr}><header><${heading}>${h(title)}</${heading}><dl class="facts">${dl}</dl></header>\n`);
  }

  /** Write one turn. */
  async turn(t: Turn): Promise<void> {
    if (!this.sessions.open) await this.session({ type: 'session', harness: 'unknown', id: '' });
    const id = this.sessions.count(t.n, t.message);
    const title = promptTitle(t.message);
    if (title !== null && this.prompts.length < MAX_PROMPTS) this.prompts.push({ id, title, calls: 0 });
    else if (this.prompts.length > 0) this.prompts[this.prompts.length - 1].calls += t.message.content.filter(isCall).length;
    await this.hold.turn(t.message, this.turnHtml(t, id));
  }

  private turnHtml(t: Turn, id: string): string {
    const m = t.message;
    // A message that only answers calls is shown inside them; its anchor stays.
    if (answersOnly(t)) return `<span class="anchor-only" id="${id}"></span>\n`;
    const { html: blocks, onlyContext } = turnBlocks(t);
    const cls = onlyContext ? 'turn user context' : `turn ${m.role}`;
    const meta: string[] = [`<span class="who">${onlyContext ? 'context' : h(m.role)}</span>`];
    if (m.timestamp) meta.push(`<time datetime="${h(m.timestamp)}" title="${h(m.timestamp)}">${h(this.clock(m.timestamp))}</time>`);
    if (m.role === 'assistant' && m.model && m.model !== this.sessions.open!.session.model) meta.push(`<span>${h(m.model)}</span>`);
    if (m.role === 'assistant' && m.usage && typeof m.usage === 'object') meta.push(`<span class="tokens">${h(usageLine(m.usage))}</span>`);
    if (m.sidechain) meta.push('<span class="tag">sidechain</span>');
    meta.push(`<a class="anchor" href="#${id}">#${t.n}</a>`);
    const compaction = m.after_compaction ? '<div class="compaction">— conversation compacted; the model continues from the summary below —</div>' : '';
    return `${compaction}<article class="${cls}" id="${id}"><div class="meta">${meta.join('')}</div>${blocks}</article>\n`;
  }

  /** Close the open session: its footer carries the figures known only now. */
  async endSession(): Promise<void> {
    await this.hold.release(null);
    const open = this.sessions.close();
    if (!open) return;
    const t = open.tally;
    const { duration, tokens } = totals(t);
    const span = t.first && t.last ? ` (${h(t.first)} – ${h(t.last)})` : '';
    const prompts = this.prompts.length < 2 ? '' : `<nav class="prompts"><b>${formatCount(this.prompts.length)}${this.prompts.length === MAX_PROMPTS ? '+' : ''} prompts</b><ol>${this.prompts.map((p) => `<li><a href="#${p.id}">${h(p.title)}</a>${p.calls > 0 ? `<span class="calls">${formatCount(p.calls)} tool call${p.calls === 1 ? '' : 's'}</span>` : ''}</li>`).join('')}</ol></nav>`;
    await this.sink.write(
      `<footer>${prompts}${formatCount(t.messages)} messages, ${formatCount(t.toolCalls)} tool calls · duration <span data-fact="duration">${h(duration)}</span>${span} · tokens <span data-fact="tokens">${h(tokens)}</span></footer></section>\n`,
    );
  }

  /** Finish the page. */
  async end(): Promise<void> {
    await this.endSession();
    if (!this.started) await this.begin('Session');
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

  private async begin(title: string): Promise<void> {
    this.started = true;
    await this.sink.write(
      `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${h(CSP)}">\n` +
        `<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="referrer" content="no-referrer">\n<title>${h(title)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n` +
        `<div class="bar"><span class="name">${h(title)}</span><input id="q" type="search" placeholder="Search turns" aria-label="Search turns" disabled><span class="count" id="count"></span><button id="fold" type="button" disabled>Open all</button><button id="theme" type="button" disabled>Light / dark</button></div>\n<main>\n`,
    );
  }
}

/** A session's name for the page: its title, else its id. */
export function sessionTitle(s: CommonSession): string {
  if (s.title) return s.title;
  if (s.parent?.description) return s.parent.description;
  return s.id ? `Session ${s.id}` : 'Session';
}
