// The comparison behind test/conformance/common.test.ts: a Common stream and the
// conversation the real client sent on resume, each less the differences tx-common(1)
// documents under DIFFERENCES FROM THE CLIENT, one named step per difference.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../harness/index.js';
import { envelopeKind } from '../../lib/claude-code/envelope.js';
import { isModeled, type Block, type CommonLine, type CommonMessage } from '../../lib/common.js';

/** The prompt the oracle's resume run sends. */
export const PROMPT = 'next';
// How the client frames a prompt typed while a turn ran (a queued_command attachment); Common keeps the prompt alone.
const QUEUED = /^(?:<system-reminder>\n)?The user sent a new message while you were working:\n([\s\S]*?)\n\nThis is how Claude Code surfaces messages[\s\S]*$/;

/** A message as the API sees it. */
export interface ApiMessage {
  role: string;
  content: any[];
}

/** The Common stream of a file: tx-parse | tx-common --active, run as a user would. */
/** The Common messages of a file, as a user gets them. */
export function commonOf(file: string): CommonMessage[] {
  const root = repoRoot();
  const parsed = spawnSync(process.execPath, [path.join(root, 'build/bin/tx-parse.js'), file], { maxBuffer: 1 << 30 });
  const common = spawnSync(process.execPath, [path.join(root, 'build/bin/tx-common.js'), '--active'], { input: parsed.stdout, maxBuffer: 1 << 30 });
  if (common.status !== 0) throw new Error(`tx-common failed: ${common.stderr}`);
  const lines = common.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CommonLine);
  return lines.filter((l): l is CommonMessage => l.type === 'message');
}

