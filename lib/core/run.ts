// run(): what every bin shares. Options, --help, --version, error messages of the
// form `tx-NAME: FILE:LINE: message`, exit status, inputs, and the quiet EPIPE stop.
import { closeSync, createReadStream, fstatSync, open, openSync, read } from 'node:fs';
import { createRequire } from 'node:module';
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import type Minimist from 'minimist';
import type { FilePart } from './file-parts.js';
import { CLOSE_NOW } from './file-chunks.js';
import { inputFiles } from './input-files.js';
import { OnceNotes } from './once-notes.js';
import { blockingReadStream } from './pipe-input.js';
import { BrokenPipe, Output, OutputFailed, type Copier, type Descriptor } from './output.js';

// minimist and start.cjs are CommonJS: required, they load in about 1.5 ms; imported,
// node first scans their source for named exports, some 6 ms more on every start.
const require = createRequire(import.meta.url);
const minimist: typeof Minimist = require('minimist');
const { version }: typeof import('./start.cjs') = require('./start.cjs');

/** The parts of `process` a tool uses, so a test can pass its own. */
export interface Proc {
  argv: string[];
  env: NodeJS.ProcessEnv;
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
  cwd(): string;
  /** On a worker of runOnWorkers() (a worker thread, or the main thread running its share of the files): true. */
  worker?: boolean;
  /** On a worker of runOnWorkers(): hands a value to the main thread, in file order with the output (tx-stats' counters of its file). */
  send?(value: unknown): void;
  /** On a worker of runOnWorkers(): hands a note said once per run (Context.noteOnce) to the main thread. */
  noteOnce?(first: string, others: string): void;
  /** On a worker of runOnWorkers(): where the tool's Output copies its pieces (stdout stays for anything written to it directly). */
  copier?: Copier;
}

/** One input of a tool: a named file, or stdin (src undefined). */
export interface Input {
  src?: string;
  stream: Readable;
  /** When a worker reads one part of the file (see file-parts.ts): which part; the stream holds only its bytes. */
  part?: FilePart;
}

/** What a tool's main function gets. */
export interface Context {
  name: string;
  args: Minimist.ParsedArgs;
  /** Positional arguments. */
  files: string[];
  proc: Proc;
  out: Output;
  /** Report a problem with the data (not fatal); counts toward --strict. */
  warn(where: { src?: string; n?: number } | null, message: string): void;
  /** Print a note on stderr that is not an error. */
  note(message: string): void;
  /**
   * A note about a whole input, said once per run: `first` for the first input it is
   * about; the others with the same `others` are counted, and said at the end as
   * `N more inputs <others>`.
   */
  noteOnce(first: string, others: string): void;
  /** The inputs named on the command line (`-` or none is stdin), opened lazily in order. */
  inputs(): AsyncGenerator<Input>;
}

/** A tool: its name, help text, minimist options and main function. */
export interface Tool {
  name: string;
  help: string;
  options: { string?: string[]; boolean?: string[]; alias?: Record<string, string | string[]>; default?: Record<string, unknown> };
  /** For a flag that takes no value, the form to use instead of `--flag=VALUE` (e.g. `--tool-calls --name TOOL`). */
  valueHints?: Record<string, string>;
  /** The tool's work; a number it resolves to is the exit status (tx-grep's 1 for no match), else the usual rules apply. */
  main(ctx: Context): Promise<void | number>;
  /**
   * Files are independent for this tool (its output for several files is its outputs
   * for each, one after another): `--jobs N` then runs the files on this thread and N-1
   * worker threads (workers.ts).
   * `url` is the module that exports the tool; `when` says which options allow it.
   * With `parts`, each line is independent too: one large file is cut at line
   * boundaries and its parts read on workers (the tool reads `Input.part`). `youngMb`:
   * each worker's young generation in MB, where the usual one (workers.ts) does not suit the tool.
   */
  parallel?: { url: string; when?(args: Minimist.ParsedArgs): boolean; parts?: boolean; youngMb?: number };
  /** A directory named stands for its `*.jsonl` files in name order (else opening it says it is not a regular file); a function says with which options. */
  directories?: boolean | ((args: Minimist.ParsedArgs) => boolean);
}

