// tx-filter's questions over OpenCode lines. A line is a session's info or a message
// with its parts, written once (rows are updated in place in the store, and read as they
// stand), so nothing is seen twice. A tool part holds a call and its result: both
// --tool-calls and --tool-results read assistant lines. Of hooks the client keeps no
// trace (plugins leave none in a session): that question returns null. --modes follows
// the agent a user message names (build, plan, ...). tx-filter(1) documents each view.
import type { Question, QuestionFlag, QuestionOptions, View } from '../codec.js';
import { trimDeep, trimText } from '../core/trim.js';
import type { Kind, RecordHeader, RecordView } from '../record.js';
import { isMessageWithParts, isSessionInfo } from './detect.js';
import { opencodeEnvelope } from './envelope.js';
import { imageCount, modelOf, partsOf, reasoningTexts, stepUsages, toolUses, typedTexts } from './parts.js';
import type { MessageWithParts } from './shape.js';

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** The fields every OpenCode view starts with. */
export function opencodeBaseView(header: RecordHeader, line: unknown): View {
  const env = opencodeEnvelope(line);
  const type = isSessionInfo(line) ? 'session' : isMessageWithParts(line) ? line.info.role : null;
  const view: View = { n: header.n, timestamp: env.timestamp, session: env.session, type };
  if (header.src !== undefined) view.src = header.src;
  return view;
}

/** A question over messages of some kinds, whose match is "has views". */
function question(name: string, kinds: Kind[], views: (rec: RecordView, m: MessageWithParts) => View[]): Question {
  const kindSet = new Set(kinds);
  const viewsOf = (rec: RecordView) => {
    if (rec.header.harness !== 'opencode' || !kindSet.has(rec.header.kind)) return [];
    const line = rec.value();
    return isMessageWithParts(line) ? views(rec, line) : [];
  };
  return { name, kinds: kindSet, match: (rec) => viewsOf(rec).length > 0, views: viewsOf };
}

function humanPrompts(o: QuestionOptions): Question {
  return question('human-prompts', ['prompt'], (rec, m) => [{ ...opencodeBaseView(rec.header, m), source: 'typed', text: trimText(typedTexts(m).join('\n'), o.maxChars), images: imageCount(m) }]);
}

function toolCalls(o: QuestionOptions): Question {
  return question('tool-calls', ['assistant', 'compact'], (rec, m) =>
    toolUses(m)
      .filter((u) => o.name === undefined || u.name === o.name)
      .map((u) => ({ ...opencodeBaseView(rec.header, m), id: u.id, name: u.name, status: u.status, input: trimDeep(u.input, o.maxChars) })),
  );
}

function toolResults(o: QuestionOptions): Question {
  return question('tool-results', ['assistant', 'compact'], (rec, m) =>
    toolUses(m)
      .filter((u) => u.done && (!o.errors || u.failed))
      .map((u) => ({ ...opencodeBaseView(rec.header, m), tool_use_id: u.id, name: u.name, is_error: u.failed, exit_code: u.exit, content: trimText(u.output, o.maxChars) })),
  );
}

function reasoning(o: QuestionOptions): Question {
  return question('reasoning', ['assistant', 'compact'], (rec, m) => reasoningTexts(m).map((text) => ({ ...opencodeBaseView(rec.header, m), text: trimText(text, o.maxChars), opaque: false })));
}

function inputOf(input: unknown): Record<string, unknown> {
  return input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

function skills(o: QuestionOptions): Question {
  return question('skills', ['assistant'], (rec, m) =>
    toolUses(m)
      .filter((u) => u.name === 'skill')
      .map((u) => ({ u, skill: str(inputOf(u.input).name) }))
      .filter(({ skill }) => o.name === undefined || skill === o.name)
      .map(({ u, skill }) => ({ ...opencodeBaseView(rec.header, m), id: u.id, source: 'call', skill, plugin: null, args: null })),
  );
}

function subagents(o: QuestionOptions): Question {
  return question('subagents', ['assistant'], (rec, m) =>
    toolUses(m)
      .filter((u) => u.name === 'task')
      .map((u) => ({ u, args: inputOf(u.input) }))
      .filter(({ args }) => o.name === undefined || args.subagent_type === o.name)
      .map(({ u, args }) => {
        const prompt = str(args.prompt);
        return { ...opencodeBaseView(rec.header, m), id: u.id, name: 'task', description: str(args.description), subagent_type: str(args.subagent_type), model: null, prompt: prompt === null ? null : trimText(prompt, o.maxChars) };
      }),
  );
}

function compactions(o: QuestionOptions): Question {
  return question('compactions', ['compact'], (rec, m) => {
    if (m.info.role === 'user') {
      const part = partsOf(m).find((p) => p.type === 'compaction');
      return [{ ...opencodeBaseView(rec.header, m), subtype: 'compaction', auto: part?.auto === true, summary: null }];
    }
    const text = partsOf(m)
      .filter((p) => p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text as string)
      .join('\n');
    return [{ ...opencodeBaseView(rec.header, m), subtype: 'summary', auto: null, summary: trimText(text, o.maxChars) }];
  });
}

function usage(): Question {
  return question('usage', ['assistant', 'compact'], (rec, m) =>
    stepUsages(m).map((u, step) => ({
      ...opencodeBaseView(rec.header, m),
      message_id: m.info.id,
      step,
      model: modelOf(m),
      input_tokens: u.input_tokens ?? 0,
      output_tokens: u.output_tokens ?? 0,
      cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
      cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
      reasoning_output_tokens: typeof u.reasoning_output_tokens === 'number' ? u.reasoning_output_tokens : 0,
    })),
  );
}

function modes(): Question {
  // The agent of the last user message, per file and session: a view where it changes.
  const last = new Map<string, string>();
  return question('modes', ['prompt', 'injected', 'compact', 'command'], (rec, m) => {
    if (m.info.role !== 'user' || typeof m.info.agent !== 'string') return [];
    const key = `${rec.header.src ?? ''}\0${m.info.sessionID}`;
    const previous = last.get(key) ?? null;
    if (previous === m.info.agent) return [];
    last.set(key, m.info.agent);
    return [{ ...opencodeBaseView(rec.header, m), type: 'agent', value: m.info.agent, previous }];
  });
}

/** The OpenCode question for a tx-filter flag; null for hooks, which the client does not record. */
export function opencodeQuestion(flag: QuestionFlag, o: QuestionOptions): Question | null {
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
