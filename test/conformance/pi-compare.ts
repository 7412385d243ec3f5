// The comparison behind test/conformance/pi-*.test.ts: Common messages and the `messages`
// the real pi client sent on resume, both as Anthropic Messages, less what the client adds
// at resume time. Each documented difference is one named step here; anything else fails.
// Written apart from lib/pi, so the codec is judged by a second reading of the client.
import type { CommonMessage } from '../../lib/common.js';
import { PI_MODEL } from '../harness/pi/cli.js';

/** The prompt the oracle's resume run sends. */
export const PI_PROMPT = 'ping';

/** A message as the API sees it. */
export interface ApiMessage {
  role: string;
  content: any[];
}

/** Deep copy without `cache_control` (the client marks its cache breakpoint at request time). */
function withoutCacheControl(v: any): any {
  if (Array.isArray(v)) return v.map(withoutCacheControl);
  if (!v || typeof v !== 'object') return v;
  const out: any = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') out[k] = withoutCacheControl(x);
  return out;
}

/**
 * The conversation the client rebuilt: its request's messages less the prompt it was run
 * with (the last message), `cache_control` taken out, and a string content as the one text
 * block it stands for (the client sends a lone text so; Common always has blocks).
 */
export function clientConversation(messages: Array<{ role: string; content: unknown }>): ApiMessage[] {
  const rebuilt = messages.slice(0, -1);
  return rebuilt.map((m) => ({ role: m.role, content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : withoutCacheControl(m.content) }));
}

/** The last message the client sent: the prompt of the resume run, as a text. */
export function promptSent(messages: Array<{ role: string; content: unknown }>): string | null {
  const last = messages.at(-1) as any;
  if (!last || last.role !== 'user') return null;
  if (typeof last.content === 'string') return last.content;
  return Array.isArray(last.content) && last.content.length === 1 && last.content[0]?.type === 'text' ? last.content[0].text : null;
}

/** What the client sends for a shell command a person ran (pi's bashExecutionToText, read again from src/core/messages.ts). */
export function shellText(command: string, output: string, input: Record<string, any>): string {
  let text = `Ran \`${command}\`\n` + (output ? '```\n' + output + '\n```' : '(no output)');
  if (input.cancelled) text += '\n\n(command cancelled)';
  else if (input.exit_code !== undefined && input.exit_code !== null && input.exit_code !== 0) text += `\n\nCommand exited with code ${input.exit_code}`;
  if (input.truncated && input.full_output_path) text += `\n\n[Output truncated. Full output: ${input.full_output_path}]`;
  return text;
}

/** One Common block as the API block it stands for: Common's typed view of a tool call (`tool`) is not sent. */
function apiBlock(b: any): any {
  if (b.type === 'tool_use') return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
  if (b.type === 'thinking') return b.signature === undefined ? { type: 'thinking', thinking: b.thinking } : { type: 'thinking', thinking: b.thinking, signature: b.signature };
  return b;
}

/**
 * Common messages as the API messages the client sends for them, resumed with the model
 * `resumedWith` (the oracle's: the mock's). Step "shell commands": a `!` command on the user's side (a tool_use and
 * its tool_result, Common's form of a command a person ran) is the text the client sends
 * for it. Step "another model's thinking": the client sends a reply of another model
 * (a public session resumed with the mock) with its thinking as text and its redacted
 * thinking left out (pi-ai's transformMessages).
 */
export function apiOfCommon(messages: CommonMessage[], resumedWith: string = PI_MODEL): ApiMessage[] {
  return messages.map((m) => {
    const content: any[] = [];
    const blocks = m.content as any[];
    const foreign = m.role === 'assistant' && m.model !== undefined && m.model !== resumedWith;
    for (const b of blocks) {
      if (m.role === 'user' && b.type === 'tool_use' && b.name === '!') {
        const result = blocks.find((r) => r.type === 'tool_result' && r.tool_use_id === b.id);
        content.push({ type: 'text', text: shellText(String(b.input.args ?? ''), typeof result?.content === 'string' ? result.content : '', b.input) });
        continue;
      }
      if (m.role === 'user' && b.type === 'tool_result' && blocks.some((u) => u.type === 'tool_use' && u.name === '!' && u.id === b.tool_use_id)) continue;
      if (foreign && b.type === 'redacted_thinking') continue;
      if (foreign && b.type === 'thinking') {
        content.push({ type: 'text', text: b.thinking });
        continue;
      }
      content.push(apiBlock(b));
    }
    return { role: m.role, content };
  });
}

/** The parts of a conversation a round trip must keep, in order: user and assistant texts, tool calls, tool results. */
export function essentials(messages: ApiMessage[]): unknown[] {
  const out: unknown[] = [];
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === 'text') out.push([m.role, 'text', b.text]);
      else if (b.type === 'tool_use') out.push(['tool_use', b.id, b.name, b.input]);
      else if (b.type === 'tool_result') out.push(['tool_result', b.tool_use_id, b.content, b.is_error === true]);
      else if (b.type === 'image') out.push([m.role, 'image', b.source?.media_type, b.source?.data]);
    }
  }
  return out;
}
