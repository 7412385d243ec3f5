// The line-level members of the pi codec (LineCodec): what one parsed session line says
// of itself. The other members build on these (codec-*.ts, codec.ts).
import type { Envelope, LineCodec } from '../codec.js';
import { classifyPiLine, piKindReadsText } from './classify.js';
import { isPiLine } from './detect.js';

/** The envelope fields of a pi line: only the `session` header names its session; no line is a sidechain. */
export function piEnvelope(line: unknown): Envelope {
  const l = line && typeof line === 'object' && !Array.isArray(line) ? (line as Record<string, any>) : null;
  const id = l && l.type === 'session' ? l.id : undefined;
  return { session: typeof id === 'string' && id !== '' ? id : null, timestamp: l && typeof l.timestamp === 'string' ? l.timestamp : null, sidechain: false };
}

/** The pi codec's line-level members. */
export const piLineCodec: LineCodec = {
  harness: 'pi',
  label: 'pi',
  // The variable pi itself reads for its agent directory (src/config.ts, getAgentDir).
  home: { flag: 'pi-home', variable: 'PI_CODING_AGENT_DIR' },
  detect: isPiLine,
  classify: classifyPiLine,
  kindReadsText: piKindReadsText,
  envelope: piEnvelope,
  sessionFollows: true,
  unreadKey: null,
};
