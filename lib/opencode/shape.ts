// The objects of an OpenCode session, as the client's API, `opencode export` and the
// stores before 1.2 (storage/{session,message,part}/…json) give them: the session's
// info, and each message's info with its parts (packages/opencode/src/session/
// message-v2.ts in the client's source). Only the fields txcript reads are typed; every
// other field rides along untouched.

/** Token counts as the client keeps them: `input` without cached input, `output` without reasoning. */
export interface OpencodeTokens {
  total?: number;
  input: number;
  output: number;
  reasoning: number;
  cache: { read: number; write: number };
}

/** A session's info (Session.Info). */
export interface SessionInfo {
  id: string;
  slug: string;
  projectID: string;
  directory: string;
  parentID?: string;
  title: string;
  version: string;
  model?: { id: string; providerID: string; variant?: string };
  time: { created: number; updated: number; compacting?: number; archived?: number };
  [key: string]: unknown;
}

/** A message's info (MessageV2.Info): a user or an assistant message. */
export interface MessageInfo {
  id: string;
  sessionID: string;
  role: 'user' | 'assistant';
  time: { created: number; completed?: number };
  parentID?: string;
  modelID?: string;
  providerID?: string;
  model?: { providerID: string; modelID: string };
  summary?: unknown;
  finish?: string;
  error?: { name?: string; data?: unknown };
  tokens?: OpencodeTokens;
  [key: string]: unknown;
}

/** One part of a message (MessageV2.Part), by its `type`. */
export interface Part {
  id: string;
  sessionID: string;
  messageID: string;
  type: string;
  [key: string]: any;
}

/** A message with its parts: the unit txcript reads and writes (one record each). */
export interface MessageWithParts {
  info: MessageInfo;
  parts: Part[];
}

/** `opencode export ID`: the session's info and its messages, oldest first. */
export interface ExportDocument {
  info: SessionInfo;
  messages: MessageWithParts[];
}

/** One line of an OpenCode session for txcript: its info, or one of its messages. */
export type OpencodeLine = SessionInfo | MessageWithParts;

/** The id prefixes the client's schemas require (packages/opencode/src/id/id.ts). */
export const ID_PREFIX = { session: 'ses_', message: 'msg_', part: 'prt_' } as const;
