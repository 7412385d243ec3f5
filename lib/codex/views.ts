// tx-filter's questions over Codex rollouts: prompts, tool calls and results,
// compactions, usage. Skills, subagents, hooks and modes are Claude Code's notions and
// return null here (tx-filter says so on stderr). tx-filter(1) documents each view.
import type { MessageText, Question, QuestionFlag, QuestionOptions, TextRole, View } from '../codec.js';
import { trimDeep, trimText } from '../core/trim.js';
import type { Kind, RecordHeader, RecordView } from '../record.js';
import { leadingText } from './classify.js';
import { callInput, callName, exitCode, isCall, isCallOutput, outputFailed, outputText } from './tools.js';
import { UsageTracker } from './usage.js';

function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** The fields every Codex view starts with (a rollout line names no session; tx-ls does). */
export function codexBaseView(header: RecordHeader, line: any): View {
  const view: View = { n: header.n, timestamp: stringOrNull(line?.timestamp), type: stringOrNull(line?.type) };
  if (header.src !== undefined) view.src = header.src;
  return view;
}

function objectLine(rec: RecordView): any {
  if (rec.header.harness !== 'codex') return null;
  const line = rec.value();
  return line && typeof line === 'object' && !Array.isArray(line) ? line : null;
}

/** The item a line carries: a response item's payload, or a bare item of an early rollout. */
function itemOf(line: any): any {
  if ('payload' in line) return line.type === 'response_item' && line.payload && typeof line.payload === 'object' ? line.payload : null;
  return line;
}

function stateless(name: string, kinds: Kind[], views: (rec: RecordView, line: any) => View[]): Question {
  const kindSet = new Set(kinds);
  const viewsOf = (rec: RecordView) => {
    const line = kindSet.has(rec.header.kind) ? objectLine(rec) : null;
    return line ? views(rec, line) : [];
  };
  return { name, kinds: kindSet, match: (rec) => viewsOf(rec).length > 0, views: viewsOf };
}

/** What a person typed, and how many images came with it, from a prompt line of any rollout age. */
export function promptOf(line: any): { text: string; images: number } {
  const p = line.payload;
  if (p?.type === 'user_message') {
    const images = (Array.isArray(p.images) ? p.images.length : 0) + (Array.isArray(p.local_images) ? p.local_images.length : 0);
    return { text: typeof p.message === 'string' ? p.message : '', images };
  }
  const content = p?.type === 'item_completed' ? p.item?.content : line.content;
  const blocks = Array.isArray(content) ? content : [];
  const texts = blocks.filter((b: any) => b && typeof b.text === 'string').map((b: any) => b.text);
  const images = blocks.filter((b: any) => b && /image/i.test(String(b.type))).length;
  return { text: texts.length > 0 ? texts.join('\n') : (leadingText(content) ?? ''), images };
}

function humanPrompts(o: QuestionOptions): Question {
  return stateless('human-prompts', ['prompt'], (rec, line) => {
    const p = promptOf(line);
    return [{ ...codexBaseView(rec.header, line), source: 'typed', text: trimText(p.text, o.maxChars), images: p.images }];
  });
}

function toolCalls(o: QuestionOptions): Question {
  return stateless('tool-calls', ['assistant'], (rec, line) => {
    const item = itemOf(line);
    if (!isCall(item)) return [];
    const name = callName(item);
    if (o.name !== undefined && name !== o.name) return [];
    return [{ ...codexBaseView(rec.header, line), id: stringOrNull(item.call_id) ?? stringOrNull(item.id), name, call_type: item.type, input: trimDeep(callInput(item), o.maxChars) }];
  });
}

function toolResults(o: QuestionOptions): Question {
  return stateless('tool-results', ['tool-result'], (rec, line) => {
    const item = itemOf(line);
    if (!isCallOutput(item)) return [];
    const failed = outputFailed(item.output);
    if (o.errors && !failed) return [];
    return [
      {
        ...codexBaseView(rec.header, line),
        tool_use_id: stringOrNull(item.call_id),
        output_type: item.type,
        is_error: failed,
        exit_code: exitCode(item.output),
        content: trimText(outputText(item.output), o.maxChars),
      },
    ];
  });
}

function reasoning(o: QuestionOptions): Question {
  return stateless('reasoning', ['assistant'], (rec, line) => {
    const item = itemOf(line);
    if (item?.type !== 'reasoning') return [];
    const parts = [...(Array.isArray(item.summary) ? item.summary : []), ...(Array.isArray(item.content) ? item.content : [])];
    const text = parts.filter((p: any) => p && typeof p.text === 'string').map((p: any) => p.text).join('\n');
    return [{ ...codexBaseView(rec.header, line), text: trimText(text, o.maxChars), opaque: typeof item.encrypted_content === 'string' && item.encrypted_content !== '' }];
  });
}

