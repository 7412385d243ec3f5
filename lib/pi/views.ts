// tx-filter's questions over pi session files: prompts, tool calls and results,
// reasoning, skills, compactions, usage, and model and thinking-level changes as modes.
// pi has no subagents and no hooks (its extensions write entries of their own, which
// --kind injected and --type custom find): those flags return null here and tx-filter
// says so. tx-filter(1) documents each view.
import type { Question, QuestionFlag, QuestionOptions, View } from '../codec.js';
import { trimDeep, trimText } from '../core/trim.js';
import type { Kind, RecordHeader, RecordView } from '../record.js';
import { contentText, piStrings } from './text.js';
import { commonUsage } from './usage.js';

const str = (v: unknown): v is string => typeof v === 'string';

function stringOrNull(v: unknown): string | null {
  return str(v) ? v : null;
}

/** The fields every pi view starts with (an entry names no session: its file's header does, and tx-ls). */
export function piBaseView(header: RecordHeader, line: any): View {
  const view: View = { n: header.n, timestamp: stringOrNull(line?.timestamp), type: stringOrNull(line?.type) };
  if (header.src !== undefined) view.src = header.src;
  return view;
}

function objectLine(rec: RecordView): any {
  if (rec.header.harness !== 'pi') return null;
  const line = rec.value();
  return line && typeof line === 'object' && !Array.isArray(line) ? line : null;
}

/** The message of a `message` entry, or null. */
function messageOf(line: any): any {
  return line.type === 'message' && line.message && typeof line.message === 'object' ? line.message : null;
}

function stateless(name: string, kinds: Kind[], views: (rec: RecordView, line: any) => View[]): Question {
  const kindSet = new Set(kinds);
  const viewsOf = (rec: RecordView) => {
    const line = kindSet.has(rec.header.kind) ? objectLine(rec) : null;
    return line ? views(rec, line) : [];
  };
  return { name, kinds: kindSet, match: (rec) => viewsOf(rec).length > 0, views: viewsOf };
}

function imageCount(content: unknown): number {
  return Array.isArray(content) ? content.filter((b) => b && b.type === 'image').length : 0;
}

function humanPrompts(o: QuestionOptions): Question {
  return stateless('human-prompts', ['prompt'], (rec, line) => {
    const m = messageOf(line);
    if (!m) return [];
    return [{ ...piBaseView(rec.header, line), source: 'typed', text: trimText(contentText(m.content, false), o.maxChars), images: imageCount(m.content) }];
  });
}

function toolCalls(o: QuestionOptions): Question {
  return stateless('tool-calls', ['assistant'], (rec, line) => {
    const m = messageOf(line);
    if (!m || !Array.isArray(m.content)) return [];
    const out: View[] = [];
    for (const b of m.content) {
      if (!b || b.type !== 'toolCall') continue;
      if (o.name !== undefined && b.name !== o.name) continue;
      out.push({ ...piBaseView(rec.header, line), id: stringOrNull(b.id), name: stringOrNull(b.name), input: trimDeep(b.arguments ?? null, o.maxChars) });
    }
    return out;
  });
}

function toolResults(o: QuestionOptions): Question {
  return stateless('tool-results', ['tool-result'], (rec, line) => {
    const m = messageOf(line);
    if (!m || m.role !== 'toolResult') return [];
    const failed = m.isError === true;
    if (o.errors && !failed) return [];
    return [
      {
        ...piBaseView(rec.header, line),
        tool_use_id: stringOrNull(m.toolCallId),
        name: stringOrNull(m.toolName),
        is_error: failed,
        content: trimText(contentText(m.content), o.maxChars),
        details: trimDeep(m.details ?? null, o.maxChars),
      },
    ];
  });
}

function reasoning(o: QuestionOptions): Question {
  return stateless('reasoning', ['assistant'], (rec, line) => {
    const m = messageOf(line);
    if (!m || !Array.isArray(m.content)) return [];
    const out: View[] = [];
    for (const b of m.content) {
      if (!b || b.type !== 'thinking') continue;
      const redacted = b.redacted === true;
      const opaque = redacted || (str(b.thinkingSignature) && b.thinkingSignature !== '');
      out.push({ ...piBaseView(rec.header, line), text: redacted || !str(b.thinking) ? null : trimText(b.thinking, o.maxChars), opaque });
    }
    return out;
  });
}

