// Copies of byte ranges that live a short while, kept in slabs of 1 MB used again. A
// buffer of its own per copy is memory outside V8's heap that stays until a collection
// finds it dead, and a tool that makes little garbage on the heap collects seldom: on a
// 282 MB session, tx-common's copies of long strings held 36 MB more that way.

/** One slab: its bytes, how far they are used, and how many copies in it are alive. */
interface Slab {
  buf: Buffer;
  used: number;
  live: number;
}

/** A copy made by Slabs.copy: its bytes, and the slab that holds them (null: a buffer of its own). */
export interface SlabCopy {
  bytes: Buffer;
  slab: Slab | null;
}

const SLAB = 1024 * 1024;
/** Copies longer than this get a buffer of their own: a slab is not kept for one copy. */
const LARGEST = SLAB / 4;
/** Empty slabs kept for use again; more are left to the collector. */
const SPARE = 4;

/** Slabs of copies: a slab is used again once every copy in it is freed. */
export class Slabs {
  private current: Slab | null = null;
  private readonly spare: Buffer[] = [];

  /** A copy of `bytes`, valid until it is freed. */
  copy(bytes: Buffer): SlabCopy {
    if (bytes.length > LARGEST) return { bytes: Buffer.from(bytes), slab: null };
    let slab = this.current;
    if (slab === null || slab.used + bytes.length > slab.buf.length) {
      if (slab !== null && slab.live === 0) this.spare.push(slab.buf);
      slab = this.current = { buf: this.spare.pop() ?? Buffer.allocUnsafe(SLAB), used: 0, live: 0 };
    }
    const at = slab.used;
    slab.used += bytes.copy(slab.buf, at);
    slab.live++;
    return { bytes: slab.buf.subarray(at, slab.used), slab };
  }

  /** Free a copy: its bytes may be written over from now on. */
  free(copy: SlabCopy): void {
    const slab = copy.slab;
    if (slab === null || --slab.live > 0) return;
    if (slab === this.current) slab.used = 0;
    else if (this.spare.length < SPARE) this.spare.push(slab.buf);
  }
}
