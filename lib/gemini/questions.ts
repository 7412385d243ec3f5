// tx-filter's questions over Gemini CLI chat files. A record is written again when it
// changes (a gemini record once it has its calls' results) and results twice, so each
// call, result, thought and usage is answered the first time its id comes by in its file
// (items.ts Seen); checkpoints (`$set.messages`) repeat records the file holds as lines
// and are not searched, but for a compression's snapshot. Of hooks the file keeps only
// the context a hook added (`<hook_context>` in a prompt or a tool's output); modes are
// not recorded, and that question returns null. tx-filter(1) documents each view.
import type { Question, QuestionFlag, QuestionOptions, View } from '../codec.js';
import { trimDeep, trimText } from '../core/trim.js';
import type { Kind, RecordHeader, RecordView } from '../record.js';
import { isSnapshotRecord } from './chat-log.js';
import { callsOf, recordText, resultsOf, Seen, snapshotOf, thoughtsOf } from './items.js';
import { partList } from './parts.js';
import { usageOfTokens } from './usage.js';

function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** The fields every Gemini view starts with (a chat line names no session; the metadata line and tx-ls do). */
export function geminiBaseView(header: RecordHeader, line: any): View {
  const view: View = { n: header.n, timestamp: stringOrNull(line?.timestamp) ?? stringOrNull(line?.$set?.lastUpdated), type: stringOrNull(line?.type) };
  if (header.src !== undefined) view.src = header.src;
  return view;
}

function objectLine(rec: RecordView): any {
  if (rec.header.harness !== 'gemini') return null;
  const line = rec.value();
  return line && typeof line === 'object' && !Array.isArray(line) ? line : null;
}

/** A question whose match is "has views"; `views` may keep state (what it has seen). */
function question(name: string, kinds: Kind[], views: (rec: RecordView, line: any) => View[]): Question {
  const kindSet = new Set(kinds);
  const viewsOf = (rec: RecordView) => {
    const line = kindSet.has(rec.header.kind) ? objectLine(rec) : null;
    return line ? views(rec, line) : [];
  };
  return { name, kinds: kindSet, match: (rec) => viewsOf(rec).length > 0, views: viewsOf };
}

function humanPrompts(o: QuestionOptions): Question {
  const seen = new Seen();
  return question('human-prompts', ['prompt'], (rec, line) => {
    if (!seen.first(rec.header.src, String(line.id))) return [];
    // What was typed: displayContent, where the client kept it apart from what it sent (an @file's contents).
    const typed = line.displayContent !== undefined ? line.displayContent : line.content;
    const images = partList(line.content).filter((p) => typeof p.inlineData?.mimeType === 'string' && p.inlineData.mimeType.startsWith('image/')).length;
    return [{ ...geminiBaseView(rec.header, line), source: 'typed', text: trimText(recordText(typed), o.maxChars), images }];
  });
}

function toolCalls(o: QuestionOptions): Question {
  const seen = new Seen();
  return question('tool-calls', ['assistant'], (rec, line) =>
    callsOf(line)
      .filter((c) => c.id === null || seen.first(rec.header.src, c.id))
      .filter((c) => o.name === undefined || c.name === o.name)
      .map((c) => ({ ...geminiBaseView(rec.header, line), id: c.id, name: c.name, status: c.status, input: trimDeep(c.args, o.maxChars) })),
  );
}

function toolResults(o: QuestionOptions): Question {
  const seen = new Seen();
  return question('tool-results', ['assistant', 'tool-result'], (rec, line) =>
    resultsOf(line)
      .filter((r) => r.id === null || seen.first(rec.header.src, r.id))
      .filter((r) => !o.errors || r.error || (r.exitCode !== null && r.exitCode !== 0))
      .map((r) => ({
        ...geminiBaseView(rec.header, line),
        tool_use_id: r.id,
        name: r.name,
        is_error: r.error || (r.exitCode !== null && r.exitCode !== 0),
        exit_code: r.exitCode,
        content: trimText(r.text, o.maxChars),
      })),
  );
}

function reasoning(o: QuestionOptions): Question {
  const seen = new Seen();
  return question('reasoning', ['assistant'], (rec, line) =>
    thoughtsOf(line)
      .map((t, i) => ({ t, key: `${String(line.id)}\0${i}` }))
      .filter(({ key }) => seen.first(rec.header.src, key))
      .map(({ t }) => ({ ...geminiBaseView(rec.header, line), text: trimText(t.text, o.maxChars), opaque: t.opaque })),
  );
}

