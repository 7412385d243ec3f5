// The OpenCode codec: sessions (an export document, or rows of the client's database)
// behind the one Codec surface of lib/codec.ts, made of the members each tool loads on
// its own (codec-line, codec-filter, codec-stats, codec-common) and the rest.
import type { Codec } from '../codec.js';
import { opencodeCommonCodec } from './codec-common.js';
import { opencodeFilterCodec } from './codec-filter.js';
import { opencodeStatsCodec } from './codec-stats.js';
import { installSessions } from './db-install.js';
import { opencodeStore } from './ls-store.js';
import { OpencodeNativeWriter } from './native-writer.js';
import { opencodeTexts } from './texts.js';
import { OPENCODE_LARGEST_WINDOW, OPENCODE_WINDOW, opencodeRecordedContext } from './window.js';

/** The OpenCode codec. */
export const opencodeCodec: Codec = {
  ...opencodeFilterCodec,
  ...opencodeStatsCodec,
  ...opencodeCommonCodec,
  texts: opencodeTexts,
  fromCommon: (session, options) => new OpencodeNativeWriter(session, options),
  // The window of the models a continued session is likely to run on (Claude's 200k);
  // the client answers a call left without a result itself (a tool part that failed),
  // takes neighbouring messages of one role, and sends another model's reasoning as text.
  continueRules: { contextWindow: OPENCODE_WINDOW, largestWindow: OPENCODE_LARGEST_WINDOW, recorded: opencodeRecordedContext, startsAtCompaction: false, objectInputs: true, results: 'next', userFirst: false, callsWithoutResults: [], dropsForeignReasoning: false },
  store: { ...opencodeStore, database: { install: installSessions } },
  markup: null,
};

export default opencodeCodec;
