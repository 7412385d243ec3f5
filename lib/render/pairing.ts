// A tool call's result arrives in the next message, after the call was made. To show
// each result inside its call while writing as messages arrive, an assistant message
// with calls is held back until the messages answering them have come (at most a
// few messages, and a few megabytes of them: memory stays the size of one exchange,
// not of the session). A slash command a person ran is a call in a user message, with
// its output in the same message: those are paired in place.
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
  /** The time each result's message came, by tool_use id (for how long a call took). */
  resultTimes: Map<string, string>;
}

/** A tool_result block (a native block of that type name cannot be one: Common models it). */
export const isResult = (b: Block): b is ToolResultBlock => isModeled(b) && b.type === 'tool_result';

/** A tool_use block. */
export const isCall = (b: Block): b is ToolUseBlock => isModeled(b) && b.type === 'tool_use';

/** How many messages may wait behind a call before the call is written without its results. */
const MAX_HELD = 32;

/** How many bytes of input lines may wait behind a call before the call is written without the results still to come. */
export const MAX_HELD_BYTES = 8 * 1024 * 1024;

/** Pairs tool calls with their results and hands turns on in the order the messages came. */
export class TurnPairer {
  private held: Turn[] = [];
  private pending = new Set<string>();
  private heldBytes = 0;
  private n = 0;

  constructor(private readonly emit: (turn: Turn) => Promise<void>) {}

  /** Take the next message of the session (`bytes`: the size of the line it came in, for the budget of what is held). */
  async push(message: CommonMessage, bytes = 0): Promise<void> {
    const turn: Turn = { message, n: ++this.n, results: new Map(), shownWithCall: new Set(), resultTimes: new Map() };
    pairInPlace(turn);
    if (this.held.length > 0 && message.role === 'user' && this.answers(message)) {
      const call = this.held[0];
      for (const block of message.content) {
        if (isResult(block) && this.pending.delete(block.tool_use_id)) {
          call.results.set(block.tool_use_id, block);
          if (message.timestamp) call.resultTimes.set(block.tool_use_id, message.timestamp);
          turn.shownWithCall.add(block);
        }
      }
      this.held.push(turn);
      this.heldBytes += bytes;
      if (this.pending.size === 0 || this.held.length >= MAX_HELD || this.heldBytes > MAX_HELD_BYTES) await this.flush();
      return;
    }
    await this.flush();
    const calls = message.role === 'assistant' ? message.content.filter(isCall) : [];
    if (calls.length === 0) return this.emit(turn);
    this.held.push(turn);
    this.heldBytes = bytes;
    for (const call of calls) this.pending.add(call.id);
  }

  /** Write whatever is held (at a session's end, or when the next message answers nothing). */
  async flush(): Promise<void> {
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
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

/** Results in the message of their own call (a slash command and its output). */
function pairInPlace(turn: Turn): void {
  const content = turn.message.content;
  if (!content.some(isCall) || !content.some(isResult)) return;
  const calls = new Set(content.filter(isCall).map((c) => c.id));
  for (const block of content) {
    if (isResult(block) && calls.has(block.tool_use_id) && !turn.results.has(block.tool_use_id)) {
      turn.results.set(block.tool_use_id, block);
      turn.shownWithCall.add(block);
    }
  }
}

/** True for a user message that only answers calls, each answer shown with its call. */
export function answersOnly(t: Turn): boolean {
  const m = t.message;
  return m.role === 'user' && m.content.length > 0 && m.content.every((b) => isResult(b) && t.shownWithCall.has(b));
}
