// A Common conversation made into one a client can continue, before any harness writer
// sees it: every tool call answered, no empty message, the user first, tool inputs in
// the shape the target takes, and a size the target's context window holds. What a
// client would reject on resume (or send to an API that rejects it) is repaired here,
// once, for every target; what cannot be repaired stops the conversion with a reason.
import { isModeled, usableBlocks, type Block, type CommonMessage, type CommonSession } from '../common.js';
import { stringifyJson } from '../core/json/json-text.js';
import { Spool } from '../core/output/spool.js';
import { isDate, orphanBlocks, orphanText, placeholderResult, placeholderTurn } from './placeholders.js';
import { NotContinuable, PLACEHOLDER_OPENING, type ContinueOptions, type ContinueRules } from './rules.js';
import { add, estimateTokens, measure, type Size } from './size.js';

/** The ids a message's assistant tool calls want answered (tool_use and artifact blocks, but for calls the target's server answers itself). */
function callIds(m: CommonMessage, serverCalls: readonly string[]): string[] {
  const ids: string[] = [];
  for (const b of m.content) {
    if (!isModeled(b)) continue;
    if (b.type === 'artifact' || (b.type === 'tool_use' && !(b.native_type !== undefined && serverCalls.includes(b.native_type)))) ids.push(b.id);
  }
  return ids;
}

/**
 * One session's conversation on its way to a writer. Messages are pushed as they come
 * (cleaned, then held in a spool, so memory stays flat); after the last one, `messages()`
 * gives what to write, paired, or throws NotContinuable.
 */
export class Continuable {
  /** Problems with single messages or blocks (each is reported where it was found). */
  readonly warnings: string[] = [];
  private readonly spool = new Spool();
  private readonly window: number;
  private count = 0;
  private total: Size = { bytes: 0, images: 0 };
  private sinceCompaction: Size = { bytes: 0, images: 0 };
  /** Spool offset and index of the latest message marked after_compaction. */
  private compaction: { offset: number; index: number } | null = null;
  /** The timestamp of the latest message, given to placeholder results written at the end. */
  private lastTimestamp: string | undefined;
  /** A compaction mark held for the next message kept (its own message was left out). */
  private markHeld = false;
  /** Tool calls of the current turn not answered yet, and the first user message after them. */
  private open: { ids: string[]; firstUser: number | null } = { ids: [], firstUser: null };
  /** Under `later` results: calls not answered yet, each with the index of the message after it. */
  private readonly pending = new Map<string, number>();
  /** Under `later` results: every call since the latest compaction (a second result of one is still a result). */
  private readonly calls = new Set<string>();
  /** Slash commands (calls on user messages) whose output has not come yet. */
  private readonly commands = new Set<string>();
  /** Placeholder results to put after the leading results of a user message, by its index. */
  private readonly placeholders = new Map<number, string[]>();
  /** Placeholder results to write as a user message of their own before a message, by its index (the end: `count`). */
  private readonly placeholderTurns = new Map<number, string[]>();
  /** What was changed, counted, for the note at the end. */
  private readonly changes = { dates: 0, emptyBlocks: 0, emptyMessages: 0, wrappedInputs: 0, reasoning: 0, placeholders: 0, orphans: 0, opening: 0 };

  constructor(
    private readonly session: CommonSession,
    private readonly target: { harness: string; rules: ContinueRules },
    private readonly options: ContinueOptions,
  ) {
    this.window = options.contextWindow ?? target.rules.contextWindow;
  }

  /** Take one Common message (in stream order); `n` is its line number, given back with it. */
  push(given: CommonMessage, n = 0): void {
    const usable = usableBlocks(given, this.warnings);
    if (usable === null) return;
    const content: Block[] = [];
    const foreign = this.session.harness !== this.target.harness && this.target.rules.dropsForeignReasoning;
    for (const b of usable) {
      if (isModeled(b) && b.type === 'text' && b.text.trim() === '') {
        this.changes.emptyBlocks++;
      } else if (foreign && (b.type === 'thinking' || b.type === 'redacted_thinking')) {
        this.changes.reasoning++;
      } else if (isModeled(b) && b.type === 'tool_use' && this.target.rules.objectInputs && !isObject(b.input)) {
        this.changes.wrappedInputs++;
        content.push({ ...b, input: { input: b.input } });
      } else {
        content.push(b);
      }
    }
    const marked = given.after_compaction === true && given.sidechain !== true;
    if (content.length === 0) {
      if (usable.length < given.content.length) this.warnings.push('a message with no usable block, skipped');
      else this.changes.emptyMessages++;
      if (marked) this.markHeld = true;
      return;
    }
    const m: CommonMessage = { ...given, content };
    // A client that cannot read a line's date does not load the session at all; the writer dates such a message like the one before.
    if (m.timestamp !== undefined && !isDate(m.timestamp)) {
      delete m.timestamp;
      this.changes.dates++;
    }
    if (this.markHeld && m.sidechain !== true) {
      m.after_compaction = true;
      this.markHeld = false;
    }
    if (m.sidechain !== true) this.pair(m, this.count);
    if (typeof m.timestamp === 'string') this.lastTimestamp = m.timestamp;
    const line = `[${n},${stringifyJson(m)}]\n`;
    if (m.after_compaction === true && m.sidechain !== true) {
      this.compaction = { offset: this.spool.size, index: this.count };
      this.sinceCompaction = { bytes: 0, images: 0 };
    }
    if (m.sidechain !== true) {
      const size = measure(m, Buffer.byteLength(line));
      this.total = add(this.total, size);
      this.sinceCompaction = add(this.sinceCompaction, size);
    }
    this.spool.write(line);
    this.count++;
  }

