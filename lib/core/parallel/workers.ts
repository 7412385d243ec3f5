// Many files on all cores: each file is run through the tool on a worker, as if it were
// the only file named, and the outputs are written in the order the files were named.
// The workers are the main thread itself and as many worker threads as --jobs asks for
// beyond it: the main thread starts its first file at once, where a worker thread takes
// 60-80 ms to start (node's thread, then the tool's modules again), and its messages
// are the objects themselves, not copies (local-channel.ts). A worker may run ahead of
// the file being written by 1 MB of output and 64 files only (it waits for them to be
// taken), so memory stays flat however large the files are.
import { statSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ParsedArgs } from 'minimist';
import type { FilePart } from '../input/file-parts.js';
import { keepYoungSize, sizeHeaps } from './heap-flags.js';
import type { OnceNotes } from '../once-notes.js';
import type { Output } from '../output/output.js';
import { LocalPort } from './local-channel.js';
import { serveFiles } from './serve-files.js';
import { shouldTierLate, tierLate } from './tiering.js';
import type { FromWorker, ToolRef, ToWorker } from './messages.js';

/**
 * Each worker's young generation, in MB, unless the tool says otherwise. V8's default
 * (tens of MB per isolate) is most of what a worker adds to the peak RSS (on a store of
 * 1,000 files, --jobs 2: 230 MB against 190 MB at 4 MB). At 4 MB, what a worker made of
 * a batch of lines outlived a collection and went to the old generation: on 16 files
 * of 12.5 MB, --jobs 2, tx-filter took 0.73 s and 1.28 s of CPU, at 8 MB (and 256 KB
 * reads, file-chunks.ts) 0.64 s and 1.15 s, peaks alike (126 and 122 MB).
 */
const YOUNG_MB = 8;

/**
 * The bytes of files a worker is given beyond the one it runs (always one file at least,
 * so that it does not wait a message for its next). The main thread answers a worker's
 * 'done' between its own files, so a worker of small files must have that long's worth
 * queued: with one file ahead, on 2,500 store files of 84 KB, the worker thread waited
 * for its next file 1,056 times, 560 ms in all.
 */
const AHEAD_BYTES = 1024 * 1024;
/**
 * The files given at most beyond the first not yet written. A worker's credit counts the
 * bytes of its output, so a worker whose files give little could otherwise run on through
 * the whole store, its messages held, while an earlier file is still running.
 */
const WINDOW = 64;
/** What a file counts for at least, ahead of a worker (a FIFO says it has 0 bytes). */
const MIN_FILE_BYTES = 64 * 1024;

/** A worker of a run: a worker thread, or the main thread through a channel of its own. */
type Runner = Worker | LocalPort;

interface Held {
  /** Output, and values sent (Proc.send), in the order they came. */
  chunks: ({ chunk: Uint8Array; worker: Runner } | { data: unknown })[];
  /** Messages for stderr (and notes said once per run), held like stdout so they come in file order as with one thread. */
  errs: (string | { first: string; others: string })[];
  done: boolean;
}

/** What else runOnWorkers may be given. */
export interface WorkerOptions {
  /** The parts of one file (files[i] is then that file, read from parts[i]). */
  parts?: FilePart[];
  /** Where the values a worker sends (Proc.send) go, in input order. */
  onData?: (value: unknown) => void;
  /** Where the notes said once per run (Context.noteOnce) go, in input order (without it, each is said). */
  notes?: Pick<OnceNotes, 'note'>;
  /** Each worker's young generation in MB, where the default (YOUNG_MB) does not suit the tool. */
  youngMb?: number;
  /** Tier as usual even when the run takes every core (tiering.ts): for a tool whose own code is most of its time. */
  usualTiering?: boolean;
}

/**
 * Run `files` through the tool on `jobs` workers (the main thread and worker threads); stdout in input order through `out`,
 * stderr as it comes, values a worker sends (Proc.send) to `onData` in input order too.
 * Resolves to the worst exit status of the files.
 */
