// V8's heap sizing for this process, changed while it runs (v8.setFlagsFromString): V8
// reads these two flags as a heap grows, and every heap of the process reads them.
import { setFlagsFromString } from 'node:v8';

/**
 * How much an old generation may grow past what a full collection left, in percent
 * (V8 lets a small heap grow three- or fourfold). Large strings (lines of megabytes) go
 * straight to the old generation, where they wait for a full collection; with three
 * heaps waiting at once (a --jobs run), that was most of the peak.
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * Old generations grow by HEAP_GROWING_PERCENT at most. Set it once the process's
 * workers run, or after a tool's modules are loaded: set before, any flag cost each
 * worker about 10 ms (V8 checks its flags against node's compiled code, and compiled it
 * again). On 3,000 store files, --jobs 2, medians of 5, with keepYoungSize for
 * tx-stats: tx-stats 183 to 135 MB (1.08x the time), tx-common 173 to 141 MB (1.03x).
 */
export function sizeHeaps(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * Keep the main thread's young generation at its size where it keeps what it is given
 * (tx-stats' counters from its workers: it grew to 32 MB there). V8 puts this growth
 * factor back to 2 whenever it sets up a heap (a worker's, or the thread a worker's
 * module hooks run on, which may come later: the young generation may then grow once,
 * to 8 MB under the test runner's hooks), so a --jobs run says it again as each file ends.
 */
export function keepYoungSize(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
