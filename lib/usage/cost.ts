// One message's cost, in whole nanodollars (1e-9 USD): each token kind at its own
// price, cache writes at their duration, every kind at the tier of the message's own
// context size (all its input: uncached, cache reads and cache writes), at the prices
// in force at the message's time. Whole nanodollars make sums exact in any order, so
// that counts merged from threads or machines equal one count (below 2^53 nanodollars,
// 9 million dollars, a sum).
import type { UsageEvent } from './event.js';
import { filePrices, type PriceFile } from './price-file.js';
import { databasePrices, rateAt, sheetAt, type ModelPrices } from './prices.js';

/** What prices messages in this thread: the database, with a --prices file over it. */
export class Pricing {
  private readonly known = new Map<string, ModelPrices | null>();

  constructor(private readonly file: PriceFile | null = null) {}

  /** A model's prices (as `provider` serves it, when named), or null when neither the file nor the database has any. */
  pricesOf(model: string, provider?: string): ModelPrices | null {
    const key = provider === undefined ? model : `${provider}\0${model}`;
    let p = this.known.get(key);
    if (p === undefined) {
      const fromFile = this.file ? filePrices(this.file, model) : undefined;
      p = fromFile !== undefined ? fromFile : databasePrices(model, provider);
      this.known.set(key, p);
    }
    return p;
  }

  /** The message's cost in nanodollars; null when its model has no price. A message of no tokens costs 0 whatever its model. */
  nanos(e: UsageEvent): number | null {
    const t = e.tokens;
    if (t.input_tokens + t.output_tokens + t.cache_read_input_tokens + t.cache_creation_input_tokens === 0) return 0;
    const prices = this.pricesOf(e.model, e.provider);
    return prices === null ? null : messageNanos(prices, e);
  }
}

/** The cost of one message at the given prices, in nanodollars (the database's rules: a kind without a price of its own is priced as the kind it is part of). */
export function messageNanos(prices: ModelPrices, e: UsageEvent): number {
  const s = sheetAt(prices, e.time);
  const t = e.tokens;
  const context = t.input_tokens + t.cache_read_input_tokens + t.cache_creation_input_tokens;
  const input = rateAt(s.input_mtok, context) ?? 0;
  const write = rateAt(s.cache_write_mtok, context) ?? input;
  const write1h = rateAt(s.cache_write_1h_mtok, context) ?? write;
  const read = rateAt(s.cache_read_mtok, context) ?? input;
  const output = rateAt(s.output_mtok, context) ?? 0;
  const hour = Math.min(e.cache_1h, t.cache_creation_input_tokens);
  // Tokens times dollars per million tokens, times 1e9 / 1e6.
  const dollarsPerMillion = t.input_tokens * input + t.output_tokens * output + t.cache_read_input_tokens * read + (t.cache_creation_input_tokens - hour) * write + hour * write1h;
  return Math.round(dollarsPerMillion * 1000);
}

let current = new Pricing();

/** This thread's pricing. */
export function pricing(): Pricing {
  return current;
}

/** Price this thread's messages with a --prices file over the database (null: the database alone). */
export function usePriceFile(file: PriceFile | null): void {
  current = new Pricing(file);
}

/** Nanodollars as dollars, for output. */
export function dollars(nanos: number): number {
  return nanos / 1e9;
}

/** Dollars written by `dollars` back to nanodollars, exactly (below 2^52 nanodollars). */
export function nanosOf(usd: number): number {
  return Math.round(usd * 1e9);
}
