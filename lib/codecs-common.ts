// The codecs as tx-common and tx-render use them: each harness's CommonCodec, which loads only the
// members asked for (lib/codec.ts, LineCodec). lib/codecs.ts has the whole of each.
import { claudeCommonCodec } from './claude-code/codec-common.js';
import type { CommonCodec } from './codec.js';
import { codexCommonCodec } from './codex/codec-common.js';
import type { Harness } from './record.js';

/** The CommonCodec of a harness. */
export function commonCodecFor(harness: Harness): CommonCodec {
  return harness === 'codex' ? codexCommonCodec : claudeCommonCodec;
}
