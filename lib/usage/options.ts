// The usage options of tx-stats (--by, --tz, --since, --until, --prices), checked once
// per thread: the main thread and each worker read the same arguments.
import { GROUPINGS, type By, type DayRange } from './buckets.js';
import { Calendar, dayArgument, systemZone } from './calendar.js';
import { usePriceFile } from './cost.js';
import { PriceFileError, readPriceFile } from './price-file.js';

/** What the usage options ask for. */
export interface UsageOptions {
  /** The grouping of --by, or null for one summary per session. */
  by: By | null;
  calendar: Calendar;
  range: DayRange;
}

// A worker runs the tool once per file: the prices (with the models they have resolved)
// and the calendar (with the offsets it has asked for) are kept from one file to the next.
let pricesFor: string | null | undefined;
let calendars = new Map<string, Calendar>();

/** Read the usage options and set this thread's prices; a string says what is wrong with them. */
export function usageOptions(args: Record<string, unknown>): UsageOptions | string {
  const by = args.by === undefined ? null : String(args.by);
  if (by !== null && !(GROUPINGS as readonly string[]).includes(by)) return `--by must be one of ${GROUPINGS.join(', ')}, not ${JSON.stringify(by)}`;
  const zone = args.tz === undefined ? systemZone() : String(args.tz);
  let calendar = calendars.get(zone);
  if (!calendar) {
    try {
      calendar = new Calendar(zone);
    } catch {
      return `--tz: unknown time zone ${JSON.stringify(zone)} (an IANA name such as Europe/Paris, or UTC)`;
    }
    calendars = new Map([[zone, calendar]]);
  }
  const range: DayRange = { since: null, until: null };
  for (const k of ['since', 'until'] as const) {
    if (args[k] === undefined) continue;
    if (by === null) return `--${k} counts messages into buckets: give --by too`;
    const day = dayArgument(String(args[k]));
    if (day === null) return `--${k} takes a date, YYYY-MM-DD or YYYYMMDD, not ${JSON.stringify(String(args[k]))}`;
    range[k] = day;
  }
  const prices = args.prices === undefined ? null : String(args.prices);
  if (prices !== pricesFor) {
    try {
      usePriceFile(prices === null ? null : readPriceFile(prices));
    } catch (err) {
      return `--prices: ${err instanceof PriceFileError ? err.message : `${prices}: ${(err as Error).message}`}`;
    }
    pricesFor = prices;
  }
  return { by: by as By | null, calendar, range };
}
