// A model's prices per million tokens, as a message is priced: from a --prices file
// first, then from the price database (@pydantic/genai-prices, its data bundled in the
// package, so nothing is fetched). The database is required, synchronously, on the
// first model to price (about 30 ms), so a run without usage never loads it.
import { createRequire } from 'node:module';
import type { ModelInfo } from '@pydantic/genai-prices';

/** A price per million tokens: flat, or by tier of the message's context size (all its input). */
export type Rate = number | { base: number; tiers: { start: number; price: number }[] };

/** The price keys a message's tokens are priced at (the database's names). */
export const PRICE_KEYS = ['input_mtok', 'output_mtok', 'cache_read_mtok', 'cache_write_mtok', 'cache_write_1h_mtok'] as const;

/** One set of prices of a model. */
export type PriceSheet = Partial<Record<(typeof PRICE_KEYS)[number], Rate>>;

/** When a sheet applies: from a date on, or at a time of day (UTC seconds, end exclusive, may wrap). */
export type Constraint = { type: 'start_date'; from: number } | { type: 'time_of_date'; start: number; end: number };

/** A model's prices: sheets chosen by the message's time, the last that applies winning. */
export interface ModelPrices {
  /** Where they come from: the database's model id, or `--prices` and the entry's name. */
  source: string;
  variants: { sheet: PriceSheet; constraint?: Constraint }[];
}

const require = createRequire(import.meta.url);
let database: typeof import('@pydantic/genai-prices') | null = null;

/** The database's own matching of a model name (dated names, aliases), among one provider's models when it is named. */
function matchModel(model: string, provider?: string): ModelInfo | undefined {
  try {
    return database!.calcPrice({ input_tokens: 0 }, model, provider === undefined ? undefined : { providerId: provider })?.model;
  } catch {
    return undefined;
  }
}

/**
 * The database's prices of a model, or null when it knows none. A provider named (one
 * that serves other vendors' models under ids of its own, `anthropic/claude-sonnet-4`
 * on openrouter) is asked first, then the model id alone (a provider id the database
 * names otherwise, or a model it lists under its maker only).
 */
export function databasePrices(model: string, provider?: string): ModelPrices | null {
  database ??= require('@pydantic/genai-prices') as typeof import('@pydantic/genai-prices');
  const info = (provider === undefined ? undefined : matchModel(model, provider)) ?? matchModel(model);
  if (!info) return null;
  const list = Array.isArray(info.prices) ? info.prices : [{ prices: info.prices }];
  const variants: ModelPrices['variants'] = [];
  for (const v of list) {
    const sheet = pickSheet(v.prices as Record<string, unknown>);
    const c = (v as { constraint?: Record<string, string> }).constraint;
    if (!c) variants.push({ sheet });
    else if (c.type === 'start_date') variants.push({ sheet, constraint: { type: 'start_date', from: Date.parse(`${c.start_date}T00:00:00Z`) } });
    else if (c.type === 'time_of_date') variants.push({ sheet, constraint: { type: 'time_of_date', start: utcSeconds(c.start_time), end: utcSeconds(c.end_time) } });
  }
  if (variants.length === 0 || variants.every((v) => !priced(v.sheet))) return null;
  return { source: info.id, variants };
}

/** The price keys of a sheet this project prices (web searches, audio and images are not counted). */
export function pickSheet(prices: Record<string, unknown>): PriceSheet {
  const sheet: PriceSheet = {};
  for (const k of PRICE_KEYS) {
    const r = prices[k];
    if (typeof r === 'number') sheet[k] = r;
    else if (r && typeof r === 'object' && typeof (r as { base?: unknown }).base === 'number') {
      const t = r as { base: number; tiers: { start: number; price: number }[] };
      sheet[k] = { base: t.base, tiers: [...t.tiers].sort((a, b) => a.start - b.start) };
    }
  }
  return sheet;
}

/** True when a sheet prices input or output at all. */
export function priced(sheet: PriceSheet): boolean {
  return sheet.input_mtok !== undefined || sheet.output_mtok !== undefined;
}

/** `HH:MM:SS[.f](Z|±HH:MM)` as seconds after UTC midnight. */
function utcSeconds(text: string): number {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$/.exec(text);
  if (!m) return 0;
  const local = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  const offset = m[4] === 'Z' ? 0 : (m[5] === '+' ? 1 : -1) * (Number(m[6]) * 3600 + Number(m[7]) * 60);
  return (local - offset + 86400) % 86400;
}

/**
 * The sheet in force at `time`, as the database chooses it: the last variant whose
 * constraint holds. A message without a time is priced at the latest dated prices,
 * whatever the time of day, so that its cost does not depend on when it is counted.
 */
export function sheetAt(prices: ModelPrices, time: number): PriceSheet {
  const vs = prices.variants;
  for (let i = vs.length - 1; i >= 0; i--) {
    const c = vs[i].constraint;
    if (!c) return vs[i].sheet;
    if (c.type === 'start_date') {
      if (Number.isNaN(time) || time >= c.from) return vs[i].sheet;
    } else if (!Number.isNaN(time)) {
      const s = (((time % 86400000) + 86400000) % 86400000) / 1000;
      if (c.end < c.start ? s >= c.start || s < c.end : s >= c.start && s < c.end) return vs[i].sheet;
    }
  }
  return vs[0].sheet;
}

/** A rate at a context size: the tier of the highest start the context exceeds, else the base. */
export function rateAt(rate: Rate | undefined, context: number): number | undefined {
  if (rate === undefined || typeof rate === 'number') return rate;
  let price = rate.base;
  for (const t of rate.tiers) if (context > t.start) price = t.price;
  return price;
}
