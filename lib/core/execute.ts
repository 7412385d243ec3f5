// Running a tool whose options are parsed: its Context (inputs opened in order, notes,
// warnings counted for --strict), its main, and the exit status its errors give.
import type { Readable } from 'node:stream';
import type Minimist from 'minimist';
import type { FilePart } from './input/file-parts.js';
import { namedFileStream, stdinStream } from './input/input-streams.js';
import { OnceNotes } from './once-notes.js';
import { BrokenPipe, Output, OutputFailed } from './output/output.js';
import { stdoutTarget } from './output/stdout.js';
import { location, ToolError, UsageError, type Context, type Input, type Proc, type Tool } from './tool.js';

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

