// The members of the Claude Code codec tx-common uses (CommonCodec).
import type { CommonCodec } from '../codec.js';
import { claudeLineCodec } from './codec-line.js';
import { ClaudeSessionConverter, parseCarrying } from './common-session.js';

/** The Claude Code codec as tx-common uses it. */
export const claudeCommonCodec: CommonCodec = {
  ...claudeLineCodec,
  // A native line is parsed whole but for its long tool output; a record's line (checked by tx-parse) is also read without its unreadKey.
  carryingParse: (buf, start, end, raw) => parseCarrying(buf, start, end, null, raw),
  toCommon: (options) => new ClaudeSessionConverter(options),
};

export default claudeCommonCodec;
