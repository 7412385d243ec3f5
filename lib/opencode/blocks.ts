// One OpenCode message as the API messages the client sends for it, in Common's shape.
// The rules are the client's (MessageV2.toModelMessages in packages/opencode/src/session/
// message-v2.ts, then the AI SDK's conversion for the Anthropic API):
// - user: text parts that are not `ignored` and not empty; file parts other than
//   text/plain and directories (their text went in as synthetic text parts); a compaction
//   part is the text "What did we do so far?", a subtask part "The following tool was
//   executed by the user";
// - assistant: dropped when it ended in an error, unless the error is an abort and the
//   message holds more than step-starts and reasoning; each step-start opens a new API
//   message; a tool part is a tool_use, and its state the tool_result of the user message
//   that follows (completed: the output, with its attachments; error: is_error; pending or
//   running: is_error "[Tool execution was interrupted]"); reasoning is thinking, its
//   Anthropic signature kept.
import type { Block, CommonMessage, ToolUseBlock, ToolView, Usage } from '../common.js';
import type { MessageWithParts, OpencodeTokens, Part } from './shape.js';

/** The text the client sends in place of a compaction part. */
export const COMPACTION_TEXT = 'What did we do so far?';
/** The text the client sends in place of a subtask part. */
export const SUBTASK_TEXT = 'The following tool was executed by the user';
/** The result the client sends for a call it never saw finish. */
export const INTERRUPTED_TEXT = '[Tool execution was interrupted]';
/** What the client sends for a tool output it pruned. */
export const CLEARED_TEXT = '[Old tool result content cleared]';

const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** How a message is converted. */
export interface BlockOptions {
  /** Send what the client sends on resume: pruned tool outputs as cleared. */
  active: boolean;
}

/** A data URL's media type and base64 payload, or null. */
function dataUrl(url: string): { media_type: string; data: string } | null {
  const m = /^data:([^;,]*)(;base64)?,/.exec(url);
  if (!m || !m[2]) return null;
  return { media_type: m[1] || 'application/octet-stream', data: url.slice(m[0].length) };
}

/** A file part (or a tool result's attachment) as the block the API gets. */
export function fileBlock(p: Part): Block {
  const mime = typeof p.mime === 'string' ? p.mime : 'application/octet-stream';
  const url = typeof p.url === 'string' ? p.url : '';
  const data = dataUrl(url);
  if (mime.startsWith('image/')) return data ? { type: 'image', source: { type: 'base64', media_type: data.media_type, data: data.data } } : { type: 'image', source: { type: 'url', url } };
  const source = data ? { type: 'base64', media_type: data.media_type, data: data.data } : { type: 'url', url };
  return typeof p.filename === 'string' ? { type: 'document', source, title: p.filename } : { type: 'document', source };
}

/** The blocks of a user message (none: the client sends no message for it). */
export function userBlocks(m: MessageWithParts): Block[] {
  const out: Block[] = [];
  for (const p of m.parts) {
    if (!isObject(p)) continue;
    if (p.type === 'text' && !p.ignored && typeof p.text === 'string' && p.text !== '') out.push({ type: 'text', text: p.text });
    if (p.type === 'file' && p.mime !== 'text/plain' && p.mime !== 'application/x-directory') out.push(fileBlock(p as Part));
    if (p.type === 'compaction') out.push({ type: 'text', text: COMPACTION_TEXT });
    if (p.type === 'subtask') out.push({ type: 'text', text: SUBTASK_TEXT });
  }
  return out;
}

/** True when the client leaves an assistant message out of the conversation (an error other than an abort with content). */
export function droppedAssistant(m: MessageWithParts): boolean {
  const error = m.info.error;
  if (!error) return false;
  const aborted = isObject(error) && error.name === 'MessageAbortedError';
  return !(aborted && m.parts.some((p) => isObject(p) && p.type !== 'step-start' && p.type !== 'reasoning'));
}

// Keyed by a value from the session: a Map, so `constructor` is a finish reason like any other.
const FINISH = new Map([
  ['stop', 'end_turn'],
  ['tool-calls', 'tool_use'],
  ['length', 'max_tokens'],
  ['content-filter', 'refusal'],
]);

