// The codecs as tx-filter uses them: each harness's FilterCodec, which loads only the
// members asked for (lib/codec.ts, LineCodec). lib/codecs.ts has the whole of each.
import { claudeFilterCodec } from './claude-code/codec-filter.js';
import type { FilterCodec } from './codec.js';
import { codexFilterCodec } from './codex/codec-filter.js';
import type { Harness } from './record.js';

/** The FilterCodec of a harness. */
export function filterCodecFor(harness: Harness): FilterCodec {
  return harness === 'codex' ? codexFilterCodec : claudeFilterCodec;
}
