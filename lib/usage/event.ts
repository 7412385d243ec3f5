// The usage of one API message, as every harness's stats counter emits it once the
// message's usage is final. Tokens mean the same in every harness (Common's fields):
// input WITHOUT cached reads and cache writes, so that sums across harnesses add up.

/** Token counts of one message, or sums of them. */
export interface Tokens {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** The four token fields, in the order they are written. */
export const TOKEN_KINDS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const;

/** One API message's final usage. */
export interface UsageEvent {
  /** The model that answered ('unknown' when the transcript does not say). */
  model: string;
  /** Who served it, when the transcript says (pi names its provider: `openrouter`, `amazon-bedrock`…): model ids are priced as that provider prices them first. */
  provider?: string;
  /** When the message was written, in ms since the epoch (NaN when its line has no timestamp). */
  time: number;
  tokens: Tokens;
  /** Of cache_creation_input_tokens, those written for an hour (the rest for 5 minutes, the default). */
  cache_1h: number;
  /** The session's working directory, the project it belongs to (null when unknown). */
  project: string | null;
}

/** Zeroed token counts. */
export function zeroTokens(): Tokens {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}

/** Add `b` into `a`. */
export function addTokens(a: Tokens, b: Tokens): void {
  a.input_tokens += b.input_tokens;
  a.output_tokens += b.output_tokens;
  a.cache_read_input_tokens += b.cache_read_input_tokens;
  a.cache_creation_input_tokens += b.cache_creation_input_tokens;
}

/** The milliseconds of an ISO timestamp (NaN when it is not one). */
export function timeOf(ts: unknown): number {
  return typeof ts === 'string' ? Date.parse(ts) : NaN;
}

/** Where a counter hands each message's usage once final, with its cost in nanodollars (null: no price). */
export type UsageSink = (event: UsageEvent, nanos: number | null) => void;
