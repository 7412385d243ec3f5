// Messages, tokens and cost summed, in all and by model: what a session summary and a
// bucket say of usage. Every field is a count or a sum of whole nanodollars, so two
// tallies fold into one exactly, whatever the order (a worker's, a machine's).
import { keyed } from '../core/keyed.js';
import { pricing, dollars } from './cost.js';
import { addTokens, zeroTokens, type Tokens, type UsageEvent } from './event.js';

/** One model's share of a tally. */
export interface ModelTally {
  messages: number;
  tokens: Tokens;
  nanos: number;
  /** Messages with tokens whose model has no price (then the model's cost is unknown). */
  unpriced: number;
}

/** What a tally holds, as it crosses threads (a structured clone) or is rebuilt from output. */
export interface TallyData {
  messages: number;
  tokens: Tokens;
  nanos: number;
  byModel: Map<string, ModelTally>;
}

/** Usage summed over messages. */
export class UsageTally implements TallyData {
  messages = 0;
  tokens = zeroTokens();
  /** The cost of the messages that have a price, in nanodollars. */
  nanos = 0;
  byModel = new Map<string, ModelTally>();

  /** Count one message, priced here; returns its cost in nanodollars (null: no price). */
  add(e: UsageEvent): number | null {
    const nanos = pricing().nanos(e);
    this.addPriced(e, nanos);
    return nanos;
  }

  /** Count one message already priced. */
  addPriced(e: UsageEvent, nanos: number | null): void {
    this.messages++;
    addTokens(this.tokens, e.tokens);
    const m = this.model(e.model);
    m.messages++;
    addTokens(m.tokens, e.tokens);
    if (nanos === null) m.unpriced++;
    else {
      m.nanos += nanos;
      this.nanos += nanos;
    }
  }

  /** Fold another tally in (a structured clone, or one rebuilt from output). */
  fold(other: TallyData): void {
    this.messages += other.messages;
    addTokens(this.tokens, other.tokens);
    this.nanos += other.nanos;
    for (const [name, o] of other.byModel) {
      const m = this.model(name);
      m.messages += o.messages;
      addTokens(m.tokens, o.tokens);
      m.nanos += o.nanos;
      m.unpriced += o.unpriced;
    }
  }

  private model(name: string): ModelTally {
    let m = this.byModel.get(name);
    if (!m) this.byModel.set(name, (m = { messages: 0, tokens: zeroTokens(), nanos: 0, unpriced: 0 }));
    return m;
  }

  /** The cost of the priced messages, in dollars. */
  cost(): number {
    return dollars(this.nanos);
  }

  /** The models without a price, and how many of their messages had tokens (sorted by name). */
  unpriced(): Record<string, number> {
    const out = keyed<number>();
    for (const name of [...this.byModel.keys()].sort()) {
      const m = this.byModel.get(name)!;
      if (m.unpriced > 0) out[name] = m.unpriced;
    }
    return out;
  }

  /**
   * By model: the four token sums, the count under `count` (`messages`, or Codex's
   * `responses`), and cost_usd (null when the model has no price). In the order models
   * were first counted, or by name with `sorted`.
   */
  byModelOutput(count: string, sorted = false): Record<string, Record<string, number | null>> {
    const out = keyed<Record<string, number | null>>();
    const names = [...this.byModel.keys()];
    if (sorted) names.sort();
    for (const name of names) {
      const m = this.byModel.get(name)!;
      out[name] = { ...m.tokens, [count]: m.messages, cost_usd: m.unpriced > 0 ? null : dollars(m.nanos) };
    }
    return out;
  }
}