/** The client's finish reason as the API's stop_reason (others pass as they are). */
export function stopReason(finish: unknown): string | null {
  if (typeof finish !== 'string') return null;
  return FINISH.get(finish) ?? finish;
}

/** The client's token counts in Common's fields: input without cached input, output with reasoning. */
export function commonUsage(t: OpencodeTokens | undefined): Usage | undefined {
  if (!isObject(t)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    input_tokens: n(t.input),
    output_tokens: n(t.output) + n(t.reasoning),
    cache_read_input_tokens: n(t.cache?.read),
    cache_creation_input_tokens: n(t.cache?.write),
    reasoning_output_tokens: n(t.reasoning),
  };
}

/** A typed view of OpenCode's own tools (packages/opencode/src/tool/). */
export function toolView(name: string, input: Record<string, unknown>): ToolView | undefined {
  const s = (k: string) => (typeof input[k] === 'string' ? (input[k] as string) : undefined);
  switch (name) {
    case 'bash': {
      const command = s('command');
      if (command === undefined) return undefined;
      const v: ToolView = { kind: 'bash', command };
      if (s('description') !== undefined) v.description = s('description');
      if (typeof input.timeout === 'number') v.timeout = input.timeout;
      return v;
    }
    case 'read': {
      const file_path = s('filePath');
      if (file_path === undefined) return undefined;
      const v: ToolView = { kind: 'read', file_path };
      if (typeof input.offset === 'number') v.offset = input.offset;
      if (typeof input.limit === 'number') v.limit = input.limit;
      return v;
    }
    case 'write':
      return s('filePath') !== undefined && s('content') !== undefined ? { kind: 'write', file_path: s('filePath')!, content: s('content')! } : undefined;
    case 'edit': {
      if (s('filePath') === undefined || s('oldString') === undefined || s('newString') === undefined) return undefined;
      const v: ToolView = { kind: 'edit', file_path: s('filePath')!, old_string: s('oldString')!, new_string: s('newString')! };
      if (typeof input.replaceAll === 'boolean') v.replace_all = input.replaceAll;
      return v;
    }
    case 'task': {
      if (s('prompt') === undefined) return undefined;
      const v: ToolView = { kind: 'agent', prompt: s('prompt')! };
      if (s('description') !== undefined) v.description = s('description');
      if (s('subagent_type') !== undefined) v.subagent_type = s('subagent_type');
      return v;
    }
    case 'skill':
      return s('name') !== undefined ? { kind: 'skill', skill: s('name')! } : undefined;
    case 'apply_patch':
      return s('patchText') !== undefined ? { kind: 'patch', patch: s('patchText')! } : undefined;
    default:
      return undefined;
  }
}

/** The tool_use of a tool part. */
function toolUse(p: Part): ToolUseBlock {
  const input = isObject(p.state?.input) ? (p.state.input as Record<string, unknown>) : {};
  const name = typeof p.tool === 'string' ? p.tool : '';
  const use: ToolUseBlock = { type: 'tool_use', id: typeof p.callID === 'string' ? p.callID : p.id, name, input };
  const view = toolView(name, input);
  if (view) use.tool = view;
  return use;
}

/** The tool_result the client sends for a tool part's state. */
function toolResult(p: Part, opts: BlockOptions): Block {
  const tool_use_id = typeof p.callID === 'string' ? p.callID : p.id;
  const state = isObject(p.state) ? p.state : {};
  if (state.status === 'completed') {
    const cleared = opts.active && isObject(state.time) && state.time.compacted !== undefined;
    const output = cleared ? CLEARED_TEXT : typeof state.output === 'string' ? state.output : '';
    const attachments = cleared || !Array.isArray(state.attachments) ? [] : state.attachments.filter(isObject);
    if (attachments.length === 0) return { type: 'tool_result', tool_use_id, content: output };
    const content: Block[] = output === '' ? [] : [{ type: 'text', text: output }];
    for (const a of attachments) content.push(fileBlock(a as Part));
    return { type: 'tool_result', tool_use_id, content };
  }
  if (state.status === 'error') {
    // A call stopped by an interrupt keeps what it printed; the client sends that as its output.
    if (isObject(state.metadata) && state.metadata.interrupted === true && typeof state.metadata.output === 'string') return { type: 'tool_result', tool_use_id, content: state.metadata.output };
    return { type: 'tool_result', tool_use_id, content: typeof state.error === 'string' ? state.error : '', is_error: true };
  }
  return { type: 'tool_result', tool_use_id, content: INTERRUPTED_TEXT, is_error: true };
}

