// The pi codec: session files behind the one Codec surface of lib/codec.ts, made of the
// members each tool loads on its own (codec-line, codec-filter, codec-stats,
// codec-common) and the rest.
import type { Codec } from '../codec.js';
import type { ContinueRules } from '../continuable/rules.js';
import { piCommonCodec } from './codec-common.js';
import { piFilterCodec } from './codec-filter.js';
import { piStatsCodec } from './codec-stats.js';
import { CommonToPi } from './from-common.js';
import { piStore } from './store.js';
import { piTexts } from './text.js';
import { PI_LARGEST_WINDOW, PI_WINDOW, piRecordedContext } from './window.js';

/**
 * What pi needs of a conversation it continues. Its default context window for a model
 * models.json does not size is 128,000 tokens (docs/models.md), the largest of its
 * catalogue 3,500,000 (window.ts); it resumes from the latest
 * compaction on the path; its Anthropic provider sends results in the user message after
 * the call and needs the user first; it sends back as thinking only what the same
 * provider, API and model wrote, so reasoning of another harness (a signature or
 * ciphertext of another vendor) is left out before writing.
 */
export const piContinueRules: ContinueRules = { contextWindow: PI_WINDOW, largestWindow: PI_LARGEST_WINDOW, recorded: piRecordedContext, startsAtCompaction: true, objectInputs: true, results: 'next', userFirst: true, callsWithoutResults: [], dropsForeignReasoning: true };

/** The pi codec. */
export const piCodec: Codec = {
  ...piFilterCodec,
  ...piStatsCodec,
  ...piCommonCodec,
  texts: piTexts,
  fromCommon: (session, options) => new CommonToPi(session, options),
  continueRules: piContinueRules,
  store: piStore,
  // pi puts `<file name=…>` (an @file) and `<skill …>` into user text, with no escaping of its own.
  markup: null,
};

export default piCodec;