/** An error in how the tool was called: exit status 2. */
export class UsageError extends Error {}

/** A problem that stops the tool: printed as `tx-NAME: message`, exit status 1. */
export class ToolError extends Error {}


/** Where a message is about: `FILE:LINE`, `stdin:LINE`, or `FILE`. */
export function location(where: { src?: string; n?: number } | null): string {
  if (!where) return '';
  const file = where.src ?? 'stdin';
  return where.n === undefined ? `${file}: ` : `${file}:${where.n}: `;
}

/** Whether stdin is a terminal, asked without making node's stdin stream (which makes a pipe non-blocking). */
export function stdinIsTerminal(proc: Proc): boolean {
  return proc === (process as unknown) ? isatty(0) : proc.stdin.isTTY === true;
}

/** Whether stdout is a terminal, asked without making node's stdout stream (which makes a pipe non-blocking). */
export function stdoutIsTerminal(proc: Proc): boolean {
  return proc === (process as unknown) ? isatty(1) : (proc.stdout as { isTTY?: boolean }).isTTY === true;
}

/** Run a tool against a process; resolves to the exit status. */
export async function run(tool: Tool, proc: Proc): Promise<number> {
  const say = (text: string) => proc.stderr.write(`${tool.name}: ${text}\n`);
  let usageProblem: string | null = null;
  const known = new Set<string>(['help', 'version', 'h', 'strict']);
  if (tool.parallel) known.add('jobs');
  for (const key of [...(tool.options.string ?? []), ...(tool.options.boolean ?? [])]) known.add(key);
  for (const [key, value] of Object.entries(tool.options.alias ?? {})) {
    known.add(key);
    for (const v of ([] as string[]).concat(value)) known.add(v);
  }
  const booleans = new Set<string>(['help', 'version', 'strict', 'h', ...(tool.options.boolean ?? [])]);
  for (const [key, value] of Object.entries(tool.options.alias ?? {})) {
    const names = [key, ...([] as string[]).concat(value)];
    if (names.some((n) => booleans.has(n))) for (const n of names) booleans.add(n);
  }
  for (const arg of proc.argv.slice(2)) {
    if (arg === '--') break;
    // minimist reads `--flag=VALUE` of a flag that takes no value as the flag alone, silently.
    const m = /^--(?:no-)?([^=]+)=(.*)$/s.exec(arg);
    if (m && booleans.has(m[1]) && usageProblem === null) {
      const hint = tool.valueHints?.[m[1]];
      usageProblem = `--${m[1]} takes no value (${arg})${hint ? `: write ${hint}` : ''}`;
    }
  }
  const args = minimist(proc.argv.slice(2), {
    // '_': positional arguments stay as typed (minimist makes `007` the number 7 and `1e3` 1000).
    string: ['_', ...(tool.options.string ?? []), ...(tool.parallel ? ['jobs'] : [])],
    boolean: ['help', 'version', 'strict', ...(tool.options.boolean ?? [])],
    alias: { h: 'help', ...tool.options.alias },
    default: tool.options.default,
    unknown: (arg) => {
      if (!arg.startsWith('-') || arg === '-') return true;
      const key = arg.replace(/^--?(no-)?/, '').split('=')[0];
      if (!known.has(key) && usageProblem === null) usageProblem = `unknown option ${arg}`;
      return known.has(key);
    },
  });
  if (args.help) return answer(proc, tool.help.endsWith('\n') ? tool.help : tool.help + '\n', say);
  if (args.version) return answer(proc, `${tool.name} ${version()}\n`, say);
  if (usageProblem) {
    say(`${usageProblem} (see ${tool.name} --help)`);
    return 2;
  }
  const given = args._.map(String);
  const directories = typeof tool.directories === 'function' ? tool.directories(args) : tool.directories === true;
  if (!directories) return runFiles(tool, proc, args, given);
  const input = inputFiles(given);
  for (const problem of input.problems) say(problem);
  for (const dir of input.empty) say(`${dir}: no *.jsonl files in it`);
  const unusable = input.problems.length > 0 ? 1 : 0;
  // Names were given and none can be read: stdin is not what was asked for.
  if (given.length > 0 && input.files.length === 0) return unusable;
  args._ = input.files;
  return Math.max(unusable, await runFiles(tool, proc, args, input.files));
}

