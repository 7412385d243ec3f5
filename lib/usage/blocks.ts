// 5-hour blocks, as Claude's plans count usage: a block starts at the UTC hour of the
// first message after the last block has ended, and lasts five hours; the messages in
// [start, start + 5 h) are its own. (ccusage counts a message at exactly start + 5 h
// into the block that ends then; here it starts the next, so that a block is a union of
// whole hours and hours counted apart fold into the same blocks.) Each harness has its
// blocks: another vendor's plan has windows of its own.
import type { Bucket } from './bucket.js';
import { HOUR_MS } from './calendar.js';
import { UsageTally } from './tally.js';

/** The length of a block. */
export const BLOCK_MS = 5 * HOUR_MS;

/** The blocks that hour buckets (per harness) make. Messages without a time stay in a block of their own with no start. */
export function blocksOf(hours: Bucket[]): Bucket[] {
  const byHarness = new Map<string | null, Bucket[]>();
  for (const h of hours) {
    let list = byHarness.get(h.harness);
    if (!list) byHarness.set(h.harness, (list = []));
    list.push(h);
  }
  const blocks: Bucket[] = [];
  for (const [harness, list] of byHarness) {
    list.sort((a, b) => (a.hour ?? Infinity) - (b.hour ?? Infinity));
    let block: Bucket | null = null;
    for (const h of list) {
      if (block === null || h.hour === null || block.hour === null || h.hour >= block.hour + BLOCK_MS) {
        block = { id: `${harness}\0${h.hour}`, key: null, harness, hour: h.hour, tally: new UsageTally(), sessions: new Set(), moreSessions: 0 };
        blocks.push(block);
      }
      block.tally.fold(h.tally);
      for (const s of h.sessions) block.sessions.add(s);
      block.moreSessions += h.moreSessions;
    }
  }
  return blocks;
}
