// Whether a conversation fits the window of the client that continues it, and what is
// done when it does not. The window is the one given (--context-window), else the
// session's own where its own client continues it (from its model and what it
// recorded), else the target client's default. A session written back for its own
// client is never refused: that client loaded it before, and can compact it. Another
// client refuses it only where no model of that client could hold it; --strict-size
// refuses any overflow.
import { NotContinuable, type ContinueOptions, type ContinueRules } from './rules.js';
import type { Measured, SizeMeter } from './size.js';

/** What the size rule decided: nothing to say, a note (the session is written), or a refusal (thrown). */
export type SizeVerdict = { fits: true } | { fits: false; note: string };

/** What the rule needs to know of the session and its target. */
export interface SizeCase {
  id: string;
  /** The harness that wrote the session. */
  from: string;
  target: { harness: string; rules: ContinueRules };
  options: ContinueOptions;
  meter: SizeMeter;
  /** The part written starts at the latest compaction (the flag, or a target that loads only that part). */
  fromCompaction: boolean;
}

/** The window to fit, and what it is the window of. */
function windowFor(c: SizeCase): { tokens: number; of: string } {
  if (c.options.contextWindow !== undefined) return { tokens: c.options.contextWindow, of: `${c.target.harness} (--context-window)` };
  if (c.from === c.target.harness && c.options.source) {
    const { model, usage } = c.meter.last;
    const own = c.options.source.windowOf(model, usage, c.meter.largest);
    if (own !== null) return { tokens: own, of: model === undefined ? c.target.harness : `${model} in ${c.target.harness}` };
  }
  return { tokens: c.target.rules.contextWindow, of: c.target.harness };
}

/** How a size was arrived at, for a message. */
function basis(m: Measured): string {
  return m.recorded === null ? 'estimated from its bytes' : `${m.recorded} recorded at its last reply, ${m.estimated} estimated after it`;
}

/** Decide whether the part of a session to write fits its target; throws NotContinuable where it is refused. */
export function sizeVerdict(c: SizeCase): SizeVerdict {
  const measured = c.meter.measure(c.fromCompaction);
  const window = windowFor(c);
  if (measured.tokens <= window.tokens) return { fits: true };
  const largest = Math.max(c.target.rules.largestWindow, c.options.contextWindow ?? 0);
  const compaction = c.meter.hasCompaction;
  const since = c.meter.measure(true);
  const what = `session ${c.id || '(without id)'} is about ${measured.tokens} tokens (${basis(measured)}), more than the ${window.tokens}-token context window of ${window.of}`;
  const where = !compaction ? ', and it has no compaction for --from-compaction to start from' : c.fromCompaction ? ' even from its latest compaction' : '';
  const hint = compaction && !c.fromCompaction ? `; --from-compaction starts it from its latest compaction (about ${since.tokens} tokens)` : '';
  if (c.options.strictSize) throw new NotContinuable(`${what}${where}: not written (--strict-size)${hint}`);
  if (c.from !== c.target.harness && measured.tokens > largest) {
    throw new NotContinuable(`${what}${where}: not written, no model of ${c.target.harness} has a window that large (${largest} tokens at most)${hint}`);
  }
  return { fits: false, note: `${what}${where}: written; the client may have to compact it before it goes on, or refuse it${hint}` };
}
