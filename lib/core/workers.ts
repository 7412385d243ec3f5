// Many files on all cores: each file is run through the tool in a worker thread, as if
// it were the only file named, and the outputs are written in the order the files were
// named. A worker may run ahead of the file being written by a few batches only (it waits
// for them to be taken), so memory stays flat however large the files are.
import { Worker } from 'node:worker_threads';
import type { ParsedArgs } from 'minimist';
import type { FilePart } from './file-parts.js';
import { keepYoungSize, sizeHeaps } from './heap-flags.js';
import type { OnceNotes } from './once-notes.js';
import type { Output } from './output.js';

/**
 * Each worker's young generation, in MB, unless the tool says otherwise. V8's default
 * (tens of MB per isolate) is most of what a worker adds to the peak RSS (on a store of
 * 1,000 files, --jobs 2: 230 MB against 190 MB at 4 MB). At 4 MB, what a worker made of
 * a batch of lines outlived a collection and went to the old generation: on 16 files
 * of 12.5 MB, --jobs 2, tx-filter took 0.73 s and 1.28 s of CPU, at 8 MB (and 256 KB
 * reads, file-chunks.ts) 0.64 s and 1.15 s, peaks alike (126 and 122 MB).
 */
const YOUNG_MB = 8;

/** The batches of output (256 KB each) a worker may send before waiting for the first to be written. */
const CREDIT = 4;

/** The files a worker is given at a time: the one it runs and the next. */
const AHEAD = 2;

/** What the main thread sends a worker. */
export type ToWorker = { type: 'file'; index: number; file: string; part?: FilePart } | { type: 'ack'; batch?: ArrayBuffer } | { type: 'stop' };
/** What a worker says (sent in arrays: everything said since its last message). */
export type FromWorker =
  | { type: 'out'; index: number; chunk: Uint8Array }
  | { type: 'data'; index: number; value: unknown }
  | { type: 'err'; index: number; text: string }
  | { type: 'once'; index: number; first: string; others: string }
  | { type: 'done'; index: number; status: number };

/** Where the tool's definition is: the module that exports it, and its name. */
export interface ToolRef {
  url: string;
  name: string;
}

interface Held {
  /** Output, and values sent (Proc.send), in the order they came. */
  chunks: ({ chunk: Uint8Array; worker: Worker } | { data: unknown })[];
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
}

/**
 * Run `files` through the tool on `jobs` workers; stdout in input order through `out`,
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
  const workers: Worker[] = [];
  /** The files each worker has, in order, until their 'done'. */
  const running = new Map<Worker, number[]>();
  /**
   * Give the worker files up to AHEAD (the next while it runs one, so that it does not
   * wait a message for it; only while more files are left than workers, so that the last
   * ones do not queue behind each other), or stop it when it has none.
   */
  const give = (worker: Worker) => {
    const mine = running.get(worker)!;
    while (given < files.length && (mine.length === 0 || (mine.length < AHEAD && files.length - given > count))) {
      held.set(given, { chunks: [], errs: [], done: false });
      mine.push(given);
      worker.postMessage({ type: 'file', index: given, file: files[given], part: parts?.[given] } satisfies ToWorker);
      given++;
    }
    if (mine.length === 0) worker.postMessage({ type: 'stop' } satisfies ToWorker);
  };
  const fail = (err: Error) => {
    failure ??= err;
    poke();
  };
  const options = { ...args, _: [] };
  const count = Math.min(jobs, files.length);
  let online = 0;
  for (let i = 0; i < count; i++) {
    const worker = new Worker(new URL('./worker-main.js', import.meta.url), { workerData: { ref, args: options }, resourceLimits: { maxYoungGenerationSizeMb: youngMb } });
    workers.push(worker);
    running.set(worker, []);
    worker.once('online', () => {
      if (++online !== count) return;
      sizeHeaps();
      if (onData) keepYoungSize();
    });
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
    worker.on('error', fail);
    // A worker that ends while it holds a file would leave the run waiting for that file forever.
    worker.on('exit', (code) => {
      const mine = running.get(worker)!;
      if (mine.length > 0) fail(new Error(`a worker stopped (exit code ${code}) before it finished ${files[mine[0]]}`));
    });
    give(worker);
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
        // Copied: the batch goes back to be filled again (a worker's batches are whole buffers of their own).
        if (chunk.byteOffset === 0) worker.postMessage({ type: 'ack', batch: chunk.buffer as ArrayBuffer } satisfies ToWorker, [chunk.buffer as ArrayBuffer]);
        else worker.postMessage({ type: 'ack' } satisfies ToWorker);
        await out.flushIfFull();
        continue;
      }
      if (h && h.done) {
        held.delete(next);
        next++;
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    for (const w of workers) void w.terminate();
  }
  return status;
}

/** The number of workers `--jobs` asks for (default: the cores of this machine), or an error message. */
export async function jobsWanted(value: unknown): Promise<number | string> {
  if (value === undefined) {
    const os = await import('node:os');
    return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  }
  const text = String(Array.isArray(value) ? value[value.length - 1] : value);
  if (!/^[1-9]\d*$/.test(text)) return `--jobs: not a positive whole number: ${text}`;
  return Number(text);
}

export { CREDIT };
