// Token accounting and stop reasons between pi's assistant messages and Common. pi's
// `input` already leaves out cached input (each of its providers subtracts it), which is
// what Common's input_tokens means (tx-stats(1)); `totalTokens` is the four summed.
import type { Usage } from '../common.js';
import type { PiStopReason, PiUsage } from './format.js';

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** pi's usage in Common's fields; undefined when the message has none. */
export function commonUsage(u: any): Usage | undefined {
  if (!u || typeof u !== 'object' || Array.isArray(u)) return undefined;
  return { input_tokens: count(u.input), output_tokens: count(u.output), cache_read_input_tokens: count(u.cacheRead), cache_creation_input_tokens: count(u.cacheWrite) };
}

/** Common's usage as pi writes it (no cost: Common does not carry one). */
export function piUsage(u: Usage | undefined): PiUsage {
  const input = count(u?.input_tokens);
  const output = count(u?.output_tokens);
  const cacheRead = count(u?.cache_read_input_tokens);
  const cacheWrite = count(u?.cache_creation_input_tokens);
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

const TO_COMMON: Record<string, string> = { stop: 'end_turn', toolUse: 'tool_use', length: 'max_tokens' };
const TO_PI: Record<string, PiStopReason> = { end_turn: 'stop', tool_use: 'toolUse', max_tokens: 'length', stop_sequence: 'stop', pause_turn: 'stop', refusal: 'error', error: 'error', aborted: 'aborted' };

/** A pi stop reason as the Messages API names it; `error` and `aborted`, which it has not, as they are. */
export function commonStopReason(reason: unknown): string | null {
  if (typeof reason !== 'string') return null;
  return Object.hasOwn(TO_COMMON, reason) ? TO_COMMON[reason]! : reason;
}

/** A Common stop reason as pi's; a missing or unknown one from whether the message calls tools. */
export function piStopReason(reason: unknown, callsTools: boolean): PiStopReason {
  if (typeof reason === 'string' && Object.hasOwn(TO_PI, reason)) return TO_PI[reason]!;
  return callsTools ? 'toolUse' : 'stop';
}
