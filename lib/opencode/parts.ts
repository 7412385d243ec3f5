// What tx-filter, tx-stats and tx-grep read of an OpenCode message's parts: its typed
// texts, its tool calls with their results (a tool part holds both: the client keeps a
// call and its result in the assistant message that made it), its reasoning, and the
// usage of each API step (a step-finish part per request).
import type { Usage } from '../common.js';
import { commonUsage } from './blocks.js';
import type { MessageWithParts, Part } from './shape.js';

function isObject(v: unknown): v is Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The parts of a message that are objects. */
export function partsOf(m: MessageWithParts): Part[] {
  return m.parts.filter(isObject) as Part[];
}

/** One tool part as a call and, once the tool ran, its result. */
export interface ToolUse {
  id: string | null;
  name: string | null;
  /** pending, running, completed or error. */
  status: string | null;
  input: unknown;
  /** True once the client has a result for it (completed or error). */
  done: boolean;
  /** The output (completed) or the error's text (error). */
  output: string;
  /** A tool-level failure (state error) or a command that exited non-zero. */
  failed: boolean;
  /** The exit code the client kept (bash's metadata.exit), or null. */
  exit: number | null;
  partId: string;
}

/** The tool parts of a message as calls with their results. */
export function toolUses(m: MessageWithParts): ToolUse[] {
  const out: ToolUse[] = [];
  for (const p of partsOf(m)) {
    if (p.type !== 'tool') continue;
    const state = isObject(p.state) ? p.state : {};
    const status = typeof state.status === 'string' ? state.status : null;
    const exit = isObject(state.metadata) && typeof state.metadata.exit === 'number' ? state.metadata.exit : null;
    const done = status === 'completed' || status === 'error';
    const output = status === 'error' ? String(state.error ?? '') : typeof state.output === 'string' ? state.output : '';
    out.push({ id: typeof p.callID === 'string' ? p.callID : null, name: typeof p.tool === 'string' ? p.tool : null, status, input: state.input, done, output, failed: status === 'error' || (exit !== null && exit !== 0), exit, partId: String(p.id) });
  }
  return out;
}

/** The text parts a person typed in a user message (not those the client wrote itself). */
export function typedTexts(m: MessageWithParts): string[] {
  return partsOf(m)
    .filter((p) => p.type === 'text' && p.synthetic !== true && typeof p.text === 'string')
    .map((p) => p.text as string);
}

/** The images attached to a message. */
export function imageCount(m: MessageWithParts): number {
  return partsOf(m).filter((p) => p.type === 'file' && typeof p.mime === 'string' && p.mime.startsWith('image/')).length;
}

/** The reasoning parts' texts. */
export function reasoningTexts(m: MessageWithParts): string[] {
  return partsOf(m)
    .filter((p) => p.type === 'reasoning' && typeof p.text === 'string')
    .map((p) => p.text as string);
}

/** The usage of each API request of an assistant message: its step-finish parts, or the message's tokens when it has none. */
export function stepUsages(m: MessageWithParts): Usage[] {
  if (m.info.role !== 'assistant') return [];
  const steps = partsOf(m)
    .filter((p) => p.type === 'step-finish')
    .map((p) => commonUsage(p.tokens))
    .filter((u): u is Usage => u !== undefined);
  if (steps.length > 0) return steps;
  const whole = commonUsage(m.info.tokens);
  return whole && ((whole.input_tokens ?? 0) > 0 || (whole.output_tokens ?? 0) > 0 || (whole.cache_read_input_tokens ?? 0) > 0) ? [whole] : [];
}

/** The model of a message: an assistant's modelID, a user message's model. */
export function modelOf(m: MessageWithParts): string | null {
  const i = m.info;
  if (typeof i.modelID === 'string') return i.modelID;
  return isObject(i.model) && typeof i.model.modelID === 'string' ? i.model.modelID : null;
}
