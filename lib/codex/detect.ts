// Recognising a Codex CLI rollout line.
import { ROLLOUT_TYPES } from './rollout.js';

const KNOWN_TYPES: ReadonlySet<string> = new Set(ROLLOUT_TYPES);
const LEGACY_ITEM_TYPES = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'local_shell_call', 'custom_tool_call', 'custom_tool_call_output']);

/** True when a parsed line has the shape of a Codex rollout line. */
export function isCodexLine(line: any): boolean {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return false;
  if (KNOWN_TYPES.has(line.type) && line.payload !== undefined) return true;
  if (typeof line.record_type === 'string') return true;
  if (line.uuid === undefined && line.sessionId === undefined) {
    // A line type of a later CLI: the envelope's shape, with no Claude Code identity.
    if (typeof line.type === 'string' && typeof line.timestamp === 'string' && line.payload !== null && typeof line.payload === 'object') return true;
    // Early rollouts: bare response items, and a header with instructions but no type.
    if (LEGACY_ITEM_TYPES.has(line.type)) return true;
    if (line.type === undefined && typeof line.id === 'string' && 'instructions' in line) return true;
  }
  return false;
}
