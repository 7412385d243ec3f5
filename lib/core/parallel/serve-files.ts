// One worker of runOnWorkers(), a worker thread or the main thread itself: runs the tool
// on one file at a time, as if that file were the only one named, and sends its stdout
// back in batches, waiting for the main thread to take them (credit) so that it never
// runs far ahead. It is given its next files before it needs them, and says what a file
// gives in as few messages as it can: each message from a worker thread wakes the main
// thread, which takes a busy core from a worker. The streams a tool is given are made once, for every file
// the worker runs (made per file, they cost 80 µs a file).
import { Readable, Writable } from 'node:stream';
import type { FilePart } from '../input/file-parts.js';
import { setAfterChunk } from '../input/lines.js';
import { BrokenPipe } from '../output/output.js';
import { execute } from '../execute.js';
import { type Proc, type Tool } from '../tool.js';
import type { FromWorker, ToolRef, ToWorker } from './messages.js';

/** What a worker is given to start: the tool, and the options of the run (its files come as messages). */
export interface WorkerStart {
  ref: ToolRef;
  args: Record<string, unknown> & { _: string[] };
}

/** The bytes of output a worker may have sent and not yet seen written (four batches) before it waits. */
const CREDIT = 1024 * 1024;
/** Full batches kept to fill again. */
const SPARE = 4;

