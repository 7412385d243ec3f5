// The members of the Codex codec tx-common uses (CommonCodec).
import type { CommonCodec } from '../codec.js';
import { codexLineCodec } from './codec-line.js';
import { CodexToCommon } from './to-common.js';

/** The Codex codec as tx-common uses it. */
export const codexCommonCodec: CommonCodec = { ...codexLineCodec, toCommon: (options) => new CodexToCommon(options) };

export default codexCommonCodec;
