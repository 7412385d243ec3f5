// What a Gemini CLI chat records of its context (RecordedContext): an answer's `tokens`,
// as tx-common writes them (input without its cached part, the cached part apart), add
// up to the whole prompt of its request. Every Gemini model of the client has a window
// of 1,048,576 tokens (tokenLimit() in 0.61.0).
import type { Usage } from '../common.js';
import type { RecordedContext } from '../continuable/rules.js';

/** The window of every Gemini model the client knows. */
export const GEMINI_WINDOW = 1_048_576;

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** What a Gemini CLI chat records of its context. */
export const geminiRecordedContext: RecordedContext = {
  contextOf(usage: Usage): number | null {
    const total = count(usage.input_tokens) + count(usage.cache_read_input_tokens) + count(usage.cache_creation_input_tokens);
    return total > 0 ? total : null;
  },
  windowOf(): number {
    return GEMINI_WINDOW;
  },
};
