// Harness detection and classification of one parsed line, whichever harness wrote it.
import { detectCodec } from './codecs.js';
import type { Harness, Kind } from './record.js';

/** The harness and kind of one parsed native line. */
export function classifyLine(line: unknown): { harness: Harness; kind: Kind } {
  const codec = detectCodec(line);
  return { harness: codec.harness, kind: codec.classify(line) };
}
