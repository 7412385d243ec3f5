// What a Codex rollout records of its context, and the windows the client runs its models
// with. A response's whole input is Common's input_tokens with its cache reads and writes
// (Codex counts them inside its input; Common keeps them apart, as every tool does); each
// token_count event also says the window the client ran the model with
// (model_context_window, Common's usage keeps it): 95% of the model's own. 0.169.0
// gives its bundled models 272,000 tokens (258,400 in use) by default and at most 872,000
// (828,400) where a model allows a larger one.
import type { Usage } from '../common.js';
import type { RecordedContext } from '../continuable/rules.js';

/** The window Codex 0.169.0 reports for its bundled models by default (95% of 272,000). */
export const CODEX_WINDOW = 258_400;
/** The largest window Codex 0.169.0 gives a model it knows (95% of 872,000). */
export const CODEX_LARGEST_WINDOW = 828_400;

function positive(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
}

/** How a Codex session's usage counts its context, and which window it ran with. */
export const codexRecordedContext: RecordedContext = {
  contextOf(usage: Usage): number | null {
    const input = positive(usage.input_tokens);
    if (input === null) return null;
    return input + (positive(usage.cache_read_input_tokens) ?? 0) + (positive(usage.cache_creation_input_tokens) ?? 0);
  },
  windowOf(_model: string | undefined, usage: Usage | undefined): number | null {
    return positive(usage?.model_context_window);
  },
};
