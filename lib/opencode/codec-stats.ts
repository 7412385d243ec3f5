// The members of the OpenCode codec tx-stats uses (StatsCodec).
import type { StatsCodec } from '../codec.js';
import { opencodeLineCodec } from './codec-line.js';
import { OpencodeSessionStats } from './session-stats.js';

/** The OpenCode codec as tx-stats uses it. */
export const opencodeStatsCodec: StatsCodec = { ...opencodeLineCodec, stats: (id, sink) => new OpencodeSessionStats(id, sink) };

export default opencodeStatsCodec;
