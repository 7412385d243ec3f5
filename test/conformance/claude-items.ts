// The comparison behind the tests that continue another harness's session in Claude Code
// (to-claude.ts, pi-to-others.test.ts): a Common conversation as the items the
// real client should send for it, and the items it did send, less what it adds itself.
import { isModeled, type Block, type CommonMessage } from '../../lib/common.js';
import { PLACEHOLDER_OPENING, PLACEHOLDER_RESULT } from '../../lib/continuable/rules.js';

/** The prompt the resume runs send. */
export const PROMPT = 'next';
const NO_RESPONSE = 'No response requested.';

/** One item of a conversation, in the form both sides are compared in. */
export type Item = Record<string, unknown>;

function textOf(s: string): Item | null {
  const text = s.trimEnd();
  return text.trim() === '' ? null : { type: 'text', text };
}

/** Tool result content as compared: a list of texts and images. */
function resultContent(content: unknown): Item[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content.trimEnd() }];
  if (!Array.isArray(content)) return [];
  return content.map((b: any) => (b?.type === 'text' ? { type: 'text', text: String(b.text).trimEnd() } : b?.type === 'image' ? { type: 'image', source: b.source } : b));
}

function objectInput(input: unknown): unknown {
  return input && typeof input === 'object' && !Array.isArray(input) ? input : { input };
}

/**
 * The items a Common conversation should reach Claude Code as (tx-native(1), Continuable):
 * texts and calls in order; a call's input wrapped when it is not an object; reasoning
 * left out (Codex's, which the Messages API cannot read); a call no result answers gets a
 * placeholder result after the results the next user message holds (else before the next
 * reply, or at the end). Steps "calls after text" and "results first": the client sends
 * a reply's tool calls after its text, and the user messages between two replies as one
 * whose tool results come first (tx-native(1), DIFFERENCES ON RESUME).
 */
export function expectedItems(messages: CommonMessage[]): Item[] {
  const answered = new Set<string>();
  for (const m of messages) for (const b of m.content) if (b.type === 'tool_result') answered.add((b as any).tool_use_id);
  const out: Item[] = [];
  let missing: string[] = [];
  // The user messages since the last reply: the client sends them as one, its results first.
  let run: Item[] | null = null;
  const endRun = () => {
    if (run === null) {
      for (const id of missing) out.push({ type: 'tool_result', id, missing: true });
    } else out.push(...run.filter((i) => i.type === 'tool_result'), ...run.filter((i) => i.type !== 'tool_result'));
    missing = [];
    run = null;
  };
  for (const m of messages) {
    const items: Item[] = [];
    for (const b of m.content as Block[]) {
      if (!isModeled(b)) continue;
      if (b.type === 'text') {
        const x = textOf(b.text);
        if (x) items.push({ role: m.role, ...x });
      } else if (b.type === 'image') items.push({ role: m.role, type: 'image', source: b.source });
      else if (b.type === 'tool_use') items.push({ type: 'tool_use', id: b.id, name: b.name, input: objectInput(b.input) });
      else if (b.type === 'tool_result') items.push({ type: 'tool_result', id: b.tool_use_id, content: resultContent(b.content), error: b.is_error === true });
    }
    if (m.role === 'assistant') {
      endRun();
      out.push(...items.filter((i) => i.type !== 'tool_use'), ...items.filter((i) => i.type === 'tool_use'));
      missing = items.filter((i) => i.type === 'tool_use' && !answered.has(i.id as string)).map((i) => i.id as string);
      continue;
    }
    if (run === null) {
      let lead = 0;
      while (lead < items.length && items[lead].type === 'tool_result') lead++;
      run = [...items.slice(0, lead), ...missing.map((id) => ({ type: 'tool_result', id, missing: true })), ...items.slice(lead)];
      missing = [];
    } else run.push(...items);
  }
  endRun();
  return out;
}

/** The items of the conversation Claude Code sent, less what it adds itself at resume time (tx-native(1), DIFFERENCES ON RESUME). */
export function sentItems(messages: unknown[]): Item[] {
  const out: Item[] = [];
  for (const m of messages as { role: string; content: unknown }[]) {
    if (m.role === 'system') continue;
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (m.role === 'assistant' && blocks.length === 1 && blocks[0].type === 'text' && blocks[0].text === NO_RESPONSE) continue;
    for (const b of blocks as any[]) {
      if (b.type === 'text') {
        if (b.text.startsWith('<system-reminder>') || b.text === PLACEHOLDER_OPENING) continue;
        const x = textOf(b.text);
        if (x) out.push({ role: m.role, ...x });
      } else if (b.type === 'image') out.push({ role: m.role, type: 'image', source: b.source });
      else if (b.type === 'tool_use') out.push({ type: 'tool_use', id: b.id, name: b.name, input: b.input });
      else if (b.type === 'tool_result') {
        if (b.content === PLACEHOLDER_RESULT) out.push({ type: 'tool_result', id: b.tool_use_id, missing: true });
        else out.push({ type: 'tool_result', id: b.tool_use_id, content: resultContent(b.content), error: b.is_error === true });
      }
    }
  }
  // The prompt the resume run sent is the client's, not the file's.
  const last = out.at(-1);
  if (last && last.role === 'user' && last.text === PROMPT) out.pop();
  return out;
}

