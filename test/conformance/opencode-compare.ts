// The comparison behind test/conformance/opencode-common.test.ts: the Common of an
// OpenCode session and the conversation the real client sent on resume, each less the
// differences the client makes at request time, one named step per difference:
// 1. `cache_control` marks: the client puts them on the last messages of every request;
// 2. the resume's own prompt, the last text of the last user message;
// 3. neighbours of one role joined: the client's conversion to the Anthropic API sends a
//    tool result message and the prompt after it as one user message;
// 4. Common's own fields (`tool` views, message ids, timestamps, usage), which the API has not.
import type { CommonLine, CommonMessage } from '../../lib/common.js';
import { exportFileUnits } from '../../lib/opencode/export-file.js';
import { OpencodeToCommon } from '../../lib/opencode/to-common.js';

/** The prompt the oracle's resume run sends. */
export const OPENCODE_PROMPT = 'ping';

/** A message as the API sees it. */
export interface ApiMessage {
  role: string;
  content: any[];
}

/** The Common lines of an export document, as tx-common (--active) would write them. */
export function commonOfExport(file: string, active = true): CommonLine[] {
  const conv = new OpencodeToCommon({ src: file, active });
  try {
    for (const unit of exportFileUnits(file)) conv.push(unit.value);
    const text = [...conv.finish()].map((c) => c.toString()).join('');
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CommonLine);
  } finally {
    conv.dispose();
  }
}

/** The messages of a Common stream. */
export function messagesOf(lines: CommonLine[]): CommonMessage[] {
  return lines.filter((l): l is CommonMessage => l.type === 'message');
}

/** Deep copy without `cache_control`. */
function withoutCacheControl(v: any): any {
  if (Array.isArray(v)) return v.map(withoutCacheControl);
  if (!v || typeof v !== 'object') return v;
  const out: any = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') out[k] = withoutCacheControl(x);
  return out;
}

/** Join neighbours of one role and drop empty messages. */
export function mergeRoles(messages: ApiMessage[]): ApiMessage[] {
  const out: ApiMessage[] = [];
  for (const m of messages) {
    if (m.content.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === m.role) last.content.push(...m.content);
    else out.push({ role: m.role, content: [...m.content] });
  }
  return out;
}

/** A Common block as the API block it stands for. */
function apiBlock(b: any): any {
  if (b.type === 'tool_use') return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
  if (b.type === 'tool_result') {
    const r: any = { type: 'tool_result', tool_use_id: b.tool_use_id, content: Array.isArray(b.content) ? b.content.map(apiBlock) : b.content };
    if (b.is_error) r.is_error = true;
    return r;
  }
  return b;
}

/** Our side: Common messages as API messages, neighbours of one role joined. */
export function ourSide(common: CommonMessage[]): ApiMessage[] {
  return mergeRoles(common.map((m) => ({ role: m.role, content: m.content.map(apiBlock) })));
}

/** The client's side, less what it adds at request time. */
export function clientSide(messages: { role: string; content: unknown }[], prompt = OPENCODE_PROMPT): ApiMessage[] {
  const msgs: ApiMessage[] = withoutCacheControl(messages).map((m: any) => ({ role: m.role, content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [...m.content] }));
  const last = msgs.at(-1);
  const closing = last?.content.at(-1);
  if (last?.role === 'user' && closing?.type === 'text' && closing.text === prompt) last.content.pop();
  return mergeRoles(msgs);
}

