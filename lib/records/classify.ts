// Harness detection and classification of one parsed line, whichever harness wrote it:
// the registry's line members only (lib/codecs.ts), so tx-parse loads no converter,
// writer or store.
import { detectLineCodec } from '../codecs.js';
import type { Harness, Kind } from '../record.js';

/** The harness and kind of one parsed native line. */
export function classifyLine(line: unknown): { harness: Harness; kind: Kind } {
  const codec = detectLineCodec(line);
  return { harness: codec.harness, kind: codec.classify(line) };
}

/** True when the kind of a parsed line may hang on the words of its text, not only on its fields' ASCII values. */
export function kindReadsText(line: unknown): boolean {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return false;
  return detectLineCodec(line).kindReadsText(line);
}
