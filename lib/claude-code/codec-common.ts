// The members of the Claude Code codec tx-common uses (CommonCodec).
import type { CommonCodec } from '../codec.js';
import { claudeLineCodec } from './codec-line.js';
import { ClaudeSessionConverter } from './common-session.js';

/** The Claude Code codec as tx-common uses it. */
export const claudeCommonCodec: CommonCodec = { ...claudeLineCodec, toCommon: (options) => new ClaudeSessionConverter(options) };