export async function runOnWorkers(ref: ToolRef, args: ParsedArgs, files: string[], jobs: number, out: Output, stderr: (text: string) => void, more: WorkerOptions = {}): Promise<number> {
  const { parts, onData, notes, youngMb = YOUNG_MB } = more;
  const held = new Map<number, Held>();
  // The parts of one file each say its notes (`…: these are records already`); the file says them once.
  // (Warnings name their line, so no two are alike; the set is bounded all the same.)
  const said = new Set<string>();
  /** False for a message a part of the same file said already. */
  const fresh = (text: string) => {
    if (!parts) return true;
    if (said.has(text)) return false;
    if (said.size < 256) said.add(text);
    return true;
  };
  const say = (text: string) => {
    if (fresh(text)) stderr(text);
  };
  const release = (entry: string | { first: string; others: string }) => {
    if (typeof entry === 'string') say(entry);
    else if (!fresh(entry.first)) return;
    else if (notes) notes.note(entry.first, entry.others);
    else stderr(`${ref.name}: ${entry.first}\n`);
  };
  let next = 0;
  let given = 0;
  let status = 0;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const workers: Runner[] = [];
  /** The files each worker has, in order, until their 'done'. */
  const running = new Map<Runner, number[]>();
  /** Workers with no file, waiting for the output to catch up (WINDOW). */
  const idle = new Set<Runner>();
  /** The bytes of each file given (its part's, for a part). */
  const sizes: number[] = [];
  const sizeOf = (i: number): number => {
    const part = parts?.[i];
    const size = part ? part.end - part.start : (statSync(files[i], { throwIfNoEntry: false })?.size ?? 0);
    return Math.max(MIN_FILE_BYTES, size);
  };
  /** The bytes a worker has been given beyond the file it runs. */
  const ahead = (mine: number[]): number => {
    let bytes = 0;
    for (let k = 1; k < mine.length; k++) bytes += sizes[mine[k]];
    return bytes;
  };
  /**
   * Give the worker files up to AHEAD_BYTES beyond the one it runs (only while more files
   * are left than workers, so that the last ones do not queue behind each other), or
   * stop it when it has none.
   */
  const give = (worker: Runner) => {
    const mine = running.get(worker)!;
    while (given < files.length && given < next + WINDOW && (mine.length === 0 || (ahead(mine) < AHEAD_BYTES && files.length - given > count))) {
      held.set(given, { chunks: [], errs: [], done: false });
      sizes[given] = sizeOf(given);
      mine.push(given);
      worker.postMessage({ type: 'file', index: given, file: files[given], part: parts?.[given] } satisfies ToWorker);
      given++;
    }
    if (mine.length > 0) return;
    // Nothing to run until the output catches up, or nothing left.
    if (given < files.length) idle.add(worker);
    else worker.postMessage({ type: 'stop' } satisfies ToWorker);
  };
  const fail = (err: Error) => {
    failure ??= err;
    poke();
  };
  const options = { ...args, _: [] };
  const count = Math.min(jobs, files.length);
  // Set before any thread starts, so that every isolate of the run tiers alike. (Any flag
  // set then costs each thread node's compiled code, 15-20 ms of CPU on two small files;
  // set once the threads are online, as sizeHeaps is, the main thread's first files
  // tiered as usual, and 16 files took 0.49 s against 0.47 s, 2,500 store files 1.07
  // against 1.03 s: 9 rounds.)
  if (!more.usualTiering && shouldTierLate(count, cores(), process.execArgv)) tierLate();
  // A tool that asks for a young generation of its own runs every file on worker threads:
  // the main thread's is V8's usual one, set as the process starts (tx-common's grew to
  // 32 MB there, and a run of 2,500 store files peaked at 155-165 MB against 133-143).
  const here = more.youngMb === undefined;
  let online = 0;
  let allOnline = () => {};
  const threadsOnline = new Promise<void>((resolve) => (allOnline = resolve));
  const isOnline = () => {
    if (++online !== count) return;
    sizeHeaps();
    if (onData) keepYoungSize();
    allOnline();
  };
  for (let i = 0; i < count; i++) {
    let worker: Runner;
    if (i === 0 && here) {
      // The main thread's share, first: it takes the first files while the threads start.
      // Where it keeps what the threads send (onData), its young generation is kept at the
      // size it has (keepYoungSize) once they are set up (each sets V8's growth factor back
      // as it does): its files wait until then, or the young generation grew to 32 MB in
      // its first file (tx-stats on 16 files of 12.5 MB, --jobs 2: peaks of 148-160 MB
      // against 120-130 MB).
      const [port, theirs] = LocalPort.pair();
      serveFiles(theirs, { ref, args: options }, true, onData ? threadsOnline : undefined);
      worker = port;
    } else {
      const thread = new Worker(new URL('./worker-main.js', import.meta.url), { workerData: { ref, args: options }, resourceLimits: { maxYoungGenerationSizeMb: youngMb } });
      thread.once('online', isOnline);
      thread.on('error', fail);
      // A worker that ends while it holds a file would leave the run waiting for that file forever.
      thread.on('exit', (code) => {
        const mine = running.get(thread)!;
        if (mine.length > 0) fail(new Error(`a worker stopped (exit code ${code}) before it finished ${files[mine[0]]}`));
      });
      worker = thread;
    }
    workers.push(worker);
    running.set(worker, []);
    const hear = (m: FromWorker) => {
      const h = held.get(m.index);
      // Only a file given and not yet written can hear from its worker; anything else is a broken promise, not output to drop.
      if (!h || h.done) return fail(new Error(`a worker sent ${m.type} for file ${m.index + 1} after its end`));
      if (m.type === 'out') h.chunks.push({ chunk: m.chunk, worker });
      else if (m.type === 'data') h.chunks.push({ data: m.value });
      else if (m.type === 'err' || m.type === 'once') {
        const entry = m.type === 'err' ? m.text : { first: m.first, others: m.others };
        if (m.index === next) release(entry);
        else h.errs.push(entry);
      } else {
        h.done = true;
        if (onData) keepYoungSize();
        running.get(worker)!.shift();
        status = Math.max(status, m.status);
        give(worker);
      }
    };
    worker.on('message', (ms: FromWorker[]) => {
      for (const m of ms) hear(m);
      poke();
    });
    give(worker);
    if (worker instanceof LocalPort) isOnline();
  }
  try {
    while (next < files.length) {
      if (failure) throw failure;
      const h = held.get(next);
      if (h && h.errs.length > 0) for (const entry of h.errs.splice(0)) release(entry);
      if (h && h.chunks.length > 0) {
        const item = h.chunks.shift()!;
        if ('data' in item) {
          onData?.(item.data);
          continue;
        }
        const { chunk, worker } = item;
        out.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        // Copied: the buffer goes back, to be filled again (each chunk a worker sends is a whole buffer of its own).
        const buffer = chunk.buffer as ArrayBuffer;
        worker.postMessage({ type: 'ack', bytes: chunk.byteLength, batch: buffer } satisfies ToWorker, [buffer]);
        await out.flushIfFull();
        continue;
      }
      if (h && h.done) {
        held.delete(next);
        next++;
        if (idle.size > 0) {
          const waiting = [...idle];
          idle.clear();
          for (const worker of waiting) give(worker);
        }
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    for (const w of workers) void (w instanceof Worker ? w.terminate() : w.close());
  }
  return status;
}

/** The cores this process may run on. */
function cores(): number {
  return typeof availableParallelism === 'function' ? availableParallelism() : cpus().length;
}

/** The number of workers `--jobs` asks for (default: the cores of this machine), or an error message. */
export async function jobsWanted(value: unknown): Promise<number | string> {
  if (value === undefined) return cores();
  const text = String(Array.isArray(value) ? value[value.length - 1] : value);
  if (!/^[1-9]\d*$/.test(text)) return `--jobs: not a positive whole number: ${text}`;
  return Number(text);
}
