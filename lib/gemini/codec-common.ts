// The members of the Gemini CLI codec tx-common uses (CommonCodec).
import type { CommonCodec } from '../codec.js';
import { geminiLineCodec } from './codec-line.js';
import { GeminiToCommon } from './to-common.js';

/** The Gemini CLI codec as tx-common uses it. */
export const geminiCommonCodec: CommonCodec = { ...geminiLineCodec, toCommon: (options) => new GeminiToCommon(options) };

export default geminiCommonCodec;
