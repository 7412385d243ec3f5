// What a Codex rollout records of its context, and the windows the client runs its models
// with. A response's input_tokens (Common keeps Codex's count) is its whole input, cached
// tokens included; each token_count event also says the window the client ran the model
// with (model_context_window, Common's usage keeps it): 95% of the model's own. 0.169.0
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
    return positive(usage.input_tokens);
  },
  windowOf(_model: string | undefined, usage: Usage | undefined): number | null {
    return positive(usage?.model_context_window);
  },
};
