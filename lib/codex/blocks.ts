// One Codex response item as Common blocks: what each item type becomes, independent of
// where in the conversation it stands (lib/codex/to-common.ts decides that).
import type { Block, ImageBlock, RedactedThinkingBlock, TextBlock, ThinkingBlock, ToolResultBlock, ToolUseBlock, ToolView } from '../common.js';

/** The text the client gives a call whose output is missing from the history. */
export const ABORTED_OUTPUT = 'aborted';

/** The key a call's arguments are kept under when they are not a JSON object. */
export const RAW_ARGUMENTS = 'raw_arguments';

/** Which side of the conversation an item belongs to. */
export type ItemSide = 'assistant' | 'result' | 'user' | 'developer' | 'none';

/** The side of a response item: what the model made, a tool's answer, a user or developer message, or nothing the model sees. */
export function itemSide(item: any): ItemSide {
  switch (item?.type) {
    case 'message':
      if (item.role === 'assistant') return 'assistant';
      if (item.role === 'user') return 'user';
      if (item.role === 'developer') return 'developer';
      return 'none';
    case 'reasoning':
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
    case 'web_search_call':
    case 'tool_search_call':
    case 'compaction':
    case 'context_compaction':
      return 'assistant';
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'tool_search_output':
      return 'result';
    default:
      return 'none';
  }
}

/** An image of a message or tool output: a data URL becomes base64 data, anything else stays a URL. */
export function imageBlock(url: unknown, detail: unknown): ImageBlock | null {
  if (typeof url !== 'string') return null;
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  const block: ImageBlock = m ? { type: 'image', source: { type: 'base64', media_type: m[1]!, data: m[2]! } } : { type: 'image', source: { type: 'url', url } };
  if (typeof detail === 'string') block.detail = detail;
  return block;
}

/** The blocks of a message's content list (text, images; a refusal is text). */
export function contentBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const out: Block[] = [];
  for (const c of content) {
    if (!c || typeof c !== 'object') continue;
    if ((c.type === 'input_text' || c.type === 'output_text' || c.type === 'text') && typeof c.text === 'string') out.push({ type: 'text', text: c.text });
    else if (c.type === 'refusal' && typeof c.refusal === 'string') out.push({ type: 'text', text: c.refusal });
    else if (c.type === 'input_image') {
      const img = imageBlock(c.image_url, c.detail);
      if (img) out.push(img);
    }
  }
  return out;
}

/** A reasoning item as thinking: its summary parts joined by a blank line (else its raw text), the encrypted content as signature. */
export function thinkingBlock(item: any): ThinkingBlock {
  const texts = (list: unknown) => (Array.isArray(list) ? list.filter((p) => p && typeof p.text === 'string').map((p) => p.text as string) : []);
  const summary = texts(item.summary);
  const thinking = summary.length > 0 ? summary.join('\n\n') : texts(item.content).join('\n\n');
  const block: ThinkingBlock = { type: 'thinking', thinking };
  if (typeof item.encrypted_content === 'string') block.signature = item.encrypted_content;
  return block;
}

/** A compaction item (the server's encrypted summary of what came before) as an opaque block. */
export function compactionBlock(item: any): RedactedThinkingBlock {
  return { type: 'redacted_thinking', data: typeof item.encrypted_content === 'string' ? item.encrypted_content : '', native_type: item.type };
}

/** A call's arguments as an input object: parsed when they are a JSON object, else kept whole under `raw_arguments`. */
export function parseArguments(args: unknown): Record<string, unknown> {
  if (args && typeof args === 'object' && !Array.isArray(args)) return args as Record<string, unknown>;
  if (typeof args !== 'string') return args === undefined || args === null ? {} : { [RAW_ARGUMENTS]: args };
  try {
    const v: unknown = JSON.parse(args);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // kept whole below
  }
  return { [RAW_ARGUMENTS]: args };
}

/** A typed view of a known Codex tool call, or undefined. */
export function codexToolView(name: string, input: Record<string, unknown>): ToolView | undefined {
  if (name === 'exec_command' && typeof input.cmd === 'string') return { kind: 'bash', command: input.cmd };
  if ((name === 'shell_command' || name === 'shell') && typeof input.command === 'string') return { kind: 'bash', command: input.command };
  if ((name === 'shell' || name === 'container.exec') && Array.isArray(input.command) && input.command.every((c) => typeof c === 'string')) return { kind: 'bash', command: shellJoin(input.command as string[]) };
  if (name === 'apply_patch' && typeof input.input === 'string') return { kind: 'patch', patch: input.input };
  return undefined;
}

