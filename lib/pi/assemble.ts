// From pi's messages, in the order the tree gives them, to Common messages. pi turns its
// own message roles into user text (convertToLlm of src/core/messages.ts), repairs the
// conversation (transformMessages of pi-ai: a failed or aborted reply is left out, a call
// without a result gets "No result provided"), then its Anthropic provider writes the
// request (convertMessages: consecutive tool results in one user message, empty text
// left out, thinking without a signature sent as text). Under --active all of that is
// done, so the messages are what the client sends; without it, every message is kept as
// written and only the API's shape is applied (tool results gathered, roles made user).
import type { Block, CommonMessage, ToolResultBlock } from '../common.js';
import { toolResultBlock, toolUseBlock, userBlocks } from './blocks.js';
import { BRANCH_SUMMARY_PREFIX, BRANCH_SUMMARY_SUFFIX, COMPACTION_SUMMARY_PREFIX, COMPACTION_SUMMARY_SUFFIX } from './format.js';
import { commonStopReason, commonUsage } from './usage.js';

/** One converted entry: its id and timestamp, and the message it stands for (an AgentMessage; summaries and extension messages made one). */
export interface Piece {
  id: string;
  ts?: string;
  message: any;
}

/** The text of the result the client writes for a call that has none. */
export const NO_RESULT = 'No result provided';

const str = (v: unknown): v is string => typeof v === 'string';

/** Builds Common messages from pieces fed in conversation order. */
export class ContextAssembler {
  /** The tool results gathered so far into one user message. */
  private results: CommonMessage | null = null;
  /** Calls of the last reply still without a result (under --active). */
  private pending: { id: string; caller: string; ts?: string }[] = [];
  private answered = new Set<string>();
  private compacted = false;

  constructor(private readonly active: boolean) {}

  /** The messages one piece completes (the gathered results it ends, then its own). */
  push(piece: Piece): CommonMessage[] {
    const m = piece.message;
    if (!m || typeof m !== 'object' || !this.reaches(m)) return [];
    if (m.role === 'toolResult') {
      if (str(m.toolCallId)) this.answered.add(m.toolCallId);
      this.result(piece, toolResultBlock(m));
      return [];
    }
    this.answerPending();
    // A reply the client leaves out is not there at all: the results around it stay one message.
    if (m.role === 'assistant' && this.active && (m.stopReason === 'error' || m.stopReason === 'aborted')) return [];
    const out = this.flush();
    const made = m.role === 'assistant' ? this.assistant(piece, m) : this.user(piece, m);
    if (made) {
      if (this.compacted) made.after_compaction = true;
      this.compacted = false;
      out.push(made);
    }
    return out;
  }

  /** The messages still held at the end. */
  end(): CommonMessage[] {
    this.answerPending();
    return this.flush();
  }

  /** False for a message the client drops before anything else (convertToLlm): an unknown role, a shell command kept out of the context. */
  private reaches(m: any): boolean {
    if (m.role === 'bashExecution') return !(this.active && m.excludeFromContext === true);
    return ['user', 'assistant', 'toolResult', 'custom', 'branchSummary', 'compactionSummary'].includes(m.role);
  }

  /** Answer the last reply's calls that got no result (under --active), as the client does before the next message. */
  private answerPending(): void {
    for (const call of this.pending) {
      if (this.answered.has(call.id)) continue;
      this.result({ id: `${call.caller}:no-result`, ts: call.ts, message: null }, { type: 'tool_result', tool_use_id: call.id, content: NO_RESULT, is_error: true });
    }
    this.pending = [];
    this.answered = new Set();
  }

  /** The gathered results as one message, if any. */
  private flush(): CommonMessage[] {
    const done = this.results;
    this.results = null;
    return done ? [done] : [];
  }

  private result(piece: Piece, block: ToolResultBlock): void {
    this.results ??= message(piece, 'user');
    this.results.content.push(block);
  }

