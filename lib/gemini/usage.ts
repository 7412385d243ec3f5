// A gemini message's `tokens` (the response's usageMetadata: input = promptTokenCount,
// output = candidatesTokenCount, cached = cachedContentTokenCount, thoughts, tool =
// toolUsePromptTokenCount, total) in Common's fields, with tx-stats' meaning: input
// without cached reads, output with the reasoning. The four Common fields add up to the
// API's total (prompt + candidates + thoughts + tool-use prompt).
import type { Usage } from '../common.js';

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** Common usage of a gemini message's tokens, or null when it has none. */
export function usageOfTokens(tokens: unknown): Usage | null {
  if (!tokens || typeof tokens !== 'object' || Array.isArray(tokens)) return null;
  const t = tokens as Record<string, unknown>;
  const cached = count(t.cached);
  const thoughts = count(t.thoughts);
  const tool = count(t.tool);
  const usage: Usage = {
    input_tokens: Math.max(0, count(t.input) - cached) + tool,
    output_tokens: count(t.output) + thoughts,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
    reasoning_output_tokens: thoughts,
  };
  if (typeof t.total === 'number') usage.total_tokens = t.total;
  return usage;
}

/**
 * A gemini message's `tokens` from Common usage: the inverse of usageOfTokens, but for a
 * tool-use prompt count, which stays in input. Gemini has no cache writes: tokens another
 * API wrote to its cache were input all the same.
 */
export function tokensOfUsage(u: Usage): Record<string, number> {
  const cached = count(u.cache_read_input_tokens);
  const thoughts = count(u.reasoning_output_tokens);
  const input = count(u.input_tokens) + cached + count(u.cache_creation_input_tokens);
  const output = Math.max(0, count(u.output_tokens) - thoughts);
  const total = typeof u.total_tokens === 'number' ? u.total_tokens : input + output + thoughts;
  return { input, output, cached, thoughts, tool: 0, total };
}