function compactions(o: QuestionOptions): Question {
  return stateless('compactions', ['compact'], (rec, line) => {
    if (line.type === 'compacted') {
      const p = line.payload ?? {};
      const history = Array.isArray(p.replacement_history) ? p.replacement_history.length : null;
      return [{ ...codexBaseView(rec.header, line), subtype: 'compacted', summary: trimText(typeof p.message === 'string' ? p.message : '', o.maxChars) || null, replacement_items: history }];
    }
    const item = itemOf(line);
    if (!item) return [];
    return [{ ...codexBaseView(rec.header, line), subtype: String(item.type), summary: null, replacement_items: null }];
  });
}

// Usage is per session: a file's lines, restarted at each session_meta.
function usage(): Question {
  const kinds = new Set<Kind>(['meta', 'progress']);
  const trackers = new Map<string, UsageTracker>();
  const viewsOf = (rec: RecordView): View[] => {
    const line = kinds.has(rec.header.kind) ? objectLine(rec) : null;
    if (!line) return [];
    const key = rec.header.src ?? '';
    let tracker = trackers.get(key);
    if (!tracker) trackers.set(key, (tracker = new UsageTracker()));
    if (line.type === 'session_meta') tracker.reset();
    const u = tracker.take(line);
    return u ? [{ ...codexBaseView(rec.header, line), source: u.source, response_id: u.response_id, ...u.tokens }] : [];
  };
  return { name: 'usage', kinds, match: (rec) => viewsOf(rec).length > 0, views: viewsOf };
}

/** The Codex question for a tx-filter flag; null for the flags that do not apply to Codex. */
export function codexQuestion(flag: QuestionFlag, o: QuestionOptions): Question | null {
  switch (flag) {
    case 'human-prompts':
      return humanPrompts(o);
    case 'tool-calls':
      return toolCalls(o);
    case 'tool-results':
      return toolResults(o);
    case 'reasoning':
      return reasoning(o);
    case 'compactions':
      return compactions(o);
    case 'usage':
      return usage();
    default:
      return null;
  }
}

/** The view of a Codex record when no question is asked: its kind, type and text. */
export function codexLineView(rec: RecordView, maxChars: number): View {
  const h = rec.header;
  if (h.kind === 'invalid') return { ...codexBaseView(h, null), kind: h.kind, text: trimText(h.raw ?? h.error ?? '', maxChars) };
  const line = rec.value();
  return { ...codexBaseView(h, line), kind: h.kind, text: trimText([...codexStrings(line)].join('\n'), maxChars) };
}

/** Every string of a Codex line's text: message text, call input and output, event messages. */
export function* codexStrings(line: any): Generator<string> {
  if (!line || typeof line !== 'object') return;
  const stack: unknown[] = [line.payload !== undefined ? line.payload : line];
  // An explicit stack: a line's depth comes from its data and must not reach the call stack.
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') yield v;
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (v && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, value] = entries[i];
        // Identifiers and opaque blobs are not text.
        if (key === 'type' || key === 'id' || key === 'call_id' || key === 'encrypted_content' || key === 'image_url' || key.endsWith('_id')) continue;
        stack.push(value);
      }
    }
  }
}

/** Item types of a rollout that are a tool's call or output (their strings are `tool` text). */
const TOOL_ITEM = /(^|_)(call|output|result)$/;

/**
 * The message text of a Codex line by role (tx-grep): a response item's user or
 * assistant message text (developer and system messages are the harness's
 * instructions, left out), reasoning summaries and text as assistant, and the strings
 * of tool calls and their outputs as `tool`. Event lines repeat the messages and are
 * left out, so a text is found once.
 */
export function* codexTexts(line: any): Generator<MessageText> {
  if (!line || typeof line !== 'object') return;
  // Early rollouts wrote bare items, without the response_item envelope.
  const item = line.type === 'response_item' ? line.payload : line.payload === undefined ? line : null;
  if (!item || typeof item !== 'object' || typeof item.type !== 'string') return;
  if (item.type === 'message') {
    if (item.role !== 'user' && item.role !== 'assistant') return;
    const role: TextRole = item.role;
    if (typeof item.content === 'string') yield { role, text: item.content };
    else if (Array.isArray(item.content)) {
      for (const b of item.content) if (b && typeof b.text === 'string') yield { role, text: b.text };
    }
    return;
  }
  if (item.type === 'reasoning') {
    for (const part of [...(Array.isArray(item.summary) ? item.summary : []), ...(Array.isArray(item.content) ? item.content : [])]) {
      if (part && typeof part.text === 'string') yield { role: 'assistant', text: part.text };
    }
    return;
  }
  if (TOOL_ITEM.test(item.type)) for (const text of codexStrings(item)) yield { role: 'tool', text };
}