function blocksOfContent(content: unknown): any[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

/** Deep copy without `cache_control` (the client marks cache breakpoints at request time). */
function withoutCacheControl(v: any): any {
  if (Array.isArray(v)) return v.map(withoutCacheControl);
  if (!v || typeof v !== 'object') return v;
  const out: any = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') out[k] = withoutCacheControl(x);
  return out;
}

/** Join neighbours of one role (what is left once other entries were taken out) and drop empty messages. */
function mergeRoles(messages: ApiMessage[]): ApiMessage[] {
  const out: ApiMessage[] = [];
  for (const m of messages) {
    if (m.content.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === m.role) last.content.push(...m.content);
    else out.push({ role: m.role, content: [...m.content] });
  }
  return out;
}

/** Every text of a conversation (text blocks and string tool results), to tell what only one side holds. */
export function textsOf(messages: { content: unknown }[]): Set<string> {
  const texts = new Set<string>();
  for (const m of messages) {
    for (const b of blocksOfContent(m.content)) {
      if (b.type === 'text' && typeof b.text === 'string') texts.add(b.text);
      if (b.type === 'tool_result' && typeof b.content === 'string') texts.add(b.content);
    }
  }
  return texts;
}

/** A tool_result whose content holds a tool_reference block. */
function isToolReferenceResult(b: any): boolean {
  return b?.type === 'tool_result' && Array.isArray(b.content) && b.content.some((x: any) => x?.type === 'tool_reference');
}

/** The client's side, less what it adds at resume time. */
export function clientSide(messages: unknown[], common: CommonMessage[]): ApiMessage[] {
  const commonTexts = textsOf(common);
  const commonClosing = [...common].reverse().find((m) => m.role === 'assistant')?.content.at(-1);
  let msgs = (messages as { role: string; content: unknown }[])
    // 1. role:"system" entries (environment, reminders) are the client's own.
    .filter((m) => m.role !== 'system')
    .map((m) => ({ role: m.role, content: blocksOfContent(m.content).map(withoutCacheControl) }));
  msgs = msgs.map((m) => ({
    role: m.role,
    content: m.content
      // 5. A queued prompt: the client's framing around the person's words.
      .map((b) => {
        const queued = b.type === 'text' && typeof b.text === 'string' ? QUEUED.exec(b.text) : null;
        return queued ? { type: 'text', text: queued[1] } : b;
      })
      // 11. After a result holding tool_reference blocks (ToolSearch) the client adds "Tool loaded." (not in the file).
      .filter((b, i, all) => !(b.type === 'text' && b.text === 'Tool loaded.' && i > 0 && isToolReferenceResult(all[i - 1]) && !commonTexts.has(b.text)))
      // 6. The client ends a user text block with a newline where it joins two user lines into one message.
      .map((b, i, all) => (m.role === 'user' && b.type === 'text' && i < all.length - 1 && typeof b.text === 'string' && b.text.endsWith('\n') && !commonTexts.has(b.text) ? { ...b, text: b.text.slice(0, -1) } : b))
      .filter((b) => {
      if (b.type !== 'text' || typeof b.text !== 'string') return true;
      // 2. <system-reminder> text the client injects at resume (not in the file).
      if (b.text.startsWith('<system-reminder>') && !commonTexts.has(b.text)) return false;
      // 3. Slash commands travel as their envelope text (caveat, command, output); Common has them as command tool_use/tool_result.
      if (envelopeKind(b.text.trim()) !== null) return false;
      return true;
    }),
  }));
  // 9. What the client adds when it repairs a session that ended mid-turn: a result for each
  // call left unanswered, and an assistant "No response requested." before the new prompt.
  msgs = msgs.map((m) => ({
    role: m.role,
    content: m.content.filter((b) => !(b.type === 'tool_result' && typeof b.content === 'string' && b.content.startsWith('[Tool call interrupted: the session ended') && !commonTexts.has(b.content))),
  }));
  const closing = [...msgs].reverse().find((m) => m.role === 'assistant');
  if (closing?.content.at(-1)?.text === 'No response requested.' && !(commonClosing?.type === 'text' && commonClosing.text === 'No response requested.')) closing.content.pop();
  // 4. The prompt the oracle's `--resume` run appended.
  const last = msgs.at(-1);
  const tail = last?.content.at(-1);
  if (last && last.role === 'user' && tail?.type === 'text' && tail.text === PROMPT) last.content.pop();
  return mergeRoles(msgs);
}

/** Common's side, as API messages: without the typed views, command blocks and Common's own fields. */
export function commonSide(messages: CommonMessage[], clientTexts: Set<string>): ApiMessage[] {
  const commandIds = new Set<string>();
  for (const m of messages) for (const b of m.content as any[]) if (b.type === 'tool_use' && b.tool?.kind === 'command') commandIds.add(b.id);
  const api = (b: Block): any => {
    if (!isModeled(b)) return b;
    // 5. A queued prompt: Common keeps its origin, the client frames the words with it.
    if (b.type === 'text' && b.origin !== undefined) return { type: 'text', text: b.text };
    // 8. The client renames the subagent tool of older files (Task) to its current name (Agent).
    if (b.type === 'tool_use') return { type: 'tool_use', id: b.id, name: b.name === 'Task' ? 'Agent' : b.name, input: b.input };
    if (b.type === 'tool_result') {
      const r: any = { type: 'tool_result', tool_use_id: b.tool_use_id, content: b.content };
      if (b.is_error) r.is_error = true;
      return r;
    }
    return b;
  };
  return mergeRoles(
    messages.map((m) => ({
      role: m.role,
      content: (m.content as any[])
        .filter((b) => !(b.type === 'tool_use' && commandIds.has(b.id)) && !(b.type === 'tool_result' && commandIds.has(b.tool_use_id)))
        // 10. A background agent's <task-notification> turn: the model saw it, the client leaves it out on resume.
        .filter((b) => !(b.type === 'text' && b.text.startsWith('<task-notification>') && !clientTexts.has(b.text)))
        .map(api),
    })),
  );
}

/** The client's tool_result blocks may say is_error:false where Common leaves it out. */
export function normaliseResults(messages: ApiMessage[]): ApiMessage[] {
  return messages.map((m) => ({
    role: m.role,
    content: m.content.map((b) => {
      if (b.type !== 'tool_result' || b.is_error !== false) return b;
      const { is_error: _dropped, ...rest } = b;
      return rest;
    }),
  }));
}

