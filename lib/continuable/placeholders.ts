// What is written where the recorded conversation lacks something a client needs: a
// result for a call without one, a label for a result whose call is gone, a session
// start time a client can read.
import type { Block, CommonMessage, CommonSession, ToolResultBlock } from '../common.js';
import { PLACEHOLDER_RESULT } from './rules.js';

/** True for a timestamp a client can read as a date. */
export function isDate(v: unknown): boolean {
  return typeof v === 'string' && !Number.isNaN(Date.parse(v));
}

/** A session line whose start time a client can read (one that is not a date is left out). */
export function datedSession(session: CommonSession): CommonSession {
  if (session.started_at === undefined || isDate(session.started_at)) return session;
  const { started_at: _, ...rest } = session;
  return rest;
}

/** A placeholder result for a call that has none. */
export function placeholderResult(id: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: id, content: PLACEHOLDER_RESULT, is_error: true };
}

/** A user message of placeholder results, written before `next`. */
export function placeholderTurn(next: CommonMessage, ids: string[]): CommonMessage {
  return { type: 'message', id: `${next.id}:placeholder-results`, role: 'user', ...(next.timestamp !== undefined ? { timestamp: next.timestamp } : {}), content: ids.map(placeholderResult) };
}

/** The text that keeps a result whose call is gone. */
export function orphanText(b: ToolResultBlock): Block {
  const label = `[result of tool call ${b.tool_use_id}, whose call is not in this conversation${b.is_error ? '; an error' : ''}]`;
  return { type: 'text', text: typeof b.content === 'string' ? `${label}\n${b.content}` : label };
}

/** The blocks of an orphaned result's content, kept after its label. */
export function orphanBlocks(b: ToolResultBlock): Block[] {
  return Array.isArray(b.content) ? b.content.filter((x) => x && typeof x === 'object' && !(x.type === 'text' && typeof x.text === 'string' && x.text.trim() === '')) : [];
}
