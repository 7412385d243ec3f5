// The comparison behind test/conformance/gemini-*.test.ts: a Common stream and the
// `contents` the real Gemini CLI sent on resume, both as a flat list of (role, part) in
// one normal form, less what the client adds at resume time. Each difference between the
// file's conversation and what the client sends is one named step here (the guide
// docs/harnesses/gemini.md lists them); anything else fails.
import { isModeled, type Block, type CommonMessage } from '../../lib/common.js';

/** The prompt the oracle's resume run sends. */
export const GEMINI_PROMPT = 'ping';

/** The model turn the client adds after results nobody answered (geminiChat.ts closeUnansweredToolResponseTurn). */
export const INTERRUPTED_PLACEHOLDER = '[The previous response was interrupted before it completed.]';

/** One part with its role, in the normal form both sides are compared in. */
export interface Item {
  role: string;
  part: Record<string, unknown>;
}

/** Step "call ids without the tool prefix": the client names a call `<tool>__<id>` in the file and sends `<id>`. */
export function sentId(id: unknown, name: unknown): unknown {
  if (typeof id !== 'string' || typeof name !== 'string') return id;
  const tool = name.trim() === '' ? 'generic_tool' : name.trim();
  return id.startsWith(`${tool}__`) ? id.slice(tool.length + 2) : id;
}

/**
 * Step "responses of other shapes as text": Common keeps a response that is not one
 * `output` or `error` string as its JSON text, which a writer sends back as `output`.
 */
function responseForm(response: unknown): Record<string, unknown> {
  if (response && typeof response === 'object' && !Array.isArray(response)) {
    const r = response as Record<string, unknown>;
    const keys = Object.keys(r);
    if (keys.length === 1 && (typeof r.output === 'string' || typeof r.error === 'string')) return r;
    return { output: JSON.stringify(r) };
  }
  return { output: typeof response === 'string' ? response : JSON.stringify(response ?? '') };
}

/**
 * A part in normal form. Step "thought signatures are the client's": a part less its
 * `thoughtSignature` (the client adds a synthetic one to calls it sends). Step "empty text
 * is not sent": the client drops an empty text part. A file reference is its URI.
 */
export function normalPart(p: Record<string, any>): Record<string, unknown> | null {
  if (p.thought) return null;
  if (p.functionCall) return { functionCall: { id: sentId(p.functionCall.id, p.functionCall.name), name: p.functionCall.name, args: p.functionCall.args ?? {} } };
  if (p.functionResponse) return { functionResponse: { id: sentId(p.functionResponse.id, p.functionResponse.name), name: p.functionResponse.name, response: responseForm(p.functionResponse.response) } };
  if (p.fileData && typeof p.fileData === 'object') return { fileData: { fileUri: p.fileData.fileUri } };
  const { thoughtSignature: _s, ...rest } = p;
  if (typeof rest.text === 'string' && rest.text === '' && Object.keys(rest).length === 1) return null;
  return rest;
}

/**
 * The client's side, as items. Step "a fresh session context": the client opens the
 * request with a `<session_context>` of its own (the file's is left out). Step "the new
 * prompt": the oracle's prompt closes it. Step "results sent twice": on resume the client
 * sends a call's response from the call's record and again from the user message that
 * carries it (and a third time from a checkpoint's `_response` message); a response whose
 * call id was answered before is dropped with the parts after it. Step "thoughts are not
 * sent": the client never sends a thought part (Common's thinking blocks are dropped on
 * its side). Step "a closing turn after unanswered results": see below. Consecutive
 * contents of one role are one content once flattened.
 */
export function clientItems(contents: { role?: string; parts?: Record<string, any>[] }[]): Item[] {
  const items: Item[] = [];
  const answered = new Set<unknown>();
  let skipping = false;
  contents.forEach((c, ci) => {
    (c.parts ?? []).forEach((p, pi) => {
      if (ci === 0 && pi === 0 && typeof p.text === 'string' && p.text.trimStart().startsWith('<session_context>')) return;
      if (p.functionResponse) {
        const id = sentId(p.functionResponse.id, p.functionResponse.name);
        skipping = answered.has(id);
        answered.add(id);
        if (skipping) return;
      } else if (skipping && c.role === 'user' && (p.inlineData || p.fileData)) return;
      else skipping = false;
      const n = normalPart(p);
      if (n) items.push({ role: c.role ?? '', part: n });
    });
  });
  const last = items.at(-1);
  if (last && last.role === 'user' && last.part.text === GEMINI_PROMPT) items.pop();
  // Step "a closing turn after unanswered results": sending a prompt after results the model never answered, the client first closes that turn with a placeholder answer.
  const closing = items.at(-1);
  if (closing && closing.role === 'model' && closing.part.text === INTERRUPTED_PLACEHOLDER && items.at(-2)?.role === 'user') items.pop();
  return items;
}

function blockPart(b: Block): Record<string, unknown> | null {
  if (!isModeled(b)) return b.type === 'gemini_part' && b.part && typeof b.part === 'object' ? normalPart(b.part as Record<string, unknown>) : null;
  switch (b.type) {
    case 'text':
      return b.text === '' ? null : { text: b.text };
    case 'image':
      return b.source.type === 'base64' ? { inlineData: { mimeType: b.source.media_type, data: b.source.data } } : { fileData: { fileUri: b.source.url } };
    default:
      return null;
  }
}

/** Common messages as the items they stand for (an inverse written apart from lib/gemini); thinking is dropped (step "thoughts are not sent"). */
export function commonItems(messages: CommonMessage[]): Item[] {
  const names = new Map<string, string>();
  const items: Item[] = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'model' : 'user';
    for (const b of m.content) {
      if (isModeled(b) && b.type === 'tool_use') {
        names.set(b.id, b.name);
        items.push({ role, part: { functionCall: { id: sentId(b.id, b.name), name: b.name, args: b.input } } });
      } else if (isModeled(b) && b.type === 'tool_result') {
        const name = names.get(b.tool_use_id) ?? 'unknown';
        const blocks = typeof b.content === 'string' ? [{ type: 'text', text: b.content } as Block] : b.content;
        const first = blocks.findIndex((x) => x.type === 'text');
        const text = first >= 0 ? (blocks[first] as { text: string }).text : '';
        items.push({ role, part: { functionResponse: { id: sentId(b.tool_use_id, name), name, response: b.is_error ? { error: text } : { output: text } } } });
        blocks.forEach((x, i) => {
          if (i === first) return;
          const p = blockPart(x);
          if (p) items.push({ role, part: p });
        });
      } else {
        const p = blockPart(b);
        if (p) items.push({ role, part: p });
      }
    }
  }
  return items;
}
