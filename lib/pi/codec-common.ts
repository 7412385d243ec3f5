// The members of the pi codec that need no registry: the line members, the converter to
// Common (tx-common), the writer from Common (tx-native), and what the client needs of a
// conversation it continues. The registry entry that wires pi in spreads these.
import type { FromCommonOptions, NativeWriter, SessionConverter, ToCommonOptions } from '../codec.js';
import type { CommonSession } from '../common.js';
import type { ContinueRules } from '../continuable/rules.js';
import { piLineCodec } from './codec-line.js';
import { CommonToPi, type PiWriterOptions } from './from-common.js';
import { PiToCommon } from './to-common.js';

/** The pi codec as tx-common uses it. */
export const piCommonCodec = {
  ...piLineCodec,
  toCommon: (options: ToCommonOptions): SessionConverter => new PiToCommon(options),
};

/** A writer of one Common session as a pi session file. */
export function piFromCommon(session: CommonSession, options: FromCommonOptions & Partial<PiWriterOptions>): NativeWriter {
  return new CommonToPi(session, options);
}

/**
 * What pi needs of a conversation it continues. Its default context window for a model
 * models.json does not size is 128,000 tokens (docs/models.md); it resumes from the latest
 * compaction on the path; its Anthropic provider sends results in the user message after
 * the call and needs the user first; it drops thinking another model wrote only when the
 * provider, API or model differ, so reasoning of another harness (a signature or
 * ciphertext of another vendor) is left out before writing.
 */
export const piContinueRules: ContinueRules = { contextWindow: 128_000, startsAtCompaction: true, objectInputs: true, results: 'next', userFirst: true, callsWithoutResults: [], dropsForeignReasoning: true };
