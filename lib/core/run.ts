// run(): what every bin shares. Options, --help, --version, error messages of the
// form `tx-NAME: FILE:LINE: message`, exit status, inputs, and the quiet EPIPE stop.
import { createRequire } from 'node:module';
import type Minimist from 'minimist';
import { execute } from './execute.js';
import { inputFiles } from './input/input-files.js';
import { OnceNotes } from './once-notes.js';
import { BrokenPipe, Output, OutputFailed } from './output/output.js';
import { stdoutTarget } from './output/stdout.js';
import type { Proc, Tool } from './tool.js';

// minimist and version.cjs are CommonJS: required, they load in about 1.5 ms; imported,
// node first scans their source for named exports, some 6 ms more on every start.
const require = createRequire(import.meta.url);
const minimist: typeof Minimist = require('minimist');
const { version }: typeof import('./version.cjs') = require('./version.cjs');

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
    const { jobsWanted, runOnWorkers } = await import('./parallel/workers.js');
    const jobs = await jobsWanted(args.jobs);
    if (typeof jobs === 'string') {
      say(`${jobs} (see ${tool.name} --help)`);
      return 2;
    }
    const parts = cuttable && jobs > 1 ? (await import('./input/file-parts.js')).fileParts(files[0]) : null;
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
    const { jobsWanted } = await import('./parallel/workers.js');
    const jobs = await jobsWanted(args.jobs);
    if (typeof jobs === 'string') {
      say(`${jobs} (see ${tool.name} --help)`);
      return 2;
    }
  }
  return execute(tool, proc, args);
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

