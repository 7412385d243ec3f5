// The codecs as tx-stats uses them: each harness's StatsCodec, which loads only the
// members asked for (lib/codec.ts, LineCodec). lib/codecs.ts has the whole of each.
import { claudeStatsCodec } from './claude-code/codec-stats.js';
import type { StatsCodec } from './codec.js';
import { codexStatsCodec } from './codex/codec-stats.js';
import type { Harness } from './record.js';

/** The StatsCodec of a harness. */
export function statsCodecFor(harness: Harness): StatsCodec {
  return harness === 'codex' ? codexStatsCodec : claudeStatsCodec;
}
