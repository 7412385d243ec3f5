// A conversation as the items a person checks when a session moves between clients: the
// user texts, assistant texts, reasoning, tool calls and tool results, in order, whatever
// way the messages were cut or the results' texts were split into blocks.
import type { CommonMessage } from '../../lib/common.js';

/** One item of a conversation. */
export type Item = ['user' | 'assistant' | 'thinking', string] | ['call', string, string, string] | ['result', string, string, boolean] | ['image', string, number];

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b) => b?.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('\n');
}

/** The items of API-shaped messages (Common messages, or a request's messages). */
export function itemsOf(messages: { role: string; content: unknown }[]): Item[] {
  const out: Item[] = [];
  for (const m of messages) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    for (const b of blocks as any[]) {
      if (b?.type === 'text' && typeof b.text === 'string' && b.text.trim() !== '') out.push([m.role === 'assistant' ? 'assistant' : 'user', b.text]);
      else if (b?.type === 'thinking' && typeof b.thinking === 'string' && b.thinking !== '') out.push(['thinking', b.thinking]);
      else if (b?.type === 'tool_use') out.push(['call', b.id, b.name, JSON.stringify(b.input)]);
      else if (b?.type === 'tool_result') out.push(['result', b.tool_use_id, resultText(b.content), b.is_error === true]);
      else if (b?.type === 'image') out.push(['image', String(b.source?.media_type), String(b.source?.data ?? b.source?.url ?? '').length]);
    }
  }
  return out;
}

/** The items of Common messages. */
export function itemsOfCommon(messages: CommonMessage[]): Item[] {
  return itemsOf(messages);
}
