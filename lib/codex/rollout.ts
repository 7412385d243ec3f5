// The Codex rollout format, as the CLI writes it from 0.1x to 0.169: one JSON object
// per line, `{timestamp, type, payload}` (newer lines add `ordinal` and `metadata`),
// the payload tagged by `type`. Early rollouts wrote bare response items and a header
// object without the envelope. Only the fields txcript reads are typed; every line
// keeps all its other fields, and an unknown `type` is kept as it is.

/** Every line type of an enveloped rollout, by the version that added it (unknown types are kept as kind `other`). */
export const ROLLOUT_TYPES = [
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
  'world_state',
  'token_usage_record',
  'inter_agent_communication',
  'inter_agent_communication_metadata',
  'security_risk_score',
] as const;

/** A rollout line type txcript knows. */
export type RolloutType = (typeof ROLLOUT_TYPES)[number];

/** One enveloped rollout line. */
export interface RolloutLine<T extends string = string, P = Record<string, unknown>> {
  timestamp?: string;
  type: T;
  payload: P;
  /** Position of the line in the thread (newer rollouts). */
  ordinal?: number;
  /** Harness metadata of the line (newer rollouts). */
  metadata?: Record<string, unknown>;
}

/** The first line: the session's identity and where it ran. */
export interface SessionMeta {
  id?: string;
  /** Newer rollouts repeat the id here. */
  session_id?: string;
  /** A fork's parent session. */
  forked_from_id?: string | null;
  timestamp?: string;
  cwd?: string;
  originator?: string;
  cli_version?: string;
  source?: unknown;
  model_provider?: string | null;
  /** The base instructions (a string in early rollouts, `{text}` later). */
  instructions?: unknown;
  base_instructions?: unknown;
  git?: { commit_hash?: string; branch?: string; repository_url?: string } | null;
}

/** One block of a message's content. */
export interface ContentItem {
  type: 'input_text' | 'output_text' | 'input_image' | 'input_file' | string;
  text?: string;
  image_url?: string | null;
  detail?: string | null;
}

/** A message item: what the model was given (user, developer, system) or said (assistant). */
export interface MessageItem {
  type: 'message';
  id?: string | null;
  role: 'user' | 'assistant' | 'developer' | 'system' | string;
  content: ContentItem[];
  /** `commentary` (mid-turn) or `final_answer` / `output` (newer rollouts). */
  phase?: string | null;
}

/** The model's reasoning: summaries to show, opaque content to send back. */
export interface ReasoningItem {
  type: 'reasoning';
  id?: string;
  summary?: { type: 'summary_text' | string; text: string }[];
  content?: { type: 'reasoning_text' | 'text' | string; text: string }[] | null;
  encrypted_content?: string | null;
}

/** A function tool call; `arguments` is a JSON string as the model wrote it. */
export interface FunctionCallItem {
  type: 'function_call';
  id?: string;
  call_id: string;
  name: string;
  namespace?: string | null;
  arguments: string;
}

/** A freeform tool call (apply_patch and other grammar tools); `input` is the raw text. */
export interface CustomToolCallItem {
  type: 'custom_tool_call';
  id?: string;
  call_id: string;
  name: string;
  input: string;
  status?: string;
}

/** A shell call the model made through the built-in local_shell tool. */
export interface LocalShellCallItem {
  type: 'local_shell_call';
  id?: string;
  call_id?: string | null;
  status?: string;
  action: { type: 'exec'; command: string[]; timeout_ms?: number | null; working_directory?: string | null; env?: Record<string, string> | null; user?: string | null };
}

/** A web search the model ran (no output item: the results went to the model directly). */
export interface WebSearchCallItem {
  type: 'web_search_call';
  id?: string;
  status?: string;
  action?: { type: 'search' | 'open_page' | 'find_in_page' | string; query?: string; url?: string | null; pattern?: string | null };
}

/** The output of a tool call: a string, a list of content items, or (older rollouts) `{content, success}`. */
export type ToolOutput = string | ContentItem[] | { content?: string; content_items?: ContentItem[] | null; success?: boolean | null } | ContentItem;

/** The output of a function_call, local_shell_call or custom_tool_call, joined to its call by `call_id`. */
export interface CallOutputItem {
  type: 'function_call_output' | 'custom_tool_call_output' | 'tool_search_output' | 'mcp_tool_call_output';
  id?: string;
  call_id: string;
  output?: ToolOutput;
}

/** A compaction item inside the conversation (remote compaction; opaque). */
export interface CompactionItem {
  type: 'compaction' | 'compaction_summary';
  encrypted_content?: string;
}

/** Any response item txcript reads. */
export type ResponseItem = MessageItem | ReasoningItem | FunctionCallItem | CustomToolCallItem | LocalShellCallItem | WebSearchCallItem | CallOutputItem | CompactionItem;

/** Response item types that are output items of a tool call. */
export const CALL_OUTPUT_TYPES: ReadonlySet<string> = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output', 'mcp_tool_call_output']);

/** Response item types the model emits to call a tool. */
export const CALL_TYPES: ReadonlySet<string> = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call', 'tool_search_call', 'image_generation_call']);

/** A compaction: the summary and, in newer rollouts, the history that replaces everything before it. */
export interface CompactedItem {
  message: string;
  replacement_history?: ResponseItem[] | null;
  window_number?: number;
}

/** Token counts as Codex reports them. */
export interface TokenUsage {
  input_tokens?: number;
  cached_input_tokens?: number;
  cache_write_input_tokens?: number;
  output_tokens?: number;
  reasoning_output_tokens?: number;
  total_tokens?: number;
}

/** The token_count event: running totals of the session and the usage of the last request. */
export interface TokenCountEvent {
  type: 'token_count';
  info?: { total_token_usage?: TokenUsage; last_token_usage?: TokenUsage; model_context_window?: number | null } | null;
  rate_limits?: unknown;
}

/** The event a person's message leaves (what they typed, with images). */
export interface UserMessageEvent {
  type: 'user_message';
  message: string;
  images?: string[] | null;
  local_images?: string[] | null;
  kind?: string;
}

/** Line types whose payload is bookkeeping about the session rather than conversation. */
export const META_TYPES: ReadonlySet<string> = new Set(['session_meta', 'turn_context', 'world_state', 'inter_agent_communication_metadata', 'security_risk_score', 'token_usage_record']);
