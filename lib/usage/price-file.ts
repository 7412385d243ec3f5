// A --prices file: prices that override or add to the database's. One JSON object whose
// keys are model names as transcripts write them (a name ending in `*` stands for every
// model that starts with the rest; the longest such prefix wins, an exact name first)
// and whose values use the database's price keys per million tokens, each a number or
// `{"base": N, "tiers": [{"start": TOKENS, "price": N}]}` (above `start` tokens of
// context, the tier's price); `null` says the model has no known price.
import { readSmallFile } from '../core/input/regular-file.js';
import { PRICE_KEYS, type ModelPrices, type PriceSheet, type Rate } from './prices.js';

/** The prices a file gives, by model name; null for a model said to have none. */
export interface PriceFile {
  exact: Map<string, ModelPrices | null>;
  /** Prefixes (without their `*`), longest first. */
  prefixes: [string, ModelPrices | null][];
}

/** A price file that cannot be used: the message says where. */
export class PriceFileError extends Error {}

const LIMIT = 16 << 20;

/** Read and check a price file. */
export function readPriceFile(file: string): PriceFile {
  let value: unknown;
  try {
    value = JSON.parse(readSmallFile(file, LIMIT).toString('utf8'));
  } catch (err) {
    throw new PriceFileError(`${file}: ${err instanceof SyntaxError ? 'not JSON' : (err as Error).message}`);
  }
  return parsePrices(value, file);
}

/** Check a price file's parsed JSON (`file` names it in messages). */
export function parsePrices(value: unknown, file: string): PriceFile {
  if (!isObject(value)) throw new PriceFileError(`${file}: not a JSON object of model names`);
  const exact = new Map<string, ModelPrices | null>();
  const prefixes: [string, ModelPrices | null][] = [];
  for (const [name, entry] of Object.entries(value)) {
    if (name === '' || name === '*') throw new PriceFileError(`${file}: a model name must not be empty`);
    const prices = entry === null ? null : { source: `--prices ${name}`, variants: [{ sheet: sheetOf(entry, `${file}: ${JSON.stringify(name)}`) }] };
    if (name.endsWith('*')) prefixes.push([name.slice(0, -1), prices]);
    else exact.set(name, prices);
  }
  prefixes.sort((a, b) => b[0].length - a[0].length);
  return { exact, prefixes };
}

/** The file's prices of a model: undefined when the file does not name it. */
export function filePrices(file: PriceFile, model: string): ModelPrices | null | undefined {
  if (file.exact.has(model)) return file.exact.get(model);
  for (const [prefix, prices] of file.prefixes) if (model.startsWith(prefix)) return prices;
  return undefined;
}

function sheetOf(entry: unknown, where: string): PriceSheet {
  if (!isObject(entry)) throw new PriceFileError(`${where}: prices must be an object (or null)`);
  const sheet: PriceSheet = {};
  const known: readonly string[] = PRICE_KEYS;
  for (const [key, v] of Object.entries(entry)) {
    if (!known.includes(key)) throw new PriceFileError(`${where}: unknown price key ${JSON.stringify(key)} (known: ${PRICE_KEYS.join(', ')})`);
    sheet[key as (typeof PRICE_KEYS)[number]] = rateOf(v, `${where}.${key}`);
  }
  if (sheet.input_mtok === undefined && sheet.output_mtok === undefined) throw new PriceFileError(`${where}: needs input_mtok or output_mtok`);
  return sheet;
}

function rateOf(v: unknown, where: string): Rate {
  if (isPrice(v)) return v;
  if (isObject(v) && isPrice(v.base) && Array.isArray(v.tiers)) {
    const tiers = v.tiers.map((t: unknown) => {
      if (!isObject(t) || !Number.isSafeInteger(t.start) || (t.start as number) < 0 || !isPrice(t.price)) throw new PriceFileError(`${where}: a tier is {"start": TOKENS, "price": N}`);
      return { start: t.start as number, price: t.price };
    });
    return { base: v.base, tiers: tiers.sort((a, b) => a.start - b.start) };
  }
  throw new PriceFileError(`${where}: a price is a number of dollars per million tokens, or {"base": N, "tiers": [...]}`);
}

function isPrice(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