/** One API step of an assistant message: its blocks, the results of its calls, and its step-finish. */
interface Step {
  blocks: Block[];
  results: Block[];
  finish: Part | null;
}

/** The API messages of an assistant message: one assistant message per step, each followed by its tool results. */
export function assistantMessages(m: MessageWithParts, opts: BlockOptions): CommonMessage[] {
  const info = m.info;
  const signed = m.parts.some((p) => isObject(p) && p.type === 'reasoning' && isObject(p.metadata?.anthropic) && p.metadata.anthropic.signature != null);
  const steps: Step[] = [];
  let step: Step | null = null;
  const current = () => (step ??= (steps.push({ blocks: [], results: [], finish: null }), steps[steps.length - 1]!));
  for (const p of m.parts) {
    if (!isObject(p)) continue;
    switch (p.type) {
      case 'step-start':
        step = null;
        current();
        break;
      case 'text':
        if (typeof p.text === 'string') current().blocks.push({ type: 'text', text: p.text === '' && signed ? ' ' : p.text });
        break;
      case 'reasoning': {
        const anthropic = isObject(p.metadata?.anthropic) ? p.metadata.anthropic : {};
        if (typeof anthropic.redactedData === 'string') current().blocks.push({ type: 'redacted_thinking', data: anthropic.redactedData });
        else if (typeof anthropic.signature === 'string') current().blocks.push({ type: 'thinking', thinking: String(p.text ?? ''), signature: anthropic.signature });
        else current().blocks.push({ type: 'thinking', thinking: String(p.text ?? '') });
        break;
      }
      case 'tool':
        current().blocks.push(toolUse(p as Part));
        current().results.push(toolResult(p as Part, opts));
        break;
      case 'step-finish':
        current().finish = p as Part;
        break;
    }
  }
  const out: CommonMessage[] = [];
  const kept = steps.filter((s) => s.blocks.length > 0);
  kept.forEach((s, i) => {
    const id = kept.length === 1 ? info.id : `${info.id}:${i + 1}`;
    const a: CommonMessage = { type: 'message', id, role: 'assistant', content: s.blocks };
    if (typeof info.time?.created === 'number') a.timestamp = new Date(info.time.created).toISOString();
    if (typeof info.modelID === 'string') a.model = info.modelID;
    const last = i === kept.length - 1;
    const stop = stopReason(s.finish?.reason ?? (last ? info.finish : undefined));
    if (stop !== null) a.stop_reason = stop;
    const usage = commonUsage(s.finish?.tokens ?? (kept.length === 1 ? info.tokens : undefined));
    if (usage) a.usage = usage;
    out.push(a);
    if (s.results.length > 0) {
      const r: CommonMessage = { type: 'message', id: `${id}:results`, role: 'user', content: s.results };
      if (a.timestamp !== undefined) r.timestamp = a.timestamp;
      out.push(r);
    }
  });
  return out;
}

/** The API messages of one OpenCode message (none when the client sends nothing of it). */
export function commonMessages(m: MessageWithParts, opts: BlockOptions): CommonMessage[] {
  if (m.parts.length === 0) return [];
  if (m.info.role === 'assistant') return droppedAssistant(m) ? [] : assistantMessages(m, opts);
  const content = userBlocks(m);
  if (content.length === 0) return [];
  const u: CommonMessage = { type: 'message', id: m.info.id, role: 'user', content };
  if (typeof m.info.time?.created === 'number') u.timestamp = new Date(m.info.time.created).toISOString();
  if (m.parts.some((p) => isObject(p) && p.type === 'compaction')) u.after_compaction = true;
  return [u];
}
