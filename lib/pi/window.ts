// What a pi session records of its context, and the windows pi runs models with. A
// reply's usage is pi's: `input` already leaves cached input out, so the whole input of
// a turn is input plus cache reads plus cache writes (Common's fields, as tx-common
// writes them). pi takes a model's window from its models.json or its own catalogue
// (@mariozechner/pi-ai 0.73.1: the largest is 3,500,000 tokens), and gives a model
// nothing sizes 128,000; the session file records no window.
import type { Usage } from '../common.js';
import type { RecordedContext } from '../continuable/rules.js';

/** The window pi gives a model its models.json does not size (docs/models.md). */
export const PI_WINDOW = 128_000;
/** The largest window of a model in pi's own catalogue (0.73.1). */
export const PI_LARGEST_WINDOW = 3_500_000;

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

/** How a pi session's usage counts its context; the window is not recorded. */
export const piRecordedContext: RecordedContext = {
  contextOf(usage: Usage): number | null {
    const input = count(usage.input_tokens);
    if (input === null) return null;
    const total = input + (count(usage.cache_read_input_tokens) ?? 0) + (count(usage.cache_creation_input_tokens) ?? 0);
    return total > 0 ? total : null;
  },
  windowOf(): null {
    return null;
  },
};
