// The Codex codec: rollout lines behind the one Codec surface of lib/codec.ts.
import type { Codec, Envelope } from '../codec.js';
import { classifyCodexLine, codexKindReadsText } from './classify.js';
import { isCodexLine } from './detect.js';
import { CodexSessionStats } from './session-stats.js';
import { CommonToCodex } from './from-common.js';
import { CodexToCommon } from './to-common.js';
import { codexStore } from './store.js';
import { codexLineView, codexQuestion, codexStrings, codexTexts } from './views.js';

/** The envelope fields of a Codex line: only session_meta names its session; no line is a sidechain. */
export function codexEnvelope(line: unknown): Envelope {
  const l = line && typeof line === 'object' && !Array.isArray(line) ? (line as Record<string, any>) : null;
  const id = l && l.type === 'session_meta' ? l.payload?.id : undefined;
  return { session: typeof id === 'string' && id !== '' ? id : null, timestamp: l && typeof l.timestamp === 'string' ? l.timestamp : null, sidechain: false };
}

/** The Codex codec. */
export const codexCodec: Codec = {
  harness: 'codex',
  detect: isCodexLine,
  classify: classifyCodexLine,
  kindReadsText: codexKindReadsText,
  envelope: codexEnvelope,
  sessionFollows: true,
  strings: codexStrings,
  texts: codexTexts,
  // The conversion to Common lands with lib/codex/to-common.ts.
  toCommon: (options) => new CodexToCommon(options),
  fromCommon: (session, options) => new CommonToCodex(session, options),
  // The window Codex 0.169.0 reports for its bundled models (model_context_window in its rollouts);
  // the client rebuilds a resumed conversation from the latest compacted line the writer puts at a compaction.
  continueRules: { contextWindow: 258_400, startsAtCompaction: true, objectInputs: false, results: 'later', userFirst: false, callsWithoutResults: ['web_search_call'], dropsForeignReasoning: false },
  question: codexQuestion,
  lineView: codexLineView,
  stats: (id) => new CodexSessionStats(id),
  store: codexStore,
  markup: null,
};
