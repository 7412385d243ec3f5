// The Gemini CLI codec: chat files behind the one Codec surface of lib/codec.ts, made of
// the members each tool loads on its own (codec-line, codec-filter, codec-stats,
// codec-common) and the rest.
import type { Codec } from '../codec.js';
import { geminiCommonCodec } from './codec-common.js';
import { geminiFilterCodec } from './codec-filter.js';
import { geminiStatsCodec } from './codec-stats.js';
import { CommonToGemini } from './from-common.js';
import { geminiStore } from './store.js';
import { geminiTexts } from './texts.js';
import { GEMINI_WINDOW, geminiRecordedContext } from './window.js';

/** The Gemini CLI codec. */
export const geminiCodec: Codec = {
  ...geminiFilterCodec,
  ...geminiStatsCodec,
  ...geminiCommonCodec,
  texts: geminiTexts,
  fromCommon: (session, options) => new CommonToGemini(session, options),
  // tokenLimit() of every Gemini model in 0.61.0; calls' args are objects; a result belongs
  // in the call's record, so it must come in the user message after the call; the client
  // puts its own session context first; thoughts are never sent back, so any harness's
  // reasoning may stay; the writer clears the list at a compaction (an empty checkpoint),
  // and the client resumes from there.
  continueRules: { contextWindow: GEMINI_WINDOW, largestWindow: GEMINI_WINDOW, recorded: geminiRecordedContext, startsAtCompaction: true, objectInputs: true, results: 'next', userFirst: false, callsWithoutResults: [], dropsForeignReasoning: false },
  store: geminiStore,
  markup: null,
};

export default geminiCodec;
