// What an OpenCode session records of its context (RecordedContext), and the windows a
// continued session is fitted to. The client runs any provider's models; a step's tokens
// (`step-finish`, as tx-common writes them: input without the cache) add up to the whole
// input of its request. Which window the session's model had the session does not say.
import type { Usage } from '../common.js';
import type { RecordedContext } from '../continuable/rules.js';

/** The window fitted by default: the Claude models a continued session most often runs on. */
export const OPENCODE_WINDOW = 200_000;
/** The largest window of the models the client is set up with most (Claude's and Gemini's 1M). */
export const OPENCODE_LARGEST_WINDOW = 1_048_576;

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** What an OpenCode session records of its context. */
export const opencodeRecordedContext: RecordedContext = {
  contextOf(usage: Usage): number | null {
    const total = count(usage.input_tokens) + count(usage.cache_read_input_tokens) + count(usage.cache_creation_input_tokens);
    return total > 0 ? total : null;
  },
  windowOf(): number | null {
    return null;
  },
};
