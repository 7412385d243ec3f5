// What the Gemini CLI sends for a Common session of another harness once the Gemini
// writer has written it, derived from the mapping the writer documents (written apart
// from lib/gemini): texts and images as parts, tool_use as a function call, thinking
// and blocks without a Gemini form not sent; the results that answer an assistant
// message's calls, sent right after it in the order of the calls; a command a person ran
// (a tool_use on a user message) as the text typed, its output as text; a user message
// the client does not resume (one opening with `/`, `?` or its own context tags) not sent.
import { isModeled, type Block, type CommonMessage } from '../../lib/common.js';
import { typedCommand } from '../helpers.js';
import { normalPart, sentId, type Item } from './gemini-compare.js';

type Part = Record<string, unknown>;

function part(b: Block): Part | null {
  if (!isModeled(b)) return null;
  if (b.type === 'text') return normalPart({ text: b.text });
  if (b.type === 'image') return b.source.type === 'base64' ? { inlineData: { mimeType: b.source.media_type, data: b.source.data } } : { fileData: { fileUri: b.source.url } };
  return null;
}

function blocksOf(content: string | Block[]): Block[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function outputText(content: string | Block[]): string {
  return typeof content === 'string' ? content : content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n');
}

/** A result as parts: the function response (the first text its output), then its other blocks. */
function resultParts(b: { tool_use_id: string; content: string | Block[]; is_error?: boolean }, name: string): Part[] {
  const blocks = blocksOf(b.content);
  const first = blocks.findIndex((x) => x.type === 'text');
  const text = first >= 0 ? (blocks[first] as { text: string }).text : '';
  const out: Part[] = [{ functionResponse: { id: sentId(b.tool_use_id, name), name, response: b.is_error ? { error: text } : { output: text } } }];
  blocks.forEach((x, i) => {
    if (i === first) return;
    const p = part(x);
    if (p) out.push(p);
  });
  return out;
}

/** The text the client reads a user record by: text parts, a label for anything else. */
function recordText(parts: Part[]): string {
  return parts.map((p) => (typeof p.text === 'string' ? p.text : p.functionResponse ? `[Function Response: ${String((p.functionResponse as Part).name)}]` : '[Media]')).join('');
}

function ignored(parts: Part[]): boolean {
  const t = recordText(parts).trim();
  return t === '' || ['/', '?', '<session_context>', '<hook_context>'].some((o) => t.startsWith(o));
}

/** The items the client sends for a foreign Common conversation written by the Gemini writer. */
export function mappedForGemini(messages: CommonMessage[]): Item[] {
  const items: Item[] = [];
  let held: { order: string[]; names: Map<string, string>; results: Map<string, Part[]> } | null = null;
  const release = () => {
    if (held) for (const id of held.order) for (const p of held.results.get(id) ?? []) items.push({ role: 'user', part: p });
    held = null;
  };
  for (const m of messages) {
    if (m.role === 'assistant') {
      release();
      const order: string[] = [];
      const names = new Map<string, string>();
      for (const b of m.content) {
        if (isModeled(b) && b.type === 'tool_use') {
          order.push(b.id);
          names.set(b.id, b.name);
          items.push({ role: 'model', part: { functionCall: { id: sentId(b.id, b.name), name: b.name, args: b.input ?? {} } } });
        } else {
          const p = part(b);
          if (p) items.push({ role: 'model', part: p });
        }
      }
      if (order.length > 0) held = { order, names, results: new Map() };
      continue;
    }
    const record: Part[] = [];
    const commands = new Set(m.content.filter((b) => isModeled(b) && b.type === 'tool_use').map((b) => (b as { id: string }).id));
    for (const b of m.content) {
      if (!isModeled(b)) continue;
      if (b.type === 'tool_result') {
        const name = held?.names.get(b.tool_use_id);
        if (held && name !== undefined) held.results.set(b.tool_use_id, resultParts(b, name));
        else if (commands.has(b.tool_use_id)) record.push({ text: outputText(b.content) });
        else {
          const at = b.tool_use_id.indexOf('__');
          record.push(...resultParts(b, at > 0 ? b.tool_use_id.slice(0, at) : 'unknown'));
        }
      } else if (b.type === 'tool_use') record.push({ text: typedCommand(b.name, b.input ?? {}) });
      else {
        const p = part(b);
        if (p) record.push(p);
      }
    }
    release();
    if (record.length > 0 && !ignored(record)) for (const p of record) if (p.text !== '') items.push({ role: 'user', part: p });
  }
  release();
  return items;
}
