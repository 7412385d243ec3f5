// The members of the Gemini CLI codec tx-stats uses (StatsCodec).
import type { StatsCodec } from '../codec.js';
import { geminiLineCodec } from './codec-line.js';
import { GeminiSessionStats } from './session-stats.js';

/** The Gemini CLI codec as tx-stats uses it. */
export const geminiStatsCodec: StatsCodec = { ...geminiLineCodec, stats: (id, sink) => new GeminiSessionStats(id, sink) };

export default geminiStatsCodec;
