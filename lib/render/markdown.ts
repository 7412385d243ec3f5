// tx-render's Markdown, for a pull request or a gist: a heading per turn, prose as
// Markdown, every tool call folded in <details> with its input and result in code
// fences, file changes as unified diffs. Transcript text never becomes HTML: outside
// code it has its tag openers escaped, and code fences are longer than any backtick
// run inside them.
import { isModeled, type Block, type CommonSession, type NativeBlock, type ToolResultBlock, type ToolUseBlock } from '../common.js';
import { escapeHtml, toolAnchor } from './escape.js';
import { sessionTitle, type PageSink } from './html.js';
import { answersOnly, type Turn } from './pairing.js';
import { formatCount, SessionSequence, totals, usageLine } from './tally.js';
import { callBody, callDigest, resultText } from './tools.js';

/** Writes Markdown for a Common stream of one or more sessions. */
export class MarkdownDoc {
  private readonly sessions = new SessionSequence();

  constructor(private readonly sink: PageSink) {}

  /** Open a session. */
  async session(s: CommonSession): Promise<void> {
    await this.endSession();
    const { k } = this.sessions.begin(s);
    const sub = s.parent?.tool_use_id !== undefined;
    let md = `${k === 1 ? '' : '\n---\n\n'}# ${sub ? 'Subagent: ' : ''}${mdInline(sessionTitle(s))}\n\n`;
    const facts: [string, string][] = [];
    if (sub) facts.push(['dispatched by', `[the ${mdInline(s.parent!.agent_type ?? 'Agent')} call](#${toolAnchor(s.parent!.tool_use_id!)})`]);
    if (s.id && !sub) facts.push(['session', code(s.id)]);
    if (s.cwd) facts.push(['cwd', code(s.cwd)]);
    if (s.git_branch) facts.push(['branch', code(s.git_branch)]);
    if (s.model) facts.push(['model', code(s.model)]);
    if (s.harness) facts.push(['harness', mdInline(s.version ? `${s.harness} ${s.version}` : s.harness)]);
    if (s.started_at) facts.push(['start', mdInline(s.started_at)]);
    md += facts.map(([k, v]) => `- **${k}**: ${v}\n`).join('');
    await this.sink.write(md + '\n');
  }

  /** Write one turn. */
  async turn(t: Turn): Promise<void> {
    if (!this.sessions.open) await this.session({ type: 'session', harness: 'unknown', id: '' });
    const id = this.sessions.count(t.n, t.message);
    const m = t.message;
    const onlyResults = answersOnly(t);
    const who = onlyResults ? 'Tool results' : m.role === 'user' ? 'User' : 'Assistant';
    const meta: string[] = [];
    if (m.timestamp) meta.push(m.timestamp);
    if (m.role === 'assistant' && m.usage && typeof m.usage === 'object') meta.push(usageLine(m.usage));
    if (m.sidechain) meta.push('sidechain');
    let md = m.after_compaction ? '*— conversation compacted; the model continues from the summary below —*\n\n' : '';
    md += `## <a id="${id}"></a>${t.n}. ${who}\n\n`;
    if (meta.length > 0) md += `<sub>${escapeHtml(meta.join(' · '))}</sub>\n\n`;
    for (const b of m.content) md += this.block(b, t);
    await this.sink.write(md);
  }

  /** Close the open session with its totals. */
  async endSession(): Promise<void> {
    const open = this.sessions.close();
    if (!open) return;
    const { duration, tokens } = totals(open.tally);
    await this.sink.write(`---\n\n*${formatCount(open.tally.messages)} messages, ${formatCount(open.tally.toolCalls)} tool calls · duration ${duration} · tokens ${tokens}*\n`);
  }

  /** Finish the document. */
  async end(): Promise<void> {
    await this.endSession();
    if (this.sessions.begun === 0) await this.sink.write('*The input held no session.*\n');
  }

  private block(b: Block, t: Turn): string {
    if (!isModeled(b)) return this.nativeBlock(b);
    switch (b.type) {
      case 'text':
        return proseMd(b.text) + '\n\n';
      case 'thinking':
        return b.thinking === '' ? '*Thinking (not kept in the transcript)*\n\n' : folded('Thinking', fence(b.thinking, 'text'));
      case 'redacted_thinking':
        return `*Redacted thinking (${formatCount(b.data.length)} characters, encrypted)*\n\n`;
      case 'tool_use':
        return this.call(b, t.results.get(b.id));
      case 'tool_result':
        if (t.shownWithCall.has(b)) return `*Result shown with [its call](#${toolAnchor(b.tool_use_id)}).*\n\n`;
        return folded(`result of ${escapeHtml(b.tool_use_id)}${b.is_error ? ' (error)' : ''}`, result(b));
      case 'image':
        return `*An image (${escapeHtml(String((b.source as { media_type?: unknown }).media_type ?? (b.source as { url?: unknown }).url ?? 'no data'))}), not embedded in Markdown.*\n\n`;
      case 'artifact':
        return folded(`artifact <code>${escapeHtml(b.name)}</code>`, b.source.type === 'text' ? fence(b.source.text, '') : b.source.type === 'path' ? code(b.source.path) + '\n\n' : '*base64 data*\n\n');
      default:
        return fence(JSON.stringify(b, null, 2) ?? '', 'json');
    }
  }