/** Run a tool on its files: on workers when it can and several are named, else in this thread. */
async function runFiles(tool: Tool, proc: Proc, args: Minimist.ParsedArgs, files: string[]): Promise<number> {
  const say = (text: string) => proc.stderr.write(`${tool.name}: ${text}\n`);
  // One file is cut only when --jobs asks for workers: cutting costs about twice the CPU
  // (each worker compiles the tool's code and collects its garbage on its own), which
  // pays on idle cores, not by default.
  const cuttable = tool.parallel?.parts === true && files.length === 1 && files[0] !== '-' && args.jobs !== undefined;
  if (tool.parallel && (files.length > 1 || cuttable) && !files.includes('-') && (tool.parallel.when?.(args) ?? true)) {
    const { jobsWanted, runOnWorkers } = await import('./workers.js');
    const jobs = await jobsWanted(args.jobs);
    if (typeof jobs === 'string') {
      say(`${jobs} (see ${tool.name} --help)`);
      return 2;
    }
    const parts = cuttable && jobs > 1 ? (await import('./file-parts.js')).fileParts(files[0]) : null;
    if (jobs > 1 && (files.length > 1 || parts)) {
      const out = new Output(stdoutTarget(proc));
      const ref = { url: tool.parallel.url, name: tool.name };
      const notes = new OnceNotes(say);
      try {
        const status = await runOnWorkers(ref, args, parts ? parts.map(() => files[0]) : files, jobs, out, (text) => proc.stderr.write(text), { parts: parts ?? undefined, notes, youngMb: tool.parallel.youngMb });
        await out.end();
        notes.end();
        return status;
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (err instanceof BrokenPipe || e?.code === 'EPIPE' || e?.code === 'ERR_STREAM_DESTROYED') return 0;
        // What the files before the failure gave is written, as a tool on one thread writes what it had.
        await out.end().catch(() => {});
        notes.end();
        say(err instanceof OutputFailed ? err.message : `internal error: ${e && e.message ? e.message : String(err)}`);
        return 1;
      }
    }
  } else if (tool.parallel && args.jobs !== undefined) {
    const { jobsWanted } = await import('./workers.js');
    const jobs = await jobsWanted(args.jobs);
    if (typeof jobs === 'string') {
      say(`${jobs} (see ${tool.name} --help)`);
      return 2;
    }
  }
  return execute(tool, proc, args);
}

