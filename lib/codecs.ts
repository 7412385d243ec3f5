// The registry of harness codecs: the one place the commands reach a harness from.
import { claudeCodec } from './claude-code/codec.js';
import { detectHarness } from './classify.js';
import type { Codec } from './codec.js';
import { codexCodec } from './codex/codec.js';
import type { Harness } from './record.js';

/** Every codec, in detection order: the first whose detect accepts a line wrote it. */
export const CODECS: readonly Codec[] = [codexCodec, claudeCodec];

/** The codec of a harness. */
export function codecFor(harness: Harness): Codec {
  return harness === 'codex' ? codexCodec : claudeCodec;
}

/** The codec that wrote a parsed native line (Claude Code for any object no other codec claims; lib/classify.ts decides). */
export function detectCodec(line: unknown): Codec {
  return codecFor(detectHarness(line));
}
