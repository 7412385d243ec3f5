// The members of the Codex codec tx-stats uses (StatsCodec).
import type { StatsCodec } from '../codec.js';
import { codexLineCodec } from './codec-line.js';
import { CodexSessionStats } from './session-stats.js';

/** The Codex codec as tx-stats uses it. */
export const codexStatsCodec: StatsCodec = { ...codexLineCodec, stats: (id, sink) => new CodexSessionStats(id, sink) };

export default codexStatsCodec;
