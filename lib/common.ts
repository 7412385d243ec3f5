// Wire contract 2: the Common stream. A harness-neutral conversation in Anthropic
// Messages shape: a `session` line, then that session's `message` lines; many
// sessions may follow each other in one stream. tx-common(1) documents each field.

/** The line that opens a session in a Common stream. */
export interface CommonSession {
  type: 'session';
  harness: string;
  id: string;
  /** The title a person sees: the custom title, else the agent name, else the first summary. */
  title?: string;
  /** The title the person gave the session (Claude Code's custom-title line), when they named it. */
  custom_title?: string;
  /** The title the client generated for the session (Claude Code's ai-title line). */
  ai_title?: string;
  cwd?: string;
  git_branch?: string;
  version?: string;
  model?: string;
  /** The provider the model was reached through, where the harness records one (Codex's session_meta.model_provider). */
  model_provider?: string;
  started_at?: string;
  /** For a subagent transcript: the session and tool_use that spawned it. */
  parent?: { session: string; tool_use_id?: string; agent_id?: string; agent_type?: string; description?: string };
  /** The file the session was read from, when known. */
  src?: string;
}

/** Where a user text block came from, when it was not typed as the turn's prompt. */
export type TextOrigin = 'queued';

/** One API message. */
export interface CommonMessage {
  type: 'message';
  id: string;
  role: 'user' | 'assistant';
  timestamp?: string;
  model?: string;
  content: Block[];
  stop_reason?: string | null;
  usage?: Usage;
  /** True for messages of a sidechain (a subagent's conversation inside the main file). */
  sidechain?: true;
  /** True on the first message after a compaction: the model's conversation restarts here, from the compact summary. */
  after_compaction?: true;
  /** True on a user message that was the harness's own instructions to the model (a Codex `developer` message). */
  developer?: true;
}

/** One line of a Common stream. */
export type CommonLine = CommonSession | CommonMessage;

/** Token accounting of one API message, in the Anthropic API's fields. */
export interface Usage {
  /** Input tokens without cache reads and cache writes (their own fields), whatever the harness counts. */
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  [key: string]: unknown;
}

/** Prose. */
export interface TextBlock {
  type: 'text';
  text: string;
  /** `queued`: a prompt the person typed while a turn was running; the client delivers it inside that turn. */
  origin?: TextOrigin;
}

/** Model reasoning; `thinking` may be empty with only a signature. */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature?: string;
}

/** Reasoning the API returned encrypted. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
  /** The harness's own kind of item when it is not reasoning (Codex: `compaction`, the server's encrypted summary of the conversation before it). */
  native_type?: string;
}

/** A typed view of a known tool's input (the input itself stays in `input`). */
export type ToolView =
  | { kind: 'bash'; command: string; description?: string; timeout?: number; run_in_background?: boolean }
  | { kind: 'read'; file_path: string; offset?: number; limit?: number }
  | { kind: 'write'; file_path: string; content: string }
  | { kind: 'edit'; file_path: string; old_string: string; new_string: string; replace_all?: boolean }
  | { kind: 'multi_edit'; file_path: string; edits: { old_string: string; new_string: string; replace_all?: boolean }[] }
  | { kind: 'command'; name: string; args?: string; message?: string }
  | { kind: 'agent'; prompt: string; description?: string; subagent_type?: string }
  | { kind: 'skill'; skill: string; args?: string }
  | { kind: 'patch'; patch: string };

/** A tool call; slash commands a person ran are tool_uses named after the command (`/compact`). */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  tool?: ToolView;
  /** Who made the call, as the API says (`{"type":"direct"}`, or the code that called it), when it says. */
  caller?: unknown;
  /**
   * The harness's own kind of call when it is not a plain function call (Codex:
   * `custom_tool_call`, whose freeform text is `input.input`; `local_shell_call`;
   * `web_search_call`; `tool_search_call`).
   */
  native_type?: string;
}

/** The outcome of a tool call, on a user message. */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | Block[];
  is_error?: boolean;
}

/** An inline image. */
export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };
  /** The detail level the image was sent at, when the harness says (Codex: `auto`, `low`, `high`, `original`). */
  detail?: string;
}

/** A named file the conversation published (Claude Code's Artifact tool). */
export interface ArtifactBlock {
  type: 'artifact';
  /** The tool_use id that published it; its tool_result answers this id. */
  id: string;
  name: string;
  description?: string;
  source: { type: 'path'; path: string; media_type?: string } | { type: 'base64'; data: string; media_type?: string } | { type: 'text'; text: string; media_type?: string };
}

