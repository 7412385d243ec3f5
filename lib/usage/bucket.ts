// One bucket of a --by grouping while it is counted: what buckets.ts fills and blocks.ts
// gathers into 5-hour blocks.
import type { UsageTally } from './tally.js';

/** One bucket while it is counted. */
export interface Bucket {
  /** Its identity in the map: the grouping's key, with the harness where the grouping has one. */
  id: string;
  /** The key printed (null: messages without a time, a project or a session id). */
  key: string | null;
  /** Hours, blocks and sessions are per harness; other buckets add harnesses up. */
  harness: string | null;
  /** Hours and blocks: the start of the UTC hour, in ms. */
  hour: number | null;
  tally: UsageTally;
  /** The sessions with a message in it (harness, NUL, session id). */
  sessions: Set<string>;
  /** Sessions counted elsewhere and known only by their number (buckets read back by --merge). */
  moreSessions: number;
}
