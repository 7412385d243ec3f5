// A tool call's result arrives in the next message, after the call was made. To show
// each result inside its call while writing as messages arrive, an assistant message
// with calls is held back until the messages answering them have come (at most a
// few messages: memory stays the size of one exchange, not of the session).
import { isModeled, type Block, type CommonMessage, type ToolResultBlock, type ToolUseBlock } from '../common.js';

/** One message as the page shows it. */
export interface Turn {
  message: CommonMessage;
  /** 1-based position of the message in its session. */
  n: number;
  /** For an assistant message: the results of its calls that arrived in the messages after it, by tool_use id. */
  results: Map<string, ToolResultBlock>;
  /** For a user message: its tool_result blocks already shown inside their calls. */
  shownWithCall: Set<ToolResultBlock>;
}

/** A tool_result block (a native block of that type name cannot be one: Common models it). */
export const isResult = (b: Block): b is ToolResultBlock => isModeled(b) && b.type === 'tool_result';

/** A tool_use block. */
export const isCall = (b: Block): b is ToolUseBlock => isModeled(b) && b.type === 'tool_use';

/** How many messages may wait behind a call before the call is written without its results. */
const MAX_HELD = 32;

/** Pairs tool calls with their results and hands turns on in the order the messages came. */
export class TurnPairer {
  private held: Turn[] = [];
  private pending = new Set<string>();
  private n = 0;

  constructor(private readonly emit: (turn: Turn) => Promise<void>) {}

  /** Take the next message of the session. */
  async push(message: CommonMessage): Promise<void> {
    const turn: Turn = { message, n: ++this.n, results: new Map(), shownWithCall: new Set() };
    if (this.held.length > 0 && message.role === 'user' && this.answers(message)) {
      const call = this.held[0];
      for (const block of message.content) {
        if (isResult(block) && this.pending.delete(block.tool_use_id)) {
          call.results.set(block.tool_use_id, block);
          turn.shownWithCall.add(block);
        }
      }
      this.held.push(turn);
      if (this.pending.size === 0 || this.held.length >= MAX_HELD) await this.flush();
      return;
    }
    await this.flush();
    const calls = message.role === 'assistant' ? message.content.filter(isCall) : [];
    if (calls.length === 0) return this.emit(turn);
    this.held.push(turn);
    for (const call of calls) this.pending.add(call.id);
  }

  /** Write whatever is held (at a session's end, or when the next message answers nothing). */
  async flush(): Promise<void> {
    const held = this.held;
    this.held = [];
    this.pending.clear();
    for (const turn of held) await this.emit(turn);
  }

  /** Start counting again for a new session. */
  async reset(): Promise<void> {
    await this.flush();
    this.n = 0;
  }

  private answers(message: CommonMessage): boolean {
    return message.content.some((b) => isResult(b) && this.pending.has(b.tool_use_id));
  }
}

/** True for a user message that only answers calls, each answer shown with its call. */
export function answersOnly(t: Turn): boolean {
  const m = t.message;
  return m.role === 'user' && m.content.length > 0 && m.content.every((b) => isResult(b) && t.shownWithCall.has(b));
}
