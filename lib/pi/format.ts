// The pi session format (pi-coding-agent 0.73.1, session version 3): one JSON object per
// line, a `session` header first, then entries linked into a tree by `id` and
// `parentId` (src/core/session-manager.ts). The conversation is not the file from top to
// bottom: the client takes the file's last entry as the leaf and walks `parentId` up to
// the root (buildSessionContext). Only the fields txcript reads are typed; every entry
// keeps its other fields. docs/harnesses/pi.md describes the format.

/** Every entry type of a version 3 session file (unknown types are kept as kind `other`). */
export const ENTRY_TYPES = [
  'session',
  'message',
  'model_change',
  'thinking_level_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
] as const;

/** An entry type txcript knows. */
export type EntryType = (typeof ENTRY_TYPES)[number];

/** The roles of a `message` entry's message (AgentMessage): the API's three, and the coding agent's own. */
export const MESSAGE_ROLES = ['user', 'assistant', 'toolResult', 'bashExecution', 'custom', 'branchSummary', 'compactionSummary'] as const;

/** The session version 0.73.1 writes (1: linear entries without ids; 2: the tree; 3: `hookMessage` renamed `custom`). */
export const SESSION_VERSION = 3;

/** The first line: the session's identity and where it ran (not part of the tree). */
export interface SessionHeader {
  type: 'session';
  version?: number;
  id: string;
  timestamp?: string;
  cwd?: string;
  /** The session file this one was forked or cloned from. */
  parentSession?: string;
}

/** What every entry but the header has. */
export interface EntryBase {
  type: string;
  /** 8 hex digits (a whole UUID when the short ones collide); absent in version 1 files. */
  id?: string;
  /** The entry this one follows; null for the tree's root. */
  parentId?: string | null;
  /** ISO 8601. */
  timestamp?: string;
}

/** A content block of a user message or tool result. */
export type PiUserBlock = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** A content block of an assistant message. */
export type PiAssistantBlock =
  | { type: 'text'; text: string; textSignature?: string }
  | { type: 'thinking'; thinking: string; thinkingSignature?: string; redacted?: boolean }
  | { type: 'toolCall'; id: string; name: string; arguments: Record<string, unknown>; thoughtSignature?: string };

/** Token accounting of one response; `input` excludes cached input (every pi provider subtracts it). */
export interface PiUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

/** How an assistant message ended. */
export type PiStopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';

/** The text the client puts around a compaction's summary when it sends it (src/core/messages.ts). */
export const COMPACTION_SUMMARY_PREFIX = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
export const COMPACTION_SUMMARY_SUFFIX = '\n</summary>';
/** The text the client puts around a branch summary when it sends it. */
export const BRANCH_SUMMARY_PREFIX = 'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n';
export const BRANCH_SUMMARY_SUFFIX = '</summary>';
