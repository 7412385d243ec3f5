// Token usage per API message. Claude Code writes a streamed message as several
// assistant lines sharing message.id and repeats `usage` on each; on real files the
// input and cache counts are the same on every line and output_tokens grows, the
// last line holding the final count (checked on every corpus message). So a
// message's usage is the one on its last line.

/** The four token counters the guide names. */
export const TOKEN_FIELDS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const;

/** Token counts of one API message. */
export type Tokens = Record<(typeof TOKEN_FIELDS)[number], number>;

/** What an assistant line says about its API message. */
export interface MessageUsage {
  /** message.id; null on lines without one (each is then a message of its own). */
  id: string | null;
  model: string | null;
  tokens: Tokens;
  /** Of the cache writes, those written for an hour (usage.cache_creation.ephemeral_1h_input_tokens; 0 when the line does not say). */
  cache1h: number;
}

/** The usage an assistant line carries, or null (not an assistant line, or no usage object). */
export function messageUsage(line: any): MessageUsage | null {
  if (!line || line.type !== 'assistant') return null;
  const m = line.message;
  if (!m || typeof m !== 'object' || !m.usage || typeof m.usage !== 'object') return null;
  const tokens = {} as Tokens;
  for (const f of TOKEN_FIELDS) {
    const v = m.usage[f];
    tokens[f] = typeof v === 'number' && Number.isFinite(v) ? v : 0;
  }
  const hour = m.usage.cache_creation?.ephemeral_1h_input_tokens;
  const cache1h = typeof hour === 'number' && Number.isFinite(hour) ? hour : 0;
  return { id: typeof m.id === 'string' ? m.id : null, model: typeof m.model === 'string' ? m.model : null, tokens, cache1h };
}

/** Zeroed token counters. */
export function zeroTokens(): Tokens {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}

/** Add `b` into `a`. */
export function addTokens(a: Tokens, b: Tokens): void {
  for (const f of TOKEN_FIELDS) a[f] += b[f];
}
