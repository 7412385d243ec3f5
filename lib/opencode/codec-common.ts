// The members of the OpenCode codec tx-common uses (CommonCodec).
import type { CommonCodec } from '../codec.js';
import { opencodeLineCodec } from './codec-line.js';
import { OpencodeToCommon } from './to-common.js';

/** The OpenCode codec as tx-common uses it. */
export const opencodeCommonCodec: CommonCodec = { ...opencodeLineCodec, toCommon: (options) => new OpencodeToCommon({ src: options.src, active: options.active }) };

export default opencodeCommonCodec;