  private assistant(piece: Piece, m: any): CommonMessage | null {
    const content: Block[] = [];
    for (const b of Array.isArray(m.content) ? m.content : []) {
      const block = this.assistantBlock(b);
      if (block) content.push(block);
    }
    if (this.active) {
      for (const b of content) if (b.type === 'tool_use') this.pending.push({ id: (b as { id: string }).id, caller: piece.id, ts: piece.ts });
      if (content.length === 0) return null;
    }
    const out = message(piece, 'assistant');
    out.content = content;
    if (str(m.model)) out.model = m.model;
    const stop = commonStopReason(m.stopReason);
    if (stop !== null) out.stop_reason = stop;
    const usage = commonUsage(m.usage);
    if (usage) out.usage = usage;
    return out;
  }

  private assistantBlock(b: any): Block | null {
    if (!b || typeof b !== 'object') return null;
    switch (b.type) {
      case 'text':
        if (!str(b.text) || (this.active && b.text.trim() === '')) return null;
        return { type: 'text', text: b.text };
      case 'thinking': {
        if (b.redacted === true && str(b.thinkingSignature)) return { type: 'redacted_thinking', data: b.thinkingSignature };
        if (!str(b.thinking)) return null;
        const signed = str(b.thinkingSignature) && b.thinkingSignature.trim() !== '';
        if (this.active) {
          if (b.thinking.trim() === '') return null;
          // The client sends thinking it cannot prove (no signature, an aborted stream) as text.
          if (!signed) return { type: 'text', text: b.thinking };
        }
        return signed ? { type: 'thinking', thinking: b.thinking, signature: b.thinkingSignature } : { type: 'thinking', thinking: b.thinking };
      }
      case 'toolCall':
        return toolUseBlock(b);
      default:
        return null;
    }
  }

  /** A message the model reads as the user's: what a person typed, and the text the client makes of its own roles. */
  private user(piece: Piece, m: any): CommonMessage | null {
    let content: Block[];
    switch (m.role) {
      case 'user':
      case 'custom':
        content = userBlocks(m.content);
        break;
      case 'bashExecution':
        content = shellCommand(piece.id, m);
        break;
      case 'branchSummary':
        content = str(m.summary) && m.summary !== '' ? [{ type: 'text', text: BRANCH_SUMMARY_PREFIX + m.summary + BRANCH_SUMMARY_SUFFIX }] : [];
        break;
      case 'compactionSummary':
        content = str(m.summary) ? [{ type: 'text', text: COMPACTION_SUMMARY_PREFIX + m.summary + COMPACTION_SUMMARY_SUFFIX }] : [];
        this.compacted = true;
        break;
      default:
        return null;
    }
    if (this.active) content = content.filter((b) => b.type !== 'text' || (b as { text: string }).text.trim() !== '');
    if (content.length === 0) return null;
    const out = message(piece, 'user');
    out.content = content;
    return out;
  }
}

function message(piece: Piece, role: 'user' | 'assistant'): CommonMessage {
  const m: CommonMessage = { type: 'message', id: piece.id, role, content: [] };
  if (piece.ts !== undefined) m.timestamp = piece.ts;
  return m;
}

/**
 * A shell command a person ran (`!cmd`) as Common has a command: a `!` tool_use on the
 * user's side with the command line as its argument, and its output as the tool_result.
 * What the client adds to the text it sends (the exit code, a cancellation, a truncated
 * output's file) rides in the input, so the writer can give it back.
 */
function shellCommand(id: string, m: any): Block[] {
  const command = str(m.command) ? m.command : '';
  const input: Record<string, unknown> = { args: command };
  if (typeof m.exitCode === 'number') input.exit_code = m.exitCode;
  if (m.cancelled === true) input.cancelled = true;
  if (m.truncated === true) input.truncated = true;
  if (str(m.fullOutputPath)) input.full_output_path = m.fullOutputPath;
  if (m.excludeFromContext === true) input.exclude_from_context = true;
  const failed = m.cancelled === true || (typeof m.exitCode === 'number' && m.exitCode !== 0);
  const result: ToolResultBlock = { type: 'tool_result', tool_use_id: id, content: str(m.output) ? m.output : '' };
  if (failed) result.is_error = true;
  return [{ type: 'tool_use', id, name: '!', input, tool: { kind: 'command', name: '!', args: command } }, result];
}
