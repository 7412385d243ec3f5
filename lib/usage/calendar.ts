// Days, weeks, months and hours as a person in a time zone counts them. A time zone's
// offset is the same across each quarter hour (every zone's offsets and changes fall
// on quarter hours), so it is asked of Intl once per quarter hour seen, not per message.

const QUARTER = 15 * 60 * 1000;
const HOUR = 4 * QUARTER;
const DAY = 24 * HOUR;

/** The time zone a run counts in, and its calendar. */
export class Calendar {
  private readonly format: Intl.DateTimeFormat;
  private readonly offsets = new Map<number, number>();

  /** `zone`: an IANA name (Europe/Paris, UTC); throws a RangeError for one Intl does not know. */
  constructor(readonly zone: string) {
    this.format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  }

  /** The zone's offset from UTC at `ms`, in ms. */
  offset(ms: number): number {
    const q = Math.floor(ms / QUARTER);
    let off = this.offsets.get(q);
    if (off === undefined) {
      const p: Record<string, number> = {};
      for (const part of this.format.formatToParts(q * QUARTER)) if (part.type !== 'literal') p[part.type] = Number(part.value);
      off = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - q * QUARTER;
      this.offsets.set(q, off);
    }
    return off;
  }

  /** The local day of `ms`: YYYY-MM-DD. */
  day(ms: number): string {
    return new Date(ms + this.offset(ms)).toISOString().slice(0, 10);
  }

  /** The Monday that starts the local week (ISO 8601) of `ms`: YYYY-MM-DD. */
  week(ms: number): string {
    const local = ms + this.offset(ms);
    const weekday = (new Date(local).getUTCDay() + 6) % 7;
    return new Date(local - weekday * DAY).toISOString().slice(0, 10);
  }

  /** The local month of `ms`: YYYY-MM. */
  month(ms: number): string {
    return new Date(ms + this.offset(ms)).toISOString().slice(0, 7);
  }

  /** An instant as local time with its offset: 2026-01-05T14:00:00+01:00. */
  iso(ms: number): string {
    const off = this.offset(ms);
    const sign = off < 0 ? '-' : '+';
    const m = Math.abs(off) / 60000;
    return `${new Date(ms + off).toISOString().slice(0, 19)}${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  }
}

/** The start of the UTC hour of `ms` (as a 5-hour block starts). */
export function hourOf(ms: number): number {
  return Math.floor(ms / HOUR) * HOUR;
}

/** One hour in ms. */
export const HOUR_MS = HOUR;

/** The system's time zone (TZ when set). */
export function systemZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}

/** A --since or --until date, YYYY-MM-DD or YYYYMMDD, as YYYY-MM-DD; null when it is neither. */
export function dayArgument(text: string): string | null {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  return d.toISOString().slice(0, 10) === day ? day : null;
}