/** Every block type the Common model describes. */
export type ModeledBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | ToolResultBlock | ImageBlock | ArtifactBlock;

/**
 * A block of a type Common does not model (a ToolSearch `tool_reference`, a `document`,
 * server tool blocks, whatever the API adds next), carried verbatim both ways.
 */
export interface NativeBlock {
  type: string;
  [key: string]: unknown;
}

/** A block of a Common message: a modeled one, or a native block carried verbatim. */
export type Block = ModeledBlock | NativeBlock;

/** The block types Common models; every other type is a native block. */
export const MODELED_TYPES: ReadonlySet<string> = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'image', 'artifact']);

/** True for a block of a type Common models (then its fields are the type's own). */
export function isModeled(b: Block): b is ModeledBlock {
  return MODELED_TYPES.has(b.type);
}

const str = (v: unknown) => typeof v === 'string';

/** What is wrong with a value read as a Common block, or null when it has the fields its type needs. */
export function blockProblem(b: any): string | null {
  if (!b || typeof b !== 'object' || Array.isArray(b)) return 'a block that is not an object';
  switch (b.type) {
    case 'text':
      if (!str(b.text)) return 'a text block without text';
      return b.origin === undefined || b.origin === 'queued' ? null : `a text block of unknown origin ${JSON.stringify(b.origin)}`;
    case 'thinking':
      return str(b.thinking) && (b.signature === undefined || str(b.signature)) ? null : 'a thinking block without thinking';
    case 'redacted_thinking':
      return str(b.data) ? null : 'a redacted_thinking block without data';
    case 'tool_use':
      return str(b.id) && str(b.name) ? null : 'a tool_use block without id or name';
    case 'tool_result':
      return str(b.tool_use_id) ? null : 'a tool_result block without tool_use_id';
    case 'image':
      return b.source && typeof b.source === 'object' ? null : 'an image block without source';
    case 'artifact':
      return str(b.id) && str(b.name) && b.source && typeof b.source === 'object' && ['path', 'base64', 'text'].includes(b.source.type) ? null : 'an artifact block without id, name or source';
    default:
      // Any other type is a native block, carried as it is.
      return str(b.type) && b.type !== '' ? null : 'a block without a type';
  }
}

/** What is wrong with a value read as a Common message, or null when its role and content are usable. */
export function messageProblem(m: any): string | null {
  if (m.role !== 'user' && m.role !== 'assistant') return `a message whose role is ${JSON.stringify(m.role)}`;
  if (!Array.isArray(m.content)) return 'a message whose content is not a block list';
  return null;
}

/** The blocks of a message a writer can use, each one left out said in `warnings`; null (also said) when the message itself is unusable. */
export function usableBlocks(m: CommonMessage, warnings: string[]): Block[] | null {
  const problem = messageProblem(m);
  if (problem) {
    warnings.push(`${problem}, skipped`);
    return null;
  }
  return m.content.filter((b) => {
    const bad = blockProblem(b);
    if (bad) warnings.push(`${bad}, left out`);
    return !bad;
  });
}

/** True for a message line of a Common stream: a native entry of the same type (pi's) holds its message under `message`, which a Common line never has. */
export function isCommonMessageLine(v: any): boolean {
  return !!v && typeof v === 'object' && v.type === 'message' && !(v.message !== null && typeof v.message === 'object');
}

/** A session line with its ill-typed fields left out, and what was left out. */
export function cleanSession(value: any): { session: CommonSession; problems: string[] } {
  const problems: string[] = [];
  const session: CommonSession = { type: 'session', harness: typeof value.harness === 'string' ? value.harness : 'unknown', id: typeof value.id === 'string' ? value.id : '' };
  if (value.id !== undefined && typeof value.id !== 'string') problems.push('a session id that is not a string');
  for (const key of ['title', 'custom_title', 'ai_title', 'cwd', 'git_branch', 'version', 'model', 'model_provider', 'started_at', 'src'] as const) {
    const v = value[key];
    if (typeof v === 'string') session[key] = v;
    else if (v !== undefined && v !== null) problems.push(`a session ${key} that is not a string, left out`);
  }
  const p = value.parent;
  if (p && typeof p === 'object' && typeof p.session === 'string') {
    const parent: NonNullable<CommonSession['parent']> = { session: p.session };
    for (const key of ['tool_use_id', 'agent_id', 'agent_type', 'description'] as const) if (typeof p[key] === 'string') parent[key] = p[key];
    session.parent = parent;
  } else if (p !== undefined && p !== null) problems.push('a session parent without a session id, left out');
  return { session, problems };
}