/** Run a tool whose options are parsed: its main, then the exit status. */
export async function execute(tool: Tool, proc: Proc, args: Minimist.ParsedArgs, part?: FilePart): Promise<number> {
  const ctx = new RunContext(tool.name, args, proc, new Output(stdoutTarget(proc)), part);
  const { out, once } = ctx;
  let status: void | number;
  try {
    status = await tool.main(ctx);
    await out.end();
    once.end();
  } catch (err) {
    if (err instanceof BrokenPipe) return 0;
    if (err instanceof UsageError) {
      ctx.say(`${err.message} (see ${tool.name} --help)`);
      return 2;
    }
    if (err instanceof ToolError || err instanceof OutputFailed) {
      await out.end().catch(() => {});
      once.end();
      ctx.say(err.message);
      return 1;
    }
    const e = err as NodeJS.ErrnoException;
    if (e && (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED')) return 0;
    await out.end().catch(() => {});
    once.end();
    ctx.say(`internal error: ${e && e.message ? e.message : String(err)}`);
    return 1;
  }
  if (typeof status === 'number') return status;
  if (ctx.unreadable > 0) return 1;
  if (args.strict && ctx.problems > 0) return 1;
  return 0;
}

/**
 * The Context of one execute. A class, not an object of closures made per execute: on a
 * worker (an execute per file) a new function each time undid the optimized code that
 * calls it, and a generator made per execute gave its objects a map of their own, which
 * undid every loop over them (readRecordBatches was compiled three or four times a worker,
 * now once or twice; tx-filter --jobs 2 on 16 files took 15% longer).
 */
class RunContext implements Context {
  readonly files: string[];
  readonly once: OnceNotes;
  /** Problems with the data (warn), for --strict. */
  problems = 0;
  /** Named inputs that could not be opened. */
  unreadable = 0;

  constructor(
    readonly name: string,
    readonly args: Minimist.ParsedArgs,
    readonly proc: Proc,
    readonly out: Output,
    private readonly part: FilePart | undefined,
  ) {
    this.files = args._.map(String);
    this.once = new OnceNotes((text) => this.say(text));
  }

  say(text: string): void {
    this.proc.stderr.write(`${this.name}: ${text}\n`);
  }

  warn(where: { src?: string; n?: number } | null, message: string): void {
    this.problems++;
    this.say(`${location(where)}${message}`);
  }

  note(message: string): void {
    this.say(message);
  }

  noteOnce(first: string, others: string): void {
    if (this.proc.noteOnce) this.proc.noteOnce(first, others);
    else this.once.note(first, others);
  }

  inputs(): AsyncGenerator<Input> {
    return openInputs(this.files, this.proc, this.part, this);
  }

  cannotRead(name: string, err: NodeJS.ErrnoException): void {
    this.unreadable++;
    this.say(`${name}: cannot read: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
}

/** The inputs named (none: stdin), opened in order as they are asked for; one that cannot be opened is said and counted. */
async function* openInputs(files: string[], proc: Proc, part: FilePart | undefined, ctx: RunContext): AsyncGenerator<Input> {
  const names = files.length === 0 ? ['-'] : files;
  for (const name of names) {
    if (name === '-') {
      yield { stream: stdinStream(proc) };
      continue;
    }
    // Named files are read as given (a FIFO from `<(zcat f.gz)` too), but a directory
    // opens like a file and fails only at its first read: it is refused here, by name.
    let stream: Readable;
    try {
      stream = namedFileStream(name, part);
    } catch (err) {
      ctx.cannotRead(name, err as NodeJS.ErrnoException);
      continue;
    }
    yield part ? { src: name, stream, part } : { src: name, stream };
  }
}

/** The body of every bin: run the tool on the real process and exit with its status. */
export function main(tool: Tool): void {
  run(tool, process as unknown as Proc).then(
    (status) => {
      process.exitCode = status;
    },
    (err) => {
      process.stderr.write(`${tool.name}: internal error: ${err && err.message ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}

/** Write the answer to --help or --version: status 0, or 1 with a message when it cannot be written (a closed pipe is 0). */
async function answer(proc: Proc, text: string, say: (message: string) => void): Promise<number> {
  const out = new Output(stdoutTarget(proc));
  try {
    await out.write(text);
    await out.end();
    return 0;
  } catch (err) {
    if (err instanceof BrokenPipe) return 0;
    if (err instanceof OutputFailed) {
      say(err.message);
      return 1;
    }
    throw err;
  }
}

/** A stream with a listener for 'error': a write to a closed pipe can surface as one after the tool is done. */
function quiet(stream: Writable): Writable {
  if (stream.listenerCount('error') === 0) stream.on('error', () => {});
  return stream;
}

/**
 * Where a tool's output goes: the process's descriptor 1, written with blocking writes,
 * unless it is a terminal (see Descriptor in output.ts): a pipe or a socket so that the
 * stages of a pipeline overlap, a file or /dev/null so that each piece is filled again
 * once written (node writes those synchronously too); a pipe is made larger at the first
 * full piece (pipe-size.ts). The stream is not made until it is needed, as making it
 * makes a pipe non-blocking. On a worker, the worker's Copier.
 */
function stdoutTarget(proc: Proc): Writable | Descriptor | Copier {
  if (proc !== (process as unknown)) return proc.copier ?? proc.stdout;
  try {
    const stat = fstatSync(1);
    if (stat.isFIFO() || stat.isSocket() || stat.isFile() || (stat.isCharacterDevice() && !isatty(1))) return { fd: 1, stream: () => quiet(proc.stdout), pipe: stat.isFIFO() };
  } catch {
    // No descriptor 1 to look at: node's stream says what is wrong when written.
  }
  return quiet(proc.stdout);
}

/**
 * Bytes per read of a file. A line a tool holds (a record being converted, a line being
 * scanned) keeps its whole read buffer alive: with 1 MB reads tx-redact peaked at
 * 147-152 MB on the 50 MB corpus, tx-common at 143 MB and with two workers 172 MB; with
 * 256 KB reads at 101-109, 125 and 137 MB, no slower. tx-parse reads a file into a
 * buffer of its own (file-chunks.ts).
 */
const READ_SIZE = 256 * 1024;

/**
 * The stream of stdin. When the process's stdin is a regular file (`tx-parse < f`) it is
 * read in chunks of READ_SIZE, as a named file is, from where its offset stands: node's
 * own stdin stream reads a file 64 KB at a time, and each chunk costs a turn of the loop.
 * A pipe or a socket is read with blocking reads (pipe-input.ts), and a pipe made larger
 * once it shows much data passing (pipe-size.ts).
 */
function stdinStream(proc: Proc): Readable {
  if (proc !== (process as unknown)) return proc.stdin;
  try {
    const stat = fstatSync(0);
    if (stat.isFile()) return createReadStream('', { fd: 0, highWaterMark: READ_SIZE, autoClose: false });
    // Not made until it is needed: making node's stream makes the descriptor non-blocking.
    if (stat.isFIFO() || stat.isSocket()) return blockingReadStream(0, () => proc.stdin, stat.isFIFO());
  } catch {
    // No descriptor 0 to look at: node's stream says what is wrong when read.
  }
  return proc.stdin;
}

/**
 * A named file's stream, whose descriptor is closed at once, once: when the last chunk is
 * read (CLOSE_NOW, before the stream has even finished being made), or when the stream is
 * destroyed. A read stream closes it on the thread pool, and waking a pool thread for each
 * file of a --jobs run took a busy core from a worker: 0.12-0.17 ms a file there, against
 * 0.015 ms on one thread.
 */
function closingAtOnce(fd: number, options: { start?: number; end?: number }): Readable {
  let closed = false;
  const closeNow = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  const close = (_fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
    try {
      closeNow();
    } catch (err) {
      return done(err as NodeJS.ErrnoException);
    }
    done(null);
  };
  const stream = createReadStream('', { ...options, fd, highWaterMark: READ_SIZE, fs: { open, read, close } });
  return Object.assign(stream, { [CLOSE_NOW]: closeNow });
}

/** A read stream of a file named on the command line; throws, with a message to show, when it cannot be opened or is a directory. */
export function namedFileStream(name: string, part?: FilePart): Readable {
  const fd = openSync(name, 'r');
  if (fstatSync(fd).isDirectory()) {
    closeSync(fd);
    throw new Error('a directory, not a file');
  }
  // A part's end is exclusive, a read stream's inclusive.
  return closingAtOnce(fd, part ? { start: part.start, end: part.end - 1 } : {});
}
