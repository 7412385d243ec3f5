// The line-level members of the Gemini CLI codec (LineCodec): what one parsed chat line
// says of itself. The other members build on these (codec-*.ts, codec.ts).
import type { LineCodec } from '../codec.js';
import { classifyGeminiLine, geminiKindReadsText } from './classify.js';
import { isGeminiLine } from './detect.js';
import { geminiDocument } from './document.js';
import { geminiEnvelope } from './envelope.js';

/** The Gemini CLI codec's line-level members. */
export const geminiLineCodec: LineCodec = {
  harness: 'gemini',
  label: 'Gemini CLI',
  // The client's store is `.gemini` in the directory GEMINI_CLI_HOME names (its home
  // otherwise): packages/core/src/utils/paths.ts homedir().
  home: { flag: 'gemini-home', variable: 'GEMINI_CLI_HOME', dir: '.gemini' },
  detect: isGeminiLine,
  classify: classifyGeminiLine,
  kindReadsText: geminiKindReadsText,
  envelope: geminiEnvelope,
  // Only the metadata line names the session: the lines after it are its.
  sessionFollows: true,
  // Checkpoints (`$set.messages`) are the big lines, and the conversion needs them.
  unreadKey: null,
  // Clients before 0.39 kept a chat as one JSON document.
  document: geminiDocument,
};
