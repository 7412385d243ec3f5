// The members of the Codex codec tx-filter uses (FilterCodec).
import type { FilterCodec } from '../codec.js';
import { codexLineCodec } from './codec-line.js';
import { codexLineView, codexQuestion, codexStrings } from './views.js';

/** The Codex codec as tx-filter uses it. */
export const codexFilterCodec: FilterCodec = { ...codexLineCodec, strings: codexStrings, question: codexQuestion, lineView: codexLineView };

export default codexFilterCodec;
