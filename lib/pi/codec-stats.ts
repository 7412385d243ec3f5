// The members of the pi codec tx-stats uses (StatsCodec).
import type { StatsCodec } from '../codec.js';
import { piLineCodec } from './codec-line.js';
import { PiSessionStats } from './session-stats.js';

/** The pi codec as tx-stats uses it. */
export const piStatsCodec: StatsCodec = { ...piLineCodec, stats: (id, sink) => new PiSessionStats(id, sink) };

export default piStatsCodec;