  /** A block Common carries without modelling it: its type, and its JSON folded. */
  private nativeBlock(b: NativeBlock): string {
    return folded(`<code>${escapeHtml(String(b.type))}</code> block`, fence(JSON.stringify(b, null, 2) ?? '', 'json'));
  }

  private call(call: ToolUseBlock, r: ToolResultBlock | undefined): string {
    const body = callBody(call);
    const digest = callDigest(call);
    const summary = `<a id="${toolAnchor(call.id)}"></a><b>${escapeHtml(call.name)}</b>${digest ? ` <code>${escapeHtml(digest)}</code>` : ''}${r?.is_error ? ' (error)' : ''}`;
    let inner = body.kind === 'none' ? '' : fence(body.text, body.kind === 'diff' ? 'diff' : body.kind === 'code' ? body.lang : 'json');
    inner += r ? `Result${r.is_error ? ' (error)' : ''}:\n\n${result(r)}` : '*No result follows this call in the transcript.*\n\n';
    return folded(summary, inner);
  }
}

function result(r: ToolResultBlock): string {
  const text = resultText(r.content);
  let md = text === '' ? '*(empty)*\n\n' : fence(text, '');
  if (Array.isArray(r.content) && r.content.some((b) => b && typeof b === 'object' && b.type === 'image')) md += '*An image, not embedded in Markdown.*\n\n';
  return md;
}

/** A <details> block; its summary is HTML already escaped, its body Markdown. */
function folded(summary: string, body: string): string {
  return `<details>\n<summary>${summary}</summary>\n\n${body}</details>\n\n`;
}

/** A fenced code block longer than any backtick run in the text. */
export function fence(text: string, lang: string): string {
  let longest = 2;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text.replace(/\n$/, '')}\n${f}\n\n`;
}

/** Inline code that holds any text. */
function code(text: string): string {
  const flat = text.replace(/\n/g, ' ');
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const f = '`'.repeat(longest + 1);
  return /^`|`$/.test(flat) ? `${f} ${flat} ${f}` : `${f}${flat}${f}`;
}

/** A line of transcript text inside Markdown: no HTML, no line breaks. */
function mdInline(text: string): string {
  return escapeAngles(text.replace(/\s*\n\s*/g, ' '));
}

/** `<` and `&` as entities, so nothing in the text opens HTML. */
function escapeAngles(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * A message's prose as Markdown, kept as written except where it could break the page
 * around it: outside code, `<` and `&` become entities; each fenced code block is
 * written again at the left margin with a fence of our own, longer than any backtick
 * run inside it, so an unclosed or oddly indented fence (a list item's) ends where
 * this message ends and never swallows the next turn.
 */
export function proseMd(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) {
      out.push(outsideCode(lines[i]));
      continue;
    }
    const marker = open[1];
    const lang = /^[\w+#.-]*/.exec(lines[i].slice(open[0].length).trim())![0];
    const code: string[] = [];
    for (i++; i < lines.length; i++) {
      const line = lines[i].trim();
      if (line.startsWith(marker) && line.replace(marker[0] === '`' ? /`/g : /~/g, '') === '') break;
      code.push(lines[i]);
    }
    out.push(fence(code.join('\n'), lang).replace(/\n+$/, ''));
  }
  return out.join('\n').replace(/\n+$/, '');
}

/** A code span: a backtick run, then text, then a run of the same length. */
const CODE_SPAN = /(?<!`)(`+)(?!`)[^]*?(?<!`)\1(?!`)/g;

/** One line of prose with HTML and script links disarmed outside its code spans. */
function outsideCode(line: string): string {
  // Past this length code spans are not looked for (the search could take quadratic time): the whole line is escaped.
  if (line.length > 20000) return disarm(line);
  let out = '';
  let at = 0;
  for (const m of line.matchAll(CODE_SPAN)) {
    out += disarm(line.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  out += disarm(line.slice(at));
  // A link reference definition to a script URL is made plain text.
  return out.replace(/^(\s{0,3})(\[[^\]]*\]:\s*(?:javascript|vbscript|data):)/i, '$1\\$2');
}

/** Text where `<` and `&` cannot open HTML and a link cannot point at a script URL. */
function disarm(text: string): string {
  return escapeAngles(text).replace(/\]\((\s*(?:javascript|vbscript|data):)/gi, ']\\($1');
}