  /** Follow the turn's tool calls and their answers; plan placeholders for calls left unanswered. */
  private pair(m: CommonMessage, index: number): void {
    if (this.target.rules.results === 'later') return this.pairLater(m, index);
    // A compaction starts the model's conversation over: calls before it are closed there.
    if (m.role === 'assistant' || m.after_compaction === true) this.closeTurn(index);
    if (m.role === 'assistant') {
      this.open = { ids: callIds(m, this.target.rules.callsWithoutResults), firstUser: null };
      return;
    }
    if (this.open.ids.length > 0 && this.open.firstUser === null) this.open.firstUser = index;
    // A slash command a person ran is a call on a user message, answered there or in a
    // user message after it (its output); one without output was a prompt command.
    for (const b of m.content) if (isModeled(b) && b.type === 'tool_use') this.commands.add(b.id);
    const content: Block[] = [];
    for (const b of m.content) {
      if (!isModeled(b) || b.type !== 'tool_result') {
        content.push(b);
        continue;
      }
      if (this.commands.delete(b.tool_use_id)) {
        content.push(b);
        continue;
      }
      const at = this.open.ids.indexOf(b.tool_use_id);
      if (at >= 0) {
        this.open.ids.splice(at, 1);
        content.push(b);
        continue;
      }
      // A result of a call the conversation does not hold: no API takes it as a result, so it is kept as text.
      this.changes.orphans++;
      content.push(orphanText(b), ...orphanBlocks(b));
    }
    m.content = content;
  }

  /** Pairing where a result may come anywhere after its call; a call never answered gets a placeholder right after its message. */
  private pairLater(m: CommonMessage, index: number): void {
    if (m.after_compaction === true) {
      this.closeLater();
      this.calls.clear();
    }
    if (m.role === 'assistant') {
      for (const id of callIds(m, this.target.rules.callsWithoutResults)) {
        this.pending.set(id, index + 1);
        this.calls.add(id);
      }
      return;
    }
    for (const b of m.content) if (isModeled(b) && b.type === 'tool_use') this.commands.add(b.id);
    const content: Block[] = [];
    for (const b of m.content) {
      if (!isModeled(b) || b.type !== 'tool_result' || this.commands.delete(b.tool_use_id) || this.calls.has(b.tool_use_id)) {
        if (isModeled(b) && b.type === 'tool_result') this.pending.delete(b.tool_use_id);
        content.push(b);
        continue;
      }
      this.changes.orphans++;
      content.push(orphanText(b), ...orphanBlocks(b));
    }
    m.content = content;
  }

  /** The calls still pending get placeholder results, each in a user message right after the message that made it. */
  private closeLater(): void {
    for (const [id, after] of this.pending) {
      this.changes.placeholders++;
      const turn = this.placeholderTurns.get(after);
      if (turn) turn.push(id);
      else this.placeholderTurns.set(after, [id]);
    }
    this.pending.clear();
  }

  /** End a turn: its calls still unanswered get placeholder results. */
  private closeTurn(before: number): void {
    const { ids: missing, firstUser: first } = this.open;
    this.open = { ids: [], firstUser: null };
    if (missing.length === 0) return;
    this.changes.placeholders += missing.length;
    if (first !== null) this.placeholders.set(first, missing);
    else this.placeholderTurns.set(before, missing);
  }

