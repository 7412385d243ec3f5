// What a target client needs of a conversation it continues, as each codec states it for
// its harness (lib/codec.ts, continueRules), and what stops a conversion.

/** What a target client needs of a conversation it continues (each codec says it for its harness). */
export interface ContinueRules {
  /** The context window of the client's default model, in tokens. */
  contextWindow: number;
  /** Tool inputs must be JSON objects; any other input is wrapped as {"input": value}. */
  objectInputs: boolean;
  /** The client resumes from the latest compaction the writer marks, leaving out what came before (so only that part must fit). */
  startsAtCompaction: boolean;
  /**
   * Where a call's result may come: `next` (Anthropic Messages: in the user messages right
   * after the reply that made the call) or `later` (OpenAI Responses: anywhere after it).
   */
  results: 'next' | 'later';
  /** The conversation must open with a user message (the Anthropic Messages API requires it; the Responses API does not). */
  userFirst: boolean;
  /** The kinds of call (`native_type`) the client expects no result for: calls the API's server ran itself (Codex: web_search_call). */
  callsWithoutResults: readonly string[];
  /** Reasoning another harness wrote is left out: its signature or ciphertext is the other vendor's, which this target's API rejects. */
  dropsForeignReasoning: boolean;
}

/** How a conversation is made continuable. */
export interface ContinueOptions {
  /** Start from the latest compaction (the first message marked after_compaction), leaving out what came before. */
  fromCompaction: boolean;
  /** The context window to fit, in tokens (default: the target's). */
  contextWindow?: number;
}

/** The text of a tool_result written where a call had none. */
export const PLACEHOLDER_RESULT = '[placeholder] No result was recorded for this tool call; this text stands in for it so the conversation can continue.';
/** The text of a user message written before a conversation that begins with a reply. */
export const PLACEHOLDER_OPENING = '[placeholder] The recorded conversation begins with the reply below; no earlier message was recorded.';
/** A conversation the target could not continue. */
export class NotContinuable extends Error {}

