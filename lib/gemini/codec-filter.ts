// The members of the Gemini CLI codec tx-filter uses (FilterCodec).
import type { FilterCodec } from '../codec.js';
import { geminiLineCodec } from './codec-line.js';
import { geminiQuestion } from './questions.js';
import { geminiLineView, geminiStrings } from './texts.js';

/** The Gemini CLI codec as tx-filter uses it. */
export const geminiFilterCodec: FilterCodec = { ...geminiLineCodec, strings: geminiStrings, question: geminiQuestion, lineView: geminiLineView };

export default geminiFilterCodec;