/** argv as one shell command line (words quoted where needed); a `bash -lc SCRIPT` is its script. */
function shellJoin(argv: string[]): string {
  if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2]!;
  return argv.map((w) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** The tool_use block of a call item, or null when the item is not a call. `fallbackId` names a call that has no id of its own. */
export function toolUseBlock(item: any, fallbackId: string): ToolUseBlock | null {
  let block: ToolUseBlock;
  switch (item.type) {
    case 'function_call': {
      block = { type: 'tool_use', id: str(item.call_id) ?? fallbackId, name: str(item.name) ?? '', input: parseArguments(item.arguments) };
      break;
    }
    case 'custom_tool_call':
      block = { type: 'tool_use', id: str(item.call_id) ?? fallbackId, name: str(item.name) ?? '', input: { input: typeof item.input === 'string' ? item.input : '' }, native_type: 'custom_tool_call' };
      break;
    case 'local_shell_call':
      block = { type: 'tool_use', id: str(item.call_id) ?? str(item.id) ?? fallbackId, name: 'local_shell', input: item.action && typeof item.action === 'object' ? item.action : {}, native_type: 'local_shell_call' };
      break;
    case 'web_search_call':
      block = { type: 'tool_use', id: str(item.id) ?? fallbackId, name: 'web_search', input: item.action && typeof item.action === 'object' ? item.action : {}, native_type: 'web_search_call' };
      break;
    case 'tool_search_call':
      block = { type: 'tool_use', id: str(item.call_id) ?? str(item.id) ?? fallbackId, name: 'tool_search', input: parseArguments(item.arguments), native_type: 'tool_search_call' };
      break;
    default:
      return null;
  }
  const view = item.type === 'local_shell_call' ? shellView(block.input) : codexToolView(block.name, block.input);
  if (view) block.tool = view;
  return block;
}

function shellView(action: Record<string, unknown>): ToolView | undefined {
  const argv = action.command;
  return Array.isArray(argv) && argv.every((c) => typeof c === 'string') ? { kind: 'bash', command: shellJoin(argv as string[]) } : undefined;
}

/** The call id an output item answers, or null. */
export function outputCallId(item: any): string | null {
  return str(item.call_id) ?? null;
}

/** The tool_result block of an output item. */
export function toolResultBlock(item: any): ToolResultBlock {
  const out = item.type === 'tool_search_output' ? JSON.stringify(item.tools ?? []) : item.output;
  let content: string | Block[];
  let failed = false;
  if (typeof out === 'string') content = out;
  else if (Array.isArray(out)) content = contentBlocks(out);
  else if (out && typeof out === 'object' && typeof out.content === 'string') {
    content = out.content;
    failed = out.success === false;
  } else content = out === undefined || out === null ? '' : JSON.stringify(out);
  const block: ToolResultBlock = { type: 'tool_result', tool_use_id: str(item.call_id) ?? '', content };
  if (failed || (typeof content === 'string' && failedByExitCode(content))) block.is_error = true;
  return block;
}

/** The "aborted" result the client gives a call that has no output. */
export function abortedResult(callId: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: callId, content: ABORTED_OUTPUT };
}

const EXIT_CODE = /^(?:Process exited with code|Exit code:) (-?\d+)$/m;

/** True when a tool's text output reports a non-zero exit code (exec_command, apply_patch, older shell JSON). */
export function failedByExitCode(text: string): boolean {
  const m = EXIT_CODE.exec(text);
  if (m) return m[1] !== '0';
  if (text.startsWith('{"output":')) {
    try {
      const code = (JSON.parse(text) as { metadata?: { exit_code?: unknown } }).metadata?.exit_code;
      return typeof code === 'number' && code !== 0;
    } catch {
      return false;
    }
  }
  return false;
}

/** The text blocks of a message, for telling contextual messages from prompts. */
export function firstText(item: any): string {
  const b = contentBlocks(item.content).find((x): x is TextBlock => x.type === 'text');
  return b ? b.text : '';
}

const CONTEXT_PREFIXES = ['<environment_context>', '<user_instructions>', '# AGENTS.md instructions for ', '<turn_aborted>', '<user_shell_command>', '<subagent_notification>', '<skill>'];

/** A user message the client wrote itself (environment, AGENTS.md instructions, notices), not a prompt: it does not start a turn. */
export function isContextualUserMessage(item: any): boolean {
  const text = firstText(item).trimStart();
  return CONTEXT_PREFIXES.some((p) => text.startsWith(p));
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
