// The Codex codec: rollout lines behind the one Codec surface of lib/codec.ts, made of
// the members each tool loads on its own (codec-line, codec-filter, codec-stats,
// codec-common) and the rest.
import type { Codec } from '../codec.js';
import { codexCommonCodec } from './codec-common.js';
import { codexFilterCodec } from './codec-filter.js';
import { codexStatsCodec } from './codec-stats.js';
import { CommonToCodex } from './from-common.js';
import { codexStore } from './store.js';
import { codexTexts } from './views.js';

/** The Codex codec. */
export const codexCodec: Codec = {
  ...codexFilterCodec,
  ...codexStatsCodec,
  ...codexCommonCodec,
  texts: codexTexts,
  fromCommon: (session, options) => new CommonToCodex(session, options),
  // The window Codex 0.169.0 reports for its bundled models (model_context_window in its rollouts);
  // the client rebuilds a resumed conversation from the latest compacted line the writer puts at a compaction.
  continueRules: { contextWindow: 258_400, startsAtCompaction: true, objectInputs: false, results: 'later', userFirst: false, callsWithoutResults: ['web_search_call'], dropsForeignReasoning: false },
  store: codexStore,
  markup: null,
};

export default codexCodec;
