// tx-stats --by: usage summed into buckets as messages come, so that memory holds one
// tally (and the set of sessions seen) per bucket, never the messages. A bucket is
// counted from each message's own time, so a session that spans midnight is in two
// days. Buckets fold into each other exactly (a worker's into the main thread's, a
// machine's into another's with --merge).
import type { Harness } from '../record.js';
import { blocksOf } from './blocks.js';
import type { Bucket } from './bucket.js';
import { hourOf, type Calendar } from './calendar.js';
import { dollars } from './cost.js';
import type { UsageEvent } from './event.js';
import { UsageTally } from './tally.js';

/** What --by may group by. */
export const GROUPINGS = ['day', 'week', 'month', 'hour', 'block', 'project', 'model', 'session'] as const;

/** One grouping. */
export type By = (typeof GROUPINGS)[number];

/** Which messages count: those of local days from `since` to `until` (YYYY-MM-DD, inclusive). */
export interface DayRange {
  since: string | null;
  until: string | null;
}

/** The buckets of one grouping. */
export class Buckets {
  private readonly map = new Map<string, Bucket>();

  constructor(
    readonly by: By,
    private readonly calendar: Calendar,
    private readonly range: DayRange = { since: null, until: null },
  ) {}

  /** Count one message of a session (`session`: harness, NUL, id; `id`: the id printed). */
  add(session: string, id: string | null, harness: Harness, e: UsageEvent, nanos: number | null): void {
    const { since, until } = this.range;
    if (since !== null || until !== null) {
      if (Number.isNaN(e.time)) return;
      const day = this.calendar.day(e.time);
      if ((since !== null && day < since) || (until !== null && day > until)) return;
    }
    const b = this.bucket(this.place(id, harness, e));
    b.tally.addPriced(e, nanos);
    b.sessions.add(session);
  }

  private place(id: string | null, harness: Harness, e: UsageEvent): Pick<Bucket, 'id' | 'key' | 'harness' | 'hour'> {
    const timed = !Number.isNaN(e.time);
    switch (this.by) {
      case 'day':
      case 'week':
      case 'month': {
        const key = timed ? this.calendar[this.by](e.time) : null;
        return { id: key ?? '', key, harness: null, hour: null };
      }
      case 'hour':
      case 'block': {
        const hour = timed ? hourOf(e.time) : null;
        return { id: `${harness}\0${hour}`, key: null, harness, hour };
      }
      case 'project':
        return { id: e.project === null ? '' : `p${e.project}`, key: e.project, harness: null, hour: null };
      case 'model':
        return { id: e.model, key: e.model, harness: null, hour: null };
      case 'session':
        return { id: `${harness}\0${id ?? ''}`, key: id, harness, hour: null };
    }
  }

  /** The bucket with this identity, made empty when new. */
  bucket(place: Pick<Bucket, 'id' | 'key' | 'harness' | 'hour'>): Bucket {
    let b = this.map.get(place.id);
    if (!b) this.map.set(place.id, (b = { ...place, tally: new UsageTally(), sessions: new Set(), moreSessions: 0 }));
    return b;
  }

  /** The buckets as data, for a worker to send (a structured clone keeps the sets). */
  data(): Bucket[] {
    return [...this.map.values()];
  }

  /** Fold buckets in: a worker's, or buckets read back from output. */
  fold(buckets: Iterable<Bucket>): void {
    for (const o of buckets) {
      const b = this.bucket(o);
      b.tally.fold(o.tally);
      for (const s of o.sessions) b.sessions.add(s);
      b.moreSessions += o.moreSessions;
    }
  }

  /** The buckets as tx-stats writes them, in order (tx-stats(1), BUCKETS). */
  *objects(): Generator<Record<string, unknown>> {
    const all = this.by === 'block' ? blocksOf(this.data()) : this.data();
    all.sort(order);
    for (const b of all) yield this.object(b);
  }

  private object(b: Bucket): Record<string, unknown> {
    const o: Record<string, unknown> = { by: this.by };
    const timed = this.by === 'hour' || this.by === 'block';
    o.key = timed ? (b.hour === null ? null : this.calendar.iso(b.hour)) : b.key;
    if (b.harness !== null) o.harness = b.harness;
    if (this.by === 'block') o.end = b.hour === null ? null : this.calendar.iso(b.hour + 5 * 3600000);
    o.sessions = b.sessions.size + b.moreSessions;
    o.messages = b.tally.messages;
    o.tokens = { ...b.tally.tokens };
    o.cost_usd = dollars(b.tally.nanos);
    o.models = b.tally.byModelOutput('messages', true);
    o.unpriced_models = b.tally.unpriced();
    // A bucket names its sessions (harness:id), so that buckets merged from other runs
    // count a session once though its files were counted apart (a subagent's transcript,
    // a session cut in parts), and hours make blocks with exact session counts.
    o.session_ids = [...b.sessions].map((s) => s.replace('\0', ':')).sort();
    return o;
  }
}

/** Buckets in time order (hours and blocks by start, then harness), else by key; null keys last. */
function order(a: Bucket, b: Bucket): number {
  if (a.hour !== b.hour) return a.hour === null ? 1 : b.hour === null ? -1 : a.hour - b.hour;
  if (a.key !== b.key) return a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : 1;
  return (a.harness ?? '') < (b.harness ?? '') ? -1 : (a.harness ?? '') > (b.harness ?? '') ? 1 : 0;
}