/** The end of a channel a worker hears its files on and answers on: a MessagePort, or a LocalPort on the main thread. */
export interface FilePort {
  postMessage(value: unknown, transfer?: ArrayBuffer[]): void;
  on(event: 'message', listener: (value: ToWorker) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  close(): void;
}

/** Messages held at most before they are sent: a file with many warnings and little output sends them as it goes. */
const OUTBOX = 64;

/**
 * Output goes to the main thread in batches of this size, a quarter of the messages of
 * one per 64 KB piece, at the cost of a copy into the batch (on 1,000 files, 200 MB,
 * --jobs 2: 3.0 s of CPU against 3.2 s, about as much memory).
 */
const BATCH = 256 * 1024;

async function findTool(ref: ToolRef): Promise<Tool> {
  const mod = (await import(ref.url)) as Record<string, unknown>;
  const tool = Object.values(mod).find((v): v is Tool => typeof v === 'object' && v !== null && (v as Tool).name === ref.name);
  if (!tool) throw new Error(`no tool ${ref.name} in ${ref.url}`);
  return tool;
}

/** How long a shared thread runs without letting its loop turn, at most (but for a chunk of input it is working through), in ms. */
const TURN_MS = 1;

/**
 * A turn of the event loop that passes through its poll for I/O (one setImmediate, called
 * from an I/O callback, comes back before the next poll).
 */
function loopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * Run the files `port` is sent, one after another, answering on it; once the port is
 * closed (the run is over, or failed), what a file still running writes ends it (as a
 * reader gone away ends a tool). `shared`: the thread has other work (the main thread
 * writes the output and answers the worker threads), which a file would hold up until
 * its end: the loop turns before a file and after each chunk of input a file reads
 * (lineBatches), at least TURN_MS after it last did. (Files come as messages, and a
 * file given runs within the callback of its message: without the turn, the main
 * thread ran the files it held one after another, while a worker thread had waited 30
 * to 50 ms for its next.) No file starts before `ready`.
 */
export function serveFiles(port: FilePort, { ref, args }: WorkerStart, shared = false, ready?: Promise<void>): void {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  /** The files given, the first one running. */
  const queue: { index: number; file: string; part?: FilePart }[] = [];
  /** What is said but not yet sent, and the batches it hands over. */
  let outbox: FromWorker[] = [];
  let handed: ArrayBuffer[] = [];
  let closed = false;
  /** When the loop last turned between files (shared). */
  let turned = 0;

  /** Say something to the main thread; sent with the next batch, at the end of the file, or when OUTBOX are held. */
  const say = (m: FromWorker, transfer?: ArrayBuffer): void => {
    outbox.push(m);
    if (transfer) handed.push(transfer);
    if (outbox.length >= OUTBOX) post();
  };

  /** Send everything said, in one message. */
  const post = (): void => {
    if (outbox.length === 0) return;
    port.postMessage(outbox, handed);
    outbox = [];
    handed = [];
  };

  // A shared thread lets its loop turn within a file too, after a chunk of its input, at
  // most every TURN_MS: between files only, a worker thread done with its files waited
  // for the main thread's file to end (near the end of a run, when files are no longer
  // given ahead: 17-36 ms of the last 100 ms, on 16 files of 12.5 MB).
  if (shared) setAfterChunk(() => (performance.now() - turned >= TURN_MS ? loopTurn().then(() => void (turned = performance.now())) : null));

  const toolReady = ready ? ready.then(() => findTool(ref)) : findTool(ref);
  // A tool that cannot be found is said for each file (runFile); not an unhandled rejection meanwhile.
  toolReady.catch(() => {});

  /** Full batches the main thread has copied and given back, to fill again. */
  const spare: Buffer[] = [];
  /** The file being run: what the tool writes is its output. */
  let current = -1;
  let batch: Buffer | null = null;
  let used = 0;

  /**
   * Hand over the batch gathered so far; a full one is sent at once, for the main thread
   * to write. A part of a batch (the end of a file's output) goes as a copy of its own
   * size, and the batch is filled again: the credit counts bytes, and a file that gives
   * a line must not hold a whole batch.
   */
  const sendBatch = (now: boolean): void => {
    if (batch === null || used === 0) return;
    let chunk: Uint8Array;
    if (used === BATCH) {
      chunk = batch;
      batch = null;
    } else {
      chunk = new Uint8Array(used);
      chunk.set(batch.subarray(0, used));
    }
    say({ type: 'out', index: current, chunk }, chunk.buffer as ArrayBuffer);
    if (now) post();
    inFlight += used;
    used = 0;
  };

  /** Copy bytes into batches, sending each as it fills (the credit is waited for after). */
  const copy = (chunk: Buffer): void => {
    if (closed) throw new BrokenPipe();
    let from = 0;
    while (from < chunk.length) {
      batch ??= spare.pop() ?? Buffer.allocUnsafe(BATCH);
      const n = Math.min(chunk.length - from, BATCH - used);
      chunk.copy(batch, used, from, from + n);
      used += n;
      from += n;
      if (used === BATCH) sendBatch(true);
    }
  };

  /** Null while the credit lasts; else a wait for the main thread to write a batch. */
  const room = (): Promise<void> | null => {
    if (closed) throw new BrokenPipe();
    if (inFlight < CREDIT) return null;
    // The main thread must have what it is to take.
    post();
    return new Promise<void>((resolve) => waiting.push(resolve));
  };

  /** Writes to stdout itself whose credit has not yet come, and who waits for them to be none. */
  let writing = 0;
  let written: (() => void) | null = null;

  // The tool's Output copies each piece it fills (and fills it again) and waits for the
  // credit once per batch of input; this stream is for anything written to stdout itself.
  const stdout = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _enc, cb) {
      // A chunk is copied whole (the tools write 64 KB at most), then waits for credit.
      try {
        copy(chunk);
        const wait = room();
        if (!wait) return cb();
        writing++;
        void wait.then(() => {
          cb();
          if (--writing === 0) written?.();
        });
      } catch (err) {
        cb(err as Error);
      }
    },
  });
  const stderr = new Writable({
    write(chunk: Buffer, _enc, cb) {
      say({ type: 'err', index: current, text: chunk.toString('utf8') });
      cb();
    },
  });
  const proc: Proc = {
    argv: [],
    env: process.env,
    stdin: Readable.from([]),
    stdout,
    stderr,
    cwd: () => process.cwd(),
    worker: true,
    // A value comes after the output written before it, as with one thread.
    send: (value: unknown) => {
      sendBatch(false);
      say({ type: 'data', index: current, value });
    },
    noteOnce: (first: string, others: string) => say({ type: 'once', index: current, first, others }),
    copier: { copy, room },
  };

  const runFile = async (index: number, file: string, part?: FilePart): Promise<void> => {
    const tool = await toolReady;
    current = index;
    const status = await execute(tool, proc, { ...args, _: [file] } as never, part);
    // The tool is done, but a piece it wrote to stdout itself while the credit was spent
    // may still wait for it: 'done' must follow it, or the file ends early.
    if (writing > 0) await new Promise<void>((resolve) => (written = resolve));
    written = null;
    // The last batch, part full, goes with the file's 'done'.
    sendBatch(false);
    say({ type: 'done', index, status });
    post();
  };

  /** Run the files given, one after another. */
  const drain = async (): Promise<void> => {
    while (queue.length > 0 && !closed) {
      if (shared && performance.now() - turned >= TURN_MS) {
        await loopTurn();
        turned = performance.now();
      }
      const { index, file, part } = queue[0];
      await runFile(index, file, part).catch((err) => {
        // What the file wrote before it failed goes out first, as on one thread.
        sendBatch(false);
        say({ type: 'err', index, text: `${ref.name}: internal error: ${err && err.message ? err.message : String(err)}\n` });
        say({ type: 'done', index, status: 1 });
        post();
      });
      queue.shift();
    }
  };

  port.on('message', (m: ToWorker) => {
    if (m.type === 'ack') {
      if (m.batch && m.batch.byteLength === BATCH && spare.length < SPARE) spare.push(Buffer.from(m.batch));
      inFlight -= m.bytes;
      while (inFlight < CREDIT && waiting.length > 0) waiting.shift()!();
    } else if (m.type === 'file') {
      queue.push({ index: m.index, file: m.file, part: m.part });
      if (queue.length === 1) void drain();
    } else port.close();
  });
  // Closed by either end: a file still waiting for credit is let go, to end at its next write.
  port.on('close', () => {
    closed = true;
    if (shared) setAfterChunk(null);
    for (const resolve of waiting.splice(0)) resolve();
  });
}
