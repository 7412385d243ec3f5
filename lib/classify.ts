// Harness detection and classification of one parsed line, whichever harness wrote it.
import { classifyClaudeLine } from './claude-code/classify.js';
import { isCodexLine } from './codex/detect.js';
import type { Harness, Kind } from './record.js';

/** The harness and kind of one parsed native line. */
export function classifyLine(line: unknown): { harness: Harness; kind: Kind } {
  if (isCodexLine(line)) return { harness: 'codex', kind: 'other' };
  return { harness: 'claude-code', kind: classifyClaudeLine(line) };
}
