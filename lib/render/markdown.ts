// tx-render's Markdown, for a pull request or a gist: a heading per turn, the model's
// prose as Markdown, a person's words as typed, the client's context and every tool
// call folded in <details> with input and result in code fences, file changes as
// unified diffs. Transcript text never becomes HTML (markdown-text.ts).
import { isModeled, type Block, type CommonSession, type NativeBlock, type TextBlock, type ToolResultBlock, type ToolUseBlock } from '../common.js';
import { userParts, type UserPart } from './context.js';
import { escapeHtml, toolAnchor } from './escape.js';
import { sessionTitle, type PageSink } from './html.js';
import { cappedFence, code, mdInline, mdLiteral, proseMd, userMd } from './markdown-text.js';
import { answersOnly, type Turn } from './pairing.js';
import { formatCount, SessionSequence, totals, usageLine } from './tally.js';
import { TitleHold } from './title-hold.js';
import { callBody, callDigest, callPurpose, resultText, viewText } from './tools.js';

/** Writes Markdown for a Common stream of one or more sessions. */
export class MarkdownDoc {
  private readonly sessions = new SessionSequence();
  private readonly hold: TitleHold;

  constructor(private readonly sink: PageSink) {
    this.hold = new TitleHold(
      (text) => sink.write(text),
      (title) => this.header(this.sessions.open!.session, title ?? sessionTitle(this.sessions.open!.session)),
    );
  }

  /** Open a session. */
  async session(s: CommonSession): Promise<void> {
    await this.endSession();
    this.sessions.begin(s);
    if (!s.title && !s.parent?.description) this.hold.wait();
    else await this.header(s, sessionTitle(s));
  }

  private async header(s: CommonSession, title: string): Promise<void> {
    const { k } = this.sessions.open!;
    const sub = s.parent?.tool_use_id !== undefined;
    let md = `${k === 1 ? '' : '\n---\n\n'}# ${sub ? 'Subagent: ' : ''}${mdLiteral(title)}\n\n`;
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
    await this.hold.turn(t.message, this.turnMd(t, id));
  }

  private turnMd(t: Turn, id: string): string {
    const m = t.message;
    // A message that only answers calls is shown inside them; its anchor stays.
    if (answersOnly(t)) return `<a id="${id}"></a>\n\n`;
    const parts: UserPart[] = m.role === 'user' ? userParts(m) : m.content.map(() => ({ kind: 'other' }));
    const onlyContext = m.role === 'user' && parts.length > 0 && parts.every((p) => p.kind === 'context');
    const who = onlyContext ? 'Context' : m.role === 'user' ? 'User' : 'Assistant';
    const meta: string[] = [];
    if (m.timestamp) meta.push(m.timestamp);
    if (m.role === 'assistant' && m.usage && typeof m.usage === 'object') meta.push(usageLine(m.usage));
    if (m.sidechain) meta.push('sidechain');
    let md = m.after_compaction ? '*— conversation compacted; the model continues from the summary below —*\n\n' : '';
    md += `## <a id="${id}"></a>${t.n}. ${who}\n\n`;
    if (meta.length > 0) md += `<sub>${escapeHtml(meta.join(' · '))}</sub>\n\n`;
    m.content.forEach((b, i) => {
      const part = parts[i];
      if (part.kind === 'context') md += folded(`context: ${escapeHtml(part.name)}`, cappedFence((b as TextBlock).text, 'text'));
      else if (part.kind === 'prompt') md += userMd((b as TextBlock).text);
      else md += this.block(b, t);
    });
    return md;
  }

  /** Close the open session with its totals. */
  async endSession(): Promise<void> {
    await this.hold.release(null);
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
    if (!isModeled(b)) return nativeBlock(b);
    switch (b.type) {
      case 'text':
        return (t.message.role === 'assistant' ? proseMd(b.text) : userMd(b.text).replace(/\n+$/, '')) + '\n\n';
      case 'thinking':
        return b.thinking === '' ? '*Thinking (not kept in the transcript)*\n\n' : folded('Thinking', cappedFence(b.thinking, 'text'));
      case 'redacted_thinking':
        return `*Redacted thinking (${formatCount(b.data.length)} characters, encrypted)*\n\n`;
      case 'tool_use':
        return call(b, t.results.get(b.id));
      case 'tool_result':
        // Shown inside its call, where one reads it.
        if (t.shownWithCall.has(b)) return '';
        return folded(`result of ${escapeHtml(b.tool_use_id)}${b.is_error ? ' (error)' : ''}`, result(b));
      case 'image':
        return `*An image (${escapeHtml(String((b.source as { media_type?: unknown }).media_type ?? (b.source as { url?: unknown }).url ?? 'no data'))}), not embedded in Markdown.*\n\n`;
      case 'artifact':
        return folded(`artifact <code>${escapeHtml(b.name)}</code>`, b.source.type === 'text' ? cappedFence(b.source.text, '') : b.source.type === 'path' ? code(b.source.path) + '\n\n' : '*base64 data*\n\n');
      default:
        return cappedFence(viewText(b), 'json');
    }
  }
}

/** A block Common carries without modelling it: its type, and its JSON folded. */
function nativeBlock(b: NativeBlock): string {
  return folded(`<code>${escapeHtml(String(b.type))}</code> block`, cappedFence(viewText(b), 'json'));
}

function call(c: ToolUseBlock, r: ToolResultBlock | undefined): string {
  const body = callBody(c);
  const digest = callDigest(c);
  const purpose = callPurpose(c);
  const summary = `<a id="${toolAnchor(c.id)}"></a><b>${escapeHtml(c.name)}</b>${digest ? ` <code>${escapeHtml(digest)}</code>` : ''}${purpose ? ` — ${escapeHtml(purpose)}` : ''}${r?.is_error ? ' (error)' : ''}`;
  let inner =
    body.kind === 'none'
      ? ''
      : body.kind === 'todos'
        ? body.todos.map((x) => `- [${x.status === 'completed' ? 'x' : ' '}] ${x.status === 'in_progress' ? '*(under way)* ' : ''}${mdLiteral(x.content)}\n`).join('') + '\n'
        : cappedFence(body.text, body.kind === 'diff' ? 'diff' : body.kind === 'code' ? body.lang : 'json');
  inner += r ? `Result${r.is_error ? ' (error)' : ''}:\n\n${result(r)}` : '*No result follows this call in the transcript.*\n\n';
  return folded(summary, inner);
}

function result(r: ToolResultBlock): string {
  const text = resultText(r.content);
  let md = text === '' ? '*(empty)*\n\n' : cappedFence(text, '');
  if (Array.isArray(r.content) && r.content.some((b) => b && typeof b === 'object' && b.type === 'image')) md += '*An image, not embedded in Markdown.*\n\n';
  return md;
}

/** A <details> block; its summary is HTML already escaped, its body Markdown. */
function folded(summary: string, body: string): string {
  return `<details>\n<summary>${summary}</summary>\n\n${body}</details>\n\n`;
}

