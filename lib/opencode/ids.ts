// Ids in the client's shape (packages/opencode/src/id/id.ts): a prefix, 12 hex digits of
// the time in milliseconds times 4096 plus a counter (the low 48 bits; bitwise inverted for
// sessions, so newer sessions sort first), and 14 base-62 characters. The client orders a
// session's messages by creation time then id, and a message's parts by id, so ids made
// here ascend in the order they are made. The tail is derived from a seed, not random, so
// a conversion gives the same ids every time.
import { createHash } from 'node:crypto';
import { ID_PREFIX } from './shape.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const MASK = 0xffffffffffffn;

/** A maker of ids for one session. */
export class IdMaker {
  private lastTime = -1;
  private counter = 0;
  private made = 0;

  constructor(private readonly seed: string) {}

  /** An ascending message or part id at time `ms` (ids made later at the same or a later time sort after). */
  ascending(kind: 'message' | 'part', ms: number): string {
    const t = Math.max(ms, this.lastTime);
    if (t !== this.lastTime) {
      this.lastTime = t;
      this.counter = 0;
    }
    this.counter++;
    return ID_PREFIX[kind] + this.time(t, false) + this.tail();
  }

  /** A session id at time `ms`, as the client makes them (descending). */
  session(ms: number): string {
    return ID_PREFIX.session + this.time(ms, true) + this.tail();
  }

  private time(ms: number, descending: boolean): string {
    let v = (BigInt(Math.max(0, Math.floor(ms))) * 0x1000n + BigInt(this.counter)) & MASK;
    if (descending) v = ~v & MASK;
    return v.toString(16).padStart(12, '0');
  }

  private tail(): string {
    const digest = createHash('sha256').update(`${this.seed}\0${this.made++}`).digest();
    let s = '';
    for (let i = 0; i < 14; i++) s += BASE62[digest[i]! % 62];
    return s;
  }
}

/** True for an id of the client's shape with the given prefix. */
export function isClientId(id: unknown, kind: keyof typeof ID_PREFIX): id is string {
  return typeof id === 'string' && new RegExp(`^${ID_PREFIX[kind]}[0-9a-f]{12}[0-9A-Za-z]{14}$`).test(id);
}
