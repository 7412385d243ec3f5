// The line-level members of the Codex codec (LineCodec): what one parsed rollout line
// says of itself. The other members build on these (codec-*.ts, codec.ts).
import type { Envelope, LineCodec } from '../codec.js';
import { classifyCodexLine, codexKindReadsText } from './classify.js';
import { isCodexLine } from './detect.js';

/** The envelope fields of a Codex line: only session_meta names its session; no line is a sidechain. */
export function codexEnvelope(line: unknown): Envelope {
  const l = line && typeof line === 'object' && !Array.isArray(line) ? (line as Record<string, any>) : null;
  const id = l && l.type === 'session_meta' ? l.payload?.id : undefined;
  return { session: typeof id === 'string' && id !== '' ? id : null, timestamp: l && typeof l.timestamp === 'string' ? l.timestamp : null, sidechain: false };
}

/** The Codex codec's line-level members. */
export const codexLineCodec: LineCodec = {
  harness: 'codex',
  label: 'Codex',
  home: { flag: 'codex-home', variable: 'CODEX_HOME' },
  detect: isCodexLine,
  classify: classifyCodexLine,
  kindReadsText: codexKindReadsText,
  envelope: codexEnvelope,
  sessionFollows: true,
  unreadKey: null,
};
