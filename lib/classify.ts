// Harness detection and classification of one parsed line, whichever harness wrote it.
// Only the harnesses' classifiers are imported here, not their codecs: tx-parse needs
// nothing else, and the codecs bring in every converter and writer (most of a start-up).
// lib/codecs.ts detects with this module, so the two cannot disagree.
import { claudeKindReadsText, classifyClaudeLine } from './claude-code/classify.js';
import { codexKindReadsText, classifyCodexLine } from './codex/classify.js';
import { isCodexLine } from './codex/detect.js';
import type { Harness, Kind } from './record.js';

/** The harness that wrote a parsed native line: Codex by its shape, else Claude Code (any object no other harness claims). */
export function detectHarness(line: unknown): Harness {
  return isCodexLine(line) ? 'codex' : 'claude-code';
}

/** The harness and kind of one parsed native line. */
export function classifyLine(line: unknown): { harness: Harness; kind: Kind } {
  const harness = detectHarness(line);
  return { harness, kind: harness === 'codex' ? classifyCodexLine(line) : classifyClaudeLine(line) };
}

/** True when the kind of a parsed line may hang on the words of its text, not only on its fields' ASCII values. */
export function kindReadsText(line: unknown): boolean {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return false;
  return detectHarness(line) === 'codex' ? codexKindReadsText(line) : claudeKindReadsText(line);
}
