// The members of the pi codec tx-common uses (CommonCodec).
import type { CommonCodec } from '../codec.js';
import { piLineCodec } from './codec-line.js';
import { PiToCommon } from './to-common.js';

/** The pi codec as tx-common uses it. */
export const piCommonCodec: CommonCodec = { ...piLineCodec, toCommon: (options) => new PiToCommon(options) };

export default piCommonCodec;
