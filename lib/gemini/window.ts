// What a Gemini CLI chat records of its context, and the window the client runs its
// models with. A reply's `tokens.input` is the API's promptTokenCount, cached tokens
// included; Common keeps the cached part apart (usage.ts), so the whole input is input
// plus cache reads. tokenLimit() gives every model of 0.61.0 the same 1,048,576 tokens.
import type { Usage } from '../common.js';
import type { RecordedContext } from '../continuable/rules.js';

/** The window Gemini CLI 0.61.0 gives every model it knows (tokenLimit()). */
export const GEMINI_WINDOW = 1_048_576;

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

/** How a Gemini CLI chat's usage counts its context, and which window it ran with. */
export const geminiRecordedContext: RecordedContext = {
  contextOf(usage: Usage): number | null {
    const input = count(usage.input_tokens);
    if (input === null) return null;
    const total = input + (count(usage.cache_read_input_tokens) ?? 0) + (count(usage.cache_creation_input_tokens) ?? 0);
    return total > 0 ? total : null;
  },
  windowOf(): number {
    return GEMINI_WINDOW;
  },
};
