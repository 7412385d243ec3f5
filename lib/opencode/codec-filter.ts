// The members of the OpenCode codec tx-filter uses (FilterCodec).
import type { FilterCodec } from '../codec.js';
import { opencodeLineCodec } from './codec-line.js';
import { opencodeQuestion } from './questions.js';
import { opencodeLineView, opencodeStrings } from './texts.js';

/** The OpenCode codec as tx-filter uses it. */
export const opencodeFilterCodec: FilterCodec = { ...opencodeLineCodec, strings: opencodeStrings, question: opencodeQuestion, lineView: opencodeLineView };

export default opencodeFilterCodec;