  /**
   * After the last message: the messages to write, in order, with placeholders where
   * they are needed. Throws NotContinuable when the conversation does not fit the window.
   */
  *messages(): Generator<{ message: CommonMessage; n: number }> {
    this.closeTurn(this.count);
    this.closeLater();
    let from = { offset: 0, index: 0 };
    if (this.options.fromCompaction && this.compaction) from = this.compaction;
    // A subagent's transcript is not resumed by itself: its size is not the client's concern.
    const loaded = (this.options.fromCompaction || this.target.rules.startsAtCompaction) && this.compaction ? this.sinceCompaction : this.total;
    if (this.session.parent === undefined) this.checkSize(loaded);
    let index = from.index;
    let started = false;
    for (const { message: m, n } of this.readBack(from.offset)) {
      const turn = this.placeholderTurns.get(index);
      if (turn && index !== from.index) {
        yield { message: placeholderTurn(m, turn), n };
      }
      const front = this.placeholders.get(index);
      if (front) {
        // After the results the message holds, before anything else: where the clients put the results they make up.
        let at = 0;
        while (at < m.content.length && m.content[at].type === 'tool_result') at++;
        m.content.splice(at, 0, ...front.map(placeholderResult));
      }
      // What is written opens with the user. (After a compaction inside it, the clients take what
      // the compaction left, which may open with the compaction's own item.)
      if (m.sidechain !== true && m.role === 'assistant' && !started && this.target.rules.userFirst) {
        this.changes.opening++;
        const opening: CommonMessage = { type: 'message', id: `${m.id}:opening`, role: 'user', ...(m.timestamp !== undefined ? { timestamp: m.timestamp } : {}), content: [{ type: 'text', text: PLACEHOLDER_OPENING }] };
        if (m.after_compaction === true) {
          opening.after_compaction = true;
          delete m.after_compaction;
        }
        yield { message: opening, n };
      }
      if (m.sidechain !== true) started = true;
      yield { message: m, n };
      index++;
    }
    const last = this.placeholderTurns.get(this.count);
    if (last) {
      const turn: CommonMessage = { type: 'message', id: `${this.session.id}:placeholder-results`, role: 'user', ...(this.lastTimestamp !== undefined ? { timestamp: this.lastTimestamp } : {}), content: last.map(placeholderResult) };
      yield { message: turn, n: 0 };
    }
  }

  /** Stop when the conversation to write does not fit the window, saying what would. */
  private checkSize(size: Size): void {
    const tokens = estimateTokens(size);
    if (tokens <= this.window) return;
    const what = `session ${this.session.id || '(without id)'} is about ${tokens} tokens, more than the ${this.window}-token context window of ${this.target.harness}`;
    const since = estimateTokens(this.sinceCompaction);
    if (this.compaction && size !== this.sinceCompaction && since <= this.window) {
      throw new NotContinuable(`${what}: not written; --from-compaction starts it from its latest compaction (about ${since} tokens)`);
    }
    if (this.compaction) throw new NotContinuable(`${what} even from its latest compaction: not written, no client could continue it`);
    throw new NotContinuable(`${what}, and it has no compaction to start from: not written, no client could continue it`);
  }

  /** The spooled messages from a byte offset on, parsed again one line at a time. */
  private *readBack(offset: number): Generator<{ message: CommonMessage; n: number }> {
    let held: Buffer[] = [];
    for (const piece of this.spool.read(offset)) {
      let start = 0;
      for (let nl = piece.indexOf(10); nl >= 0; nl = piece.indexOf(10, start)) {
        held.push(piece.subarray(start, nl));
        const [n, message] = JSON.parse(Buffer.concat(held).toString('utf8')) as [number, CommonMessage];
        yield { message, n };
        held = [];
        start = nl + 1;
      }
      if (start < piece.length) held.push(Buffer.from(piece.subarray(start)));
    }
  }

  /** What was changed to make the session continuable, in one line, or null when nothing was. */
  summary(): string | null {
    const c = this.changes;
    const parts: string[] = [];
    const say = (n: number, one: string, many: string) => n > 0 && parts.push(`${n} ${n === 1 ? one : many}`);
    say(c.placeholders, 'tool call without a result given a placeholder result', 'tool calls without a result given placeholder results');
    say(c.orphans, 'result of a call not in the conversation kept as text', 'results of calls not in the conversation kept as text');
    say(c.emptyBlocks, 'empty text block left out', 'empty text blocks left out');
    say(c.emptyMessages, 'empty message left out', 'empty messages left out');
    say(c.wrappedInputs, 'tool input that is not an object wrapped as {"input": …}', 'tool inputs that are not objects wrapped as {"input": …}');
    say(c.reasoning, `reasoning block of ${this.session.harness} left out (${this.target.harness} cannot read it)`, `reasoning blocks of ${this.session.harness} left out (${this.target.harness} cannot read them)`);
    say(c.dates, 'timestamp that is not a date left out', 'timestamps that are not dates left out');
    say(c.opening, 'placeholder opening message written before the reply the conversation began with', 'placeholder opening messages written');
    if (this.options.fromCompaction && this.compaction && this.compaction.index > 0) parts.push(`started from the latest compaction (${this.compaction.index} messages before it left out)`);
    return parts.length === 0 ? null : parts.join('; ');
  }

  /** Release the spool (its temporary file, if any). */
  dispose(): void {
    this.spool.clear();
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