// What the client writes for `/skill:name args` (src/core/agent-session.ts): the skill's file in an element, then what was typed after it.
const SKILL = /^<skill name="([^"]+)" location="([^"]+)">\n[\s\S]*?\n<\/skill>(?:\n\n([\s\S]+))?$/;

/** The skill a user message invoked, or null. */
export function skillOf(message: any): { skill: string; location: string; args: string | null } | null {
  const first = Array.isArray(message?.content) ? message.content.find((b: any) => b && b.type === 'text') : { text: message?.content };
  const m = str(first?.text) ? SKILL.exec(first.text) : null;
  return m ? { skill: m[1]!, location: m[2]!, args: m[3] ?? null } : null;
}

function skills(o: QuestionOptions): Question {
  return stateless('skills', ['command'], (rec, line) => {
    const m = messageOf(line);
    const s = m && m.role === 'user' ? skillOf(m) : null;
    if (!s || (o.name !== undefined && s.skill !== o.name)) return [];
    return [{ ...piBaseView(rec.header, line), source: 'invoked', skill: s.skill, location: s.location, args: s.args === null ? null : trimText(s.args, o.maxChars) }];
  });
}

function compactions(o: QuestionOptions): Question {
  return stateless('compactions', ['compact'], (rec, line) => {
    if (line.type !== 'compaction') return [];
    return [
      {
        ...piBaseView(rec.header, line),
        subtype: line.fromHook === true ? 'extension' : 'compaction',
        tokens_before: typeof line.tokensBefore === 'number' ? line.tokensBefore : null,
        first_kept_entry_id: stringOrNull(line.firstKeptEntryId),
        summary: str(line.summary) ? trimText(line.summary, o.maxChars) : null,
      },
    ];
  });
}

/** pi's own reckoning of what a reply cost, in dollars (its model registry's prices), or null. */
export function clientCost(usage: any): number | null {
  const total = usage?.cost?.total;
  return typeof total === 'number' && Number.isFinite(total) ? total : null;
}

function usage(): Question {
  return stateless('usage', ['assistant'], (rec, line) => {
    const m = messageOf(line);
    const tokens = m && m.role === 'assistant' ? commonUsage(m.usage) : undefined;
    if (!tokens) return [];
    return [
      {
        ...piBaseView(rec.header, line),
        message_id: stringOrNull(line.id),
        response_id: stringOrNull(m.responseId),
        provider: stringOrNull(m.provider),
        model: stringOrNull(m.model),
        stop_reason: stringOrNull(m.stopReason),
        ...tokens,
        client_cost_usd: clientCost(m.usage),
      },
    ];
  });
}

// A model (provider/model) or thinking level, per file and line type: each entry is a change the client wrote; the view says what it was before.
function modes(): Question {
  const kinds = new Set<Kind>(['meta']);
  const last = new Map<string, string>();
  const viewsOf = (rec: RecordView): View[] => {
    const line = kinds.has(rec.header.kind) ? objectLine(rec) : null;
    if (!line) return [];
    let value: string;
    if (line.type === 'model_change' && str(line.modelId)) value = str(line.provider) ? `${line.provider}/${line.modelId}` : line.modelId;
    else if (line.type === 'thinking_level_change' && str(line.thinkingLevel)) value = line.thinkingLevel;
    else return [];
    const type: string = line.type;
    const key = `${rec.header.src ?? ''}\0${type}`;
    const previous = last.get(key) ?? null;
    last.set(key, value);
    return [{ ...piBaseView(rec.header, line), type, value, previous }];
  };
  return { name: 'modes', kinds, match: (rec) => viewsOf(rec).length > 0, views: viewsOf };
}

/** The pi question for a tx-filter flag; null for subagents and hooks, which pi has not. */
export function piQuestion(flag: QuestionFlag, o: QuestionOptions): Question | null {
  switch (flag) {
    case 'human-prompts':
      return humanPrompts(o);
    case 'tool-calls':
      return toolCalls(o);
    case 'tool-results':
      return toolResults(o);
    case 'reasoning':
      return reasoning(o);
    case 'skills':
      return skills(o);
    case 'compactions':
      return compactions(o);
    case 'usage':
      return usage();
    case 'modes':
      return modes();
    default:
      return null;
  }
}

/** The view of a pi record when no question is asked: its kind, type, role and text. */
export function piLineView(rec: RecordView, maxChars: number): View {
  const h = rec.header;
  if (h.kind === 'invalid') return { ...piBaseView(h, null), kind: h.kind, text: trimText(h.raw ?? h.error ?? '', maxChars) };
  const line = rec.value();
  const m = line && typeof line === 'object' ? messageOf(line) : null;
  return { ...piBaseView(h, line), kind: h.kind, role: m ? stringOrNull(m.role) : null, text: trimText([...piStrings(line)].join('\n'), maxChars) };
}
