// When V8 compiles a run's hot functions with its optimizing compiler. Each thread of a
// --jobs run is an isolate of its own that compiles the same functions again, and the
// compiler runs beside the threads: with a thread on every core, it takes its time from
// them. For a tool whose lines go mostly to native code (JSON.parse, Buffer searches),
// that is more than the optimized code gives back in a short run. So while a run keeps
// every core busy, V8 waits LATE_FACTOR times longer before it considers a function,
// for LATE_MS; then it tiers as usual, so a long run gets its optimized code all the
// same. Measured on 2 cores, --jobs 2, interleaved medians (docs/many-files.md, "Tiering late").
import { setFlagsFromString } from 'node:v8';

/**
 * V8's interrupt budget (bytecode run between checks for a function to optimize), as
 * `node --v8-options` gives it in node 20 (V8 11.3); the budget set back after the late one.
 */
const USUAL_BUDGET = 66 * 1024;
/**
 * How many times the usual budget a run on every core waits. At 16, 32 and 64 times the
 * same (16 files, tx-filter --human-prompts: 0.57-0.59 s against 0.76 s); with no
 * optimizing compiler at all (--no-opt) tx-common took 1.25 times as long.
 */
const LATE_FACTOR = 16;
/**
 * How long the late budget lasts, in ms. Kept for a whole run of 10,000 store files
 * (2 GB), the late budget made tx-filter 5% slower; set back after a second, as fast as
 * the usual one.
 */
const LATE_MS = 1000;

/** True when a run of `threads` threads should tier late: they take every core, and node was not given a budget of its own. */
export function shouldTierLate(threads: number, cores: number, execArgv: readonly string[]): boolean {
  return threads > 1 && threads >= cores && !execArgv.some((a) => a.startsWith('--interrupt-budget'));
}

/** The late budget is set (this process's: V8's flags are every thread's). */
let late = false;

/** Make V8 wait LATE_FACTOR times longer before it optimizes a function, for `ms`; the timer does not hold the process. */
export function tierLate(ms = LATE_MS): void {
  setFlagsFromString(`--interrupt-budget=${USUAL_BUDGET * LATE_FACTOR}`);
  late = true;
  setTimeout(() => {
    setFlagsFromString(`--interrupt-budget=${USUAL_BUDGET}`);
    late = false;
  }, ms).unref();
}

/** True while the late budget lasts. */
export function isTieringLate(): boolean {
  return late;
}
