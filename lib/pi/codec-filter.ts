// The members of the pi codec tx-filter uses (FilterCodec).
import type { FilterCodec } from '../codec.js';
import { piLineCodec } from './codec-line.js';
import { piStrings } from './text.js';
import { piLineView, piQuestion } from './views.js';

/** The pi codec as tx-filter uses it. */
export const piFilterCodec: FilterCodec = { ...piLineCodec, strings: piStrings, question: piQuestion, lineView: piLineView };

export default piFilterCodec;
