// Recognising a Codex CLI rollout line. Codex is read as `other` for now: its codec
// comes after Claude Code's.

const ROLLOUT_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const LEGACY_ITEM_TYPES = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'local_shell_call', 'custom_tool_call', 'custom_tool_call_output']);

/** True when a parsed line has the shape of a Codex rollout line. */
export function isCodexLine(line: any): boolean {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return false;
  if (ROLLOUT_TYPES.has(line.type) && line.payload !== undefined) return true;
  if (typeof line.record_type === 'string') return true;
  // Early rollouts: bare response items, and a header with instructions but no type.
  if (line.uuid === undefined && line.sessionId === undefined) {
    if (LEGACY_ITEM_TYPES.has(line.type)) return true;
    if (line.type === undefined && typeof line.id === 'string' && 'instructions' in line) return true;
  }
  return false;
}
