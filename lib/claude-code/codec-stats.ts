// The members of the Claude Code codec tx-stats uses (StatsCodec).
import type { StatsCodec } from '../codec.js';
import { claudeLineCodec } from './codec-line.js';
import { SessionStats } from './session-stats.js';

/** The Claude Code codec as tx-stats uses it. */
export const claudeStatsCodec: StatsCodec = { ...claudeLineCodec, stats: (id, sink) => new SessionStats(id, sink) };

export default claudeStatsCodec;
