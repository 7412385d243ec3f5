// Token usage in a Codex rollout. Since about 0.16x each model response leaves a
// `token_usage_record` line (its `usage`, keyed by `response_id`) just before the
// `token_count` event that repeats it; before that only `token_count` events exist,
// each with the running total (`total_token_usage`) and the last response's usage
// (`last_token_usage`), and the same event can be written twice (with rate limits
// alone, or repeated). So: a session's responses are its token_usage_records; in a
// session without them, each token_count whose running total moved is one response.

/** Token counts of one response, in Common's (Anthropic's) fields: input excludes cached reads. */
export interface CodexTokens {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** Part of output_tokens: the reasoning the model did not show. */
  reasoning_output_tokens: number;
}

/** The token fields of a Codex summary. */
export const CODEX_TOKEN_FIELDS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'reasoning_output_tokens'] as const;

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/**
 * Codex's usage object in Common's fields. Codex counts cached reads and cache writes
 * inside input_tokens (its total_tokens is input + output); Common keeps them apart,
 * so the four Common fields add up to Codex's total_tokens.
 */
export function codexTokens(u: any): CodexTokens {
  const cached = count(u?.cached_input_tokens);
  const written = count(u?.cache_write_input_tokens);
  return {
    input_tokens: Math.max(0, count(u?.input_tokens) - cached - written),
    output_tokens: count(u?.output_tokens),
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: written,
    reasoning_output_tokens: count(u?.reasoning_output_tokens),
  };
}

/** What `after` counts beyond `before`, field by field (never below zero). */
function difference(after: CodexTokens, before: CodexTokens): CodexTokens {
  const d = { ...after };
  for (const f of CODEX_TOKEN_FIELDS) d[f] = Math.max(0, after[f] - before[f]);
  return d;
}

/** One model response's usage as a line reports it. */
export interface ResponseUsage {
  /** `token_usage_record` or `token_count`. */
  source: string;
  /** The response id (token_usage_record only). */
  response_id: string | null;
  tokens: CodexTokens;
}

/**
 * Follows one session's usage lines and says which are a new response. A session is
 * the lines of one file (or of stdin) after a session_meta; call `reset` at each.
 */
export class UsageTracker {
  private sawRecords = false;
  private lastTotal: string | null = null;
  private lastTotalUsage: CodexTokens = codexTokens(null);
  private readonly responses = new Set<string>();

  /** Start a new session. */
  reset(): void {
    this.sawRecords = false;
    this.lastTotal = null;
    this.lastTotalUsage = codexTokens(null);
    this.responses.clear();
  }

  /** The response a parsed line reports, or null when it reports none (or one already counted). */
  take(line: any): ResponseUsage | null {
    if (!line || typeof line !== 'object') return null;
    const p = line.payload;
    if (!p || typeof p !== 'object') return null;
    if (line.type === 'token_usage_record') {
      this.sawRecords = true;
      if (!p.usage || typeof p.usage !== 'object') return null;
      const id = typeof p.response_id === 'string' ? p.response_id : null;
      if (id !== null) {
        if (this.responses.has(id)) return null;
        this.responses.add(id);
      }
      return { source: 'token_usage_record', response_id: id, tokens: codexTokens(p.usage) };
    }
    if (line.type !== 'event_msg' || p.type !== 'token_count' || this.sawRecords) return null;
    const info = p.info;
    if (!info || typeof info !== 'object' || (!info.last_token_usage && !info.total_token_usage)) return null;
    // The running total starts at zero; an event that leaves it where it was is a repeat.
    const total = typeof info.total_token_usage?.total_tokens === 'number' ? String(info.total_token_usage.total_tokens) : JSON.stringify(info.total_token_usage ?? null);
    if (total === (this.lastTotal ?? '0')) return null;
    this.lastTotal = total;
    const before = this.lastTotalUsage;
    this.lastTotalUsage = codexTokens(info.total_token_usage);
    // Without last_token_usage (some writers leave it out) the response is what the total grew by.
    const tokens = info.last_token_usage ? codexTokens(info.last_token_usage) : difference(this.lastTotalUsage, before);
    return { source: 'token_count', response_id: null, tokens };
  }
}