function namedCalls(name: string, tool: string, o: QuestionOptions, view: (args: Record<string, unknown>) => View | null): Question {
  const seen = new Seen();
  return question(name, ['assistant'], (rec, line) => {
    const out: View[] = [];
    for (const c of callsOf(line)) {
      if (c.name !== tool || (c.id !== null && !seen.first(rec.header.src, c.id))) continue;
      const args = c.args && typeof c.args === 'object' && !Array.isArray(c.args) ? (c.args as Record<string, unknown>) : {};
      const v = view(args);
      if (v) out.push({ ...geminiBaseView(rec.header, line), id: c.id, ...v });
    }
    return out;
  });
}

function skills(o: QuestionOptions): Question {
  return namedCalls('skills', 'activate_skill', o, (args) => {
    const skill = stringOrNull(args.name);
    if (o.name !== undefined && skill !== o.name) return null;
    return { source: 'call', skill, plugin: null, args: null };
  });
}

function subagents(o: QuestionOptions): Question {
  return namedCalls('subagents', 'invoke_agent', o, (args) => {
    const type = stringOrNull(args.agent_name);
    if (o.name !== undefined && type !== o.name) return null;
    const prompt = stringOrNull(args.prompt);
    return { name: 'invoke_agent', description: stringOrNull(args.description), subagent_type: type, model: null, prompt: prompt === null ? null : trimText(prompt, o.maxChars) };
  });
}

const HOOK_CONTEXT = /<hook_context>([\s\S]*?)<\/hook_context>/g;

/** The context hooks added to a text: what a BeforeAgent hook put after a prompt, an AfterTool hook after a tool's output. */
function hookContexts(text: string): string[] {
  return [...text.matchAll(HOOK_CONTEXT)].map((m) => m[1]!);
}

function hooks(o: QuestionOptions): Question {
  const seen = new Seen();
  return question('hooks', ['prompt', 'injected', 'assistant', 'tool-result'], (rec, line) => {
    if (o.failed) return [];
    const found: { event: string; text: string }[] = [];
    if (line.type === 'user' && rec.header.kind !== 'tool-result' && seen.first(rec.header.src, String(line.id))) {
      for (const text of hookContexts(recordText(line.content))) found.push({ event: 'BeforeAgent', text });
    }
    for (const r of resultsOf(line)) {
      if (r.id !== null && !seen.first(rec.header.src, `result\0${r.id}`)) continue;
      for (const text of hookContexts(r.text)) found.push({ event: 'AfterTool', text });
    }
    return found
      .filter((h) => o.name === undefined || h.event === o.name)
      .map((h) => ({ ...geminiBaseView(rec.header, line), type: 'hook_context', hookName: null, hookEvent: h.event, command: null, exitCode: null, durationMs: null, failed: false, stdout: null, stderr: null, content: trimText(h.text, o.maxChars) }));
  });
}

function compactions(o: QuestionOptions): Question {
  const seen = new Seen();
  return question('compactions', ['compact'], (rec, line) => {
    const s = line.$set && typeof line.$set === 'object' ? snapshotOf(line.$set, isSnapshotRecord) : null;
    if (!s || !seen.first(rec.header.src, s.id)) return [];
    return [{ ...geminiBaseView(rec.header, line), subtype: 'chat_compression', snapshot_id: s.id, messages: s.messages, summary: trimText(s.text, o.maxChars) }];
  });
}

function usage(): Question {
  const seen = new Seen();
  return question('usage', ['assistant'], (rec, line) => {
    const u = usageOfTokens(line.tokens);
    if (!u || !seen.first(rec.header.src, String(line.id))) return [];
    const { input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens, reasoning_output_tokens } = u;
    return [{ ...geminiBaseView(rec.header, line), message_id: stringOrNull(line.id), model: stringOrNull(line.model), input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens, reasoning_output_tokens: typeof reasoning_output_tokens === 'number' ? reasoning_output_tokens : 0 }];
  });
}

/** The Gemini question for a tx-filter flag; null for modes, which the client does not record. */
export function geminiQuestion(flag: QuestionFlag, o: QuestionOptions): Question | null {
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
    case 'subagents':
      return subagents(o);
    case 'hooks':
      return hooks(o);
    case 'compactions':
      return compactions(o);
    case 'usage':
      return usage();
    default:
      return null;
  }
}
