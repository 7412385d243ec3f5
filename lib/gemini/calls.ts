// Gemini function calls and function responses as Common tool_use and tool_result
// blocks. The client names a call `<tool>__<id>` in the file and strips the `<tool>__`
// before sending it (geminiChat.ts stripToolCallIdPrefixes); Common keeps the file's id,
// so a session written back is the same. A response is `{output}` or `{error}`; the
// parts after a functionResponse in a result (an image read_file returned) belong to it.
import type { Block, ToolResultBlock, ToolUseBlock, ToolView } from '../common.js';
import { partBlock, type Part } from './parts.js';

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A typed view of a call of one of the client's own tools, or undefined. */
export function geminiToolView(name: string, args: Record<string, unknown>): ToolView | undefined {
  switch (name) {
    case 'run_shell_command': {
      const command = str(args.command);
      if (command === undefined) return undefined;
      const view: ToolView = { kind: 'bash', command };
      if (str(args.description) !== undefined) view.description = args.description as string;
      if (args.is_background === true) view.run_in_background = true;
      return view;
    }
    case 'read_file': {
      const file_path = str(args.file_path) ?? str(args.absolute_path);
      if (file_path === undefined) return undefined;
      const view: ToolView = { kind: 'read', file_path };
      const start = num(args.start_line) ?? num(args.offset);
      const end = num(args.end_line);
      if (start !== undefined) view.offset = start;
      if (start !== undefined && end !== undefined) view.limit = end - start + 1;
      else if (num(args.limit) !== undefined) view.limit = args.limit as number;
      return view;
    }
    case 'write_file': {
      const file_path = str(args.file_path);
      const content = str(args.content);
      return file_path !== undefined && content !== undefined ? { kind: 'write', file_path, content } : undefined;
    }
    case 'replace': {
      const file_path = str(args.file_path);
      const old_string = str(args.old_string);
      const new_string = str(args.new_string);
      if (file_path === undefined || old_string === undefined || new_string === undefined) return undefined;
      const view: ToolView = { kind: 'edit', file_path, old_string, new_string };
      if (args.allow_multiple === true) view.replace_all = true;
      return view;
    }
    case 'invoke_agent': {
      const prompt = str(args.prompt);
      if (prompt === undefined) return undefined;
      const view: ToolView = { kind: 'agent', prompt };
      if (str(args.agent_name) !== undefined) view.subagent_type = args.agent_name as string;
      return view;
    }
    case 'activate_skill':
      return str(args.name) !== undefined ? { kind: 'skill', skill: args.name as string } : undefined;
    default:
      return undefined;
  }
}

/** A call's arguments as an input object (anything else kept whole under `args`). */
export function callInput(args: unknown): Record<string, unknown> {
  if (args && typeof args === 'object' && !Array.isArray(args)) return args as Record<string, unknown>;
  return args === undefined || args === null ? {} : { args };
}

/** The tool_use block of a call: its id (or `fallbackId` when it has none), name and arguments. */
export function toolUseBlock(id: string | undefined, name: unknown, args: unknown, fallbackId: string): ToolUseBlock {
  const input = callInput(args);
  const block: ToolUseBlock = { type: 'tool_use', id: id !== undefined && id !== '' ? id : fallbackId, name: typeof name === 'string' ? name : '', input };
  const view = geminiToolView(block.name, input);
  if (view) block.tool = view;
  return block;
}

/** What a function response says: its text, and whether it is an error. */
function responseOf(response: unknown): { text: string; error: boolean } {
  if (response && typeof response === 'object' && !Array.isArray(response)) {
    const r = response as Record<string, unknown>;
    const keys = Object.keys(r);
    if (typeof r.error === 'string' && keys.length === 1) return { text: r.error, error: true };
    if (typeof r.output === 'string' && keys.length === 1) return { text: r.output, error: false };
    return { text: JSON.stringify(r), error: 'error' in r };
  }
  return { text: typeof response === 'string' ? response : response === undefined ? '' : JSON.stringify(response), error: false };
}

/** One function response and the parts that follow it, as a tool_result; `fallbackId` pairs a response with no id. */
export function toolResultBlock(fr: Record<string, any>, extra: Part[], fallbackId: string): ToolResultBlock {
  const { text, error } = responseOf(fr.response);
  const id = typeof fr.id === 'string' && fr.id !== '' ? fr.id : fallbackId;
  let content: string | Block[] = text;
  const more = extra.map(partBlock).filter((b): b is Block => b !== null);
  // The output leads (a writer takes the first text as the output), left out only when empty and no other text could be taken for it.
  if (more.length > 0) content = text === '' && !more.some((b) => b.type === 'text') ? more : [{ type: 'text', text }, ...more];
  const block: ToolResultBlock = { type: 'tool_result', tool_use_id: id, content };
  if (error) block.is_error = true;
  return block;
}

/** The parts of a result list or a user content split at each functionResponse: what comes before any, and each response with the parts after it. */
export function splitResponses(parts: Part[]): { before: Part[]; responses: { fr: Record<string, any>; extra: Part[] }[] } {
  const before: Part[] = [];
  const responses: { fr: Record<string, any>; extra: Part[] }[] = [];
  for (const p of parts) {
    if (p.functionResponse && typeof p.functionResponse === 'object') responses.push({ fr: p.functionResponse, extra: [] });
    else if (responses.length > 0) responses[responses.length - 1]!.extra.push(p);
    else before.push(p);
  }
  return { before, responses };
}
