// The members of the Claude Code codec tx-filter uses (FilterCodec).
import type { FilterCodec } from '../codec.js';
import { claudeLineCodec } from './codec-line.js';
import { lineStrings } from './text.js';
import { lineView, makeQuestion } from './views.js';

/** The Claude Code codec as tx-filter uses it. */
export const claudeFilterCodec: FilterCodec = { ...claudeLineCodec, strings: lineStrings, question: makeQuestion, lineView };

export default claudeFilterCodec;
