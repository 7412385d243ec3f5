// The line-level members of the Claude Code codec (LineCodec): what one parsed line
// says of itself. The other members build on these (codec-*.ts, codec.ts).
import type { Envelope, LineCodec } from '../codec.js';
import { claudeKindReadsText, classifyClaudeLine } from './classify.js';

/** The envelope fields of a Claude Code line: sessionId, timestamp, isSidechain. */
export function claudeEnvelope(line: unknown): Envelope {
  const l = line && typeof line === 'object' && !Array.isArray(line) ? (line as Record<string, unknown>) : null;
  return {
    session: l && typeof l.sessionId === 'string' && l.sessionId !== '' ? l.sessionId : null,
    timestamp: l && typeof l.timestamp === 'string' ? l.timestamp : null,
    sidechain: l?.isSidechain === true,
  };
}

/** The Claude Code codec's line-level members. */
export const claudeLineCodec: LineCodec = {
  harness: 'claude-code',
  label: 'Claude Code',
  home: { flag: 'config-dir', variable: 'CLAUDE_CONFIG_DIR' },
  // Claude Code is what any JSON object that is not another harness's is read as.
  detect: (line) => line !== null && typeof line === 'object' && !Array.isArray(line),
  classify: classifyClaudeLine,
  kindReadsText: claudeKindReadsText,
  envelope: claudeEnvelope,
  sessionFollows: false,
  // A copy of a tool's output in the client's own shape (whole files, for a Read or an
  // Edit): tx-filter's views show it; counts and conversations come from the message.
  unreadKey: 'toolUseResult',
};
