// What a tool is and what it is given: the Tool a bin runs, the Context its main
// function gets, the parts of `process` it uses, and the errors that set its exit status.
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import type Minimist from 'minimist';
import type { FilePart } from './input/file-parts.js';
import type { Copier, Output } from './output/output.js';

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

