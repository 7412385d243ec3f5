// What a Claude Code session records of its context, and the windows the client runs its
// models with. A reply's usage is the API's count of its whole input: input plus cache
// reads plus cache writes. Claude Code runs a model with a 200,000-token window unless
// the person chose a 1M variant (`opus[1m]`, the context-1m beta); the API's own figure for
// a model (the price database says 1,000,000 for claude-opus-4-6) is not what the client
// asks for: real sessions of that model compact themselves at about 160,000 tokens. A
// session that recorded more than 200,000 tokens ran with the 1M window.
import type { Usage } from '../common.js';
import type { RecordedContext } from '../continuable/rules.js';

/** The window Claude Code runs a model with by default. */
export const CLAUDE_WINDOW = 200_000;
/** The window of the 1M variants, the largest the client offers. */
export const CLAUDE_LARGEST_WINDOW = 1_000_000;

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

/** How a Claude Code session's usage counts its context, and which window it ran with. */
export const claudeRecordedContext: RecordedContext = {
  contextOf(usage: Usage): number | null {
    const input = count(usage.input_tokens);
    if (input === null) return null;
    const total = input + (count(usage.cache_read_input_tokens) ?? 0) + (count(usage.cache_creation_input_tokens) ?? 0);
    // A reply the client made up itself (model "<synthetic>") counts nothing.
    return total > 0 ? total : null;
  },
  windowOf(model: string | undefined, _usage: Usage | undefined, largest: number): number {
    if (model !== undefined && /\[1m\]$/i.test(model)) return CLAUDE_LARGEST_WINDOW;
    return largest > CLAUDE_WINDOW ? CLAUDE_LARGEST_WINDOW : CLAUDE_WINDOW;
  },
};
