// The comparison behind the tests that continue another harness's session in Codex
// (to-codex.ts, pi-to-others.test.ts): a Common conversation as the items the
// real client should send for it, in the normal form of codex-compare.ts.
import { isModeled, type CommonMessage } from '../../lib/common.js';
import { typedCommand } from '../helpers.js';
import type { Item } from './codex-compare.js';

function piece(b: any): unknown {
  if (b.type === 'text') return { type: 'text', text: b.text };
  const url = b.source.type === 'base64' ? `data:${b.source.media_type};base64,${b.source.data}` : b.source.url;
  return b.detail === undefined ? { type: 'image', url } : { type: 'image', url, detail: b.detail };
}

/**
 * A conversation in Common (Claude Code's, pi's) as the Codex items tx-native(1) maps it to, in the
 * normal form of codex-compare.ts (written apart from lib/codex): texts and images as
 * message pieces, thinking as reasoning without Claude's signature, tool_use as a function
 * call (a custom tool call for freeform `{"input": text}`), tool_result as its output, a
 * slash command and its output as user texts; blocks without a Codex form left out.
 */
export function mappedForCodex(messages: CommonMessage[]): Item[] {
  const out: Item[] = [];
  const custom = new Set<string>();
  for (const m of messages) {
    const role = m.developer ? 'developer' : m.role;
    const commands = new Set<string>();
    for (const b of m.content as any[]) {
      if (!isModeled(b)) continue;
      if (b.type === 'text' || b.type === 'image') out.push({ type: 'message', role, content: piece(b) });
      else if (b.type === 'thinking') out.push({ type: 'reasoning', text: b.thinking });
      else if (b.type === 'tool_use' && m.role === 'user') {
        commands.add(b.id);
        out.push({ type: 'message', role, content: { type: 'text', text: typedCommand(b.name, b.input ?? {}) } });
      } else if (b.type === 'tool_use') {
        const keys = Object.keys(b.input ?? {});
        if (keys.length === 1 && keys[0] === 'input' && typeof b.input.input === 'string') {
          custom.add(b.id);
          out.push({ type: 'custom_tool_call', call_id: b.id, name: b.name, input: b.input.input });
        } else out.push({ type: 'function_call', call_id: b.id, name: b.name, arguments: b.input });
      } else if (b.type === 'tool_result' && commands.has(b.tool_use_id)) {
        const text = typeof b.content === 'string' ? b.content : b.content.map((x: any) => (x.type === 'text' ? x.text : '')).join('\n');
        out.push({ type: 'message', role, content: { type: 'text', text } });
      } else if (b.type === 'tool_result') {
        const output = typeof b.content === 'string' ? b.content : b.content.filter((x: any) => x.type === 'text' || x.type === 'image').map(piece);
        out.push({ type: custom.has(b.tool_use_id) ? 'custom_tool_call_output' : 'function_call_output', call_id: b.tool_use_id, output });
      } else if (b.type === 'artifact' && b.source.type === 'path') {
        out.push({ type: 'function_call', call_id: b.id, name: 'Artifact', arguments: b.description === undefined ? { file_path: b.source.path } : { file_path: b.source.path, description: b.description } });
      }
    }
  }
  return out;
}

const OUTPUT: Record<string, string> = { custom_tool_call: 'custom_tool_call_output', tool_search_call: 'tool_search_output' };
const CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call']);

/**
 * Step "the client pairs calls and outputs": a call without an output gets the output
 * "aborted" from the client, and an output whose call is not in the conversation is
 * dropped by it (tx-native writes the conversation as Common has it).
 */
export function pairedByClient(items: Item[]): Item[] {
  const calls = new Set(items.filter((i) => CALLS.has(i.type)).map((i) => i.call_id));
  const answered = new Set(items.filter((i) => i.type.endsWith('_output')).map((i) => i.call_id));
  const out: Item[] = [];
  for (const i of items) {
    if (i.type.endsWith('_output') && !calls.has(i.call_id)) continue;
    out.push(i);
    if (CALLS.has(i.type) && !answered.has(i.call_id)) out.push({ type: OUTPUT[i.type] ?? 'function_call_output', call_id: i.call_id, output: 'aborted' });
  }
  return out;
}

const TRUNCATED = /…\d+ tokens truncated…/;

/**
 * Step "long outputs cut by the client": the client cuts the middle out of a long tool
 * output when it sends it ("…N tokens truncated…"); the rollout holds it whole. Where the
 * client's output is ours with the middle cut, ours takes the client's.
 */
export function truncatedByClient(ours: Item[], theirs: Item[]): Item[] {
  return ours.map((o, k) => {
    const c = theirs[k];
    if (!c || c.type !== o.type || c.call_id !== o.call_id || typeof o.output !== 'string' || typeof c.output !== 'string') return o;
    const m = TRUNCATED.exec(c.output);
    if (!m) return o;
    const head = c.output.slice(0, m.index).replace(/\s+$/, '');
    const tail = c.output.slice(m.index + m[0].length).replace(/^\s+/, '');
    return o.output.startsWith(head) && o.output.endsWith(tail) ? { ...o, output: c.output } : o;
  });
}

