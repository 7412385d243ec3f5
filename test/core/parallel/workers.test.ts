// --jobs: several files in worker threads give exactly what one thread gives, in file order.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import t from 'tap';
import { run } from '../../../lib/core/run.js';
import { prng, repo, runBin, runTool } from '../../helpers.js';
import { garbageTool, piecesOf, piecesTool, youngDefaultTool, youngTool } from './pieces-tool.js';

/**
 * Run tx-pieces on workers in this process, into a stdout that takes `delayMs` per write;
 * rejects after 30 s. `marks` holds each message of stderr with the bytes written to
 * stdout when it came.
 */
async function runPieces(specs: string[], delayMs: number): Promise<{ status: number; stdout: string; stderr: string; marks: [string, number][] }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const marks: [string, number][] = [];
  let written = 0;
  const stdout = new Writable({
    highWaterMark: 1,
    write(chunk, _enc, cb) {
      out.push(Buffer.from(chunk));
      written += chunk.length;
      setTimeout(cb, delayMs);
    },
  });
  const stderr = new Writable({
    write(chunk, _enc, cb) {
      err.push(Buffer.from(chunk));
      marks.push([chunk.toString('utf8'), written]);
      cb();
    },
  });
  let timer: NodeJS.Timeout | undefined;
  const status = await Promise.race([
    run(piecesTool, { argv: ['node', 'tx-pieces', '--jobs', '2', ...specs], env: process.env, stdin: Readable.from([]), stdout, stderr, cwd: () => process.cwd() }),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the run did not finish in 30 s')), 30_000))),
  ]).finally(() => clearTimeout(timer));
  return { status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), marks };
}

/** A small session file whose lines are numbered so that any reordering would show. */
function session(id: number, lines: number, random: () => number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const text = `file ${id} line ${i} ` + 'x'.repeat(Math.floor(random() * 3000));
    // Every 7th line a tool's output of up to 40 KB: tx-common carries the long ones as bytes.
    if (i % 7 === 6) out.push(JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${id}-${i}`, content: `out ${i} ` + 'y\n'.repeat(Math.floor(random() * 20000)) }] }, sessionId: `s${id}`, uuid: `r${id}-${i}` }));
    else if (i % 3 === 0) out.push(JSON.stringify({ type: 'user', message: { role: 'user', content: text }, sessionId: `s${id}`, uuid: `u${id}-${i}` }));
    else out.push(JSON.stringify({ type: 'assistant', message: { id: `m${id}-${i}`, role: 'assistant', model: 'x', content: [{ type: 'text', text }] }, sessionId: `s${id}`, uuid: `a${id}-${i}` }));
  }
  return out.join('\n') + '\n';
}

t.test('tx-parse, tx-filter and tx-common: --jobs 3 writes the same bytes as --jobs 1, files of very different sizes in order', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-jobs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const random = prng(13);
  const files: string[] = [];
  // Big files first, so later small ones finish early and must wait their turn.
  for (const [i, n] of [2000, 1, 700, 0, 30, 1500, 5].entries()) {
    const f = join(dir, `s${i}.jsonl`);
    writeFileSync(f, session(i, n, random));
    files.push(f);
  }
  const parsedFiles: string[] = [];
  for (const f of files) {
    const r = await runBin('tx-parse', [f]);
    const p = f.replace(/\.jsonl$/, '.rec');
    writeFileSync(p, r.stdout);
    parsedFiles.push(p);
  }
  const cases: [string, string[], string[]][] = [
    ['tx-parse', [], files],
    ['tx-filter', ['--human-prompts'], parsedFiles],
    ['tx-filter', ['--kind', 'assistant'], files],
    ['tx-common', [], parsedFiles],
    // Native lines: a worker reads each file into one buffer used again, 256 KB at a time.
    ['tx-common', [], files],
  ];
  for (const [tool, args, inputs] of cases) {
    const one = await runBin(tool, [...args, '--jobs', '1', ...inputs]);
    const three = await runBin(tool, [...args, '--jobs', '3', ...inputs]);
    t.equal(three.status, one.status, `${tool} ${args.join(' ')}: same status`);
    t.ok(one.stdout.length > 0, `${tool} ${args.join(' ')}: some output`);
    t.ok(three.stdout.equals(one.stdout), `${tool} ${args.join(' ')}: same bytes with workers`);
    t.equal(three.stderr, one.stderr, `${tool} ${args.join(' ')}: same messages, in file order`);
  }
});

t.test('--jobs: a bad value is a usage error; an unreadable file among several is reported and the others are written', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-jobs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const a = join(dir, 'a.jsonl');
  const b = join(dir, 'b.jsonl');
  writeFileSync(a, '{"type":"summary","summary":"a"}\n');
  writeFileSync(b, '{"type":"summary","summary":"b"}\n');
  const bad = await runBin('tx-parse', ['--jobs', '0', a, b]);
  t.equal(bad.status, 2);
  t.equal(bad.stderr, 'tx-parse: --jobs: not a positive whole number: 0 (see tx-parse --help)\n');
  const missing = await runBin('tx-parse', ['--jobs', '2', a, join(dir, 'none.jsonl'), b]);
  t.equal(missing.status, 1, 'exit 1 as without workers');
  t.match(missing.stderr, /none\.jsonl: cannot read: no such file/);
  t.same(missing.stdout.toString().trim().split('\n').map((l) => JSON.parse(l).line.summary), ['a', 'b']);
});

t.test('--jobs: a reader that goes away ends the run quietly (exit 0, nothing on stderr)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-jobs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const files: string[] = [];
  const random = prng(5);
  for (let i = 0; i < 4; i++) {
    const f = join(dir, `s${i}.jsonl`);
    writeFileSync(f, session(i, 3000, random));
    files.push(f);
  }
  const r = spawnSync('bash', ['-o', 'pipefail', '-c', `node "${repo('build', 'bin', 'tx-parse.js')}" --jobs 2 ${files.map((f) => `"${f}"`).join(' ')} | head -c 1000 > /dev/null`], { encoding: 'utf8' });
  t.equal(r.status, 0);
  t.equal(r.stderr, '');
});

t.test('a worker ahead of the output by more than its credit sends every piece before it says the file is done', async (t) => {
  // "a" is written slowly (64 KB pieces into a stdout taking 5 ms each) while the second
  // worker runs "b": a's worker sends 256 KB batches and waits for credit after 4. The rest
  // of "a", down to its last partial batch (sent when the stream ends), must reach the
  // output before "c", not after "b" was closed. (That 'done' waits for the stream's end
  // is proven by the 300-file runs below, whose last pieces are short.)
  const specs = ['a:40:65536', 'b:40:100', 'c:3:100', 'd:40:100', 'e:1:10', 'f:0:0'];
  const r = await runPieces(specs, 5);
  t.equal(r.status, 0);
  t.equal(r.stdout, specs.flatMap(piecesOf).join(''), 'every piece, in file order');
  t.equal(r.stderr, specs.map((s) => `tx-pieces: ${s.split(':')[0]}: start\ntx-pieces: ${s.split(':')[0]}: end\n`).join(''), 'messages in file order');
});

t.test('a worker waits for its credit: a file written slowly is mostly written when its worker says it is done', async (t) => {
  // 40 pieces of 64 KB (2.5 MB) into a stdout taking 5 ms a piece. The worker copies each
  // piece into 256 KB batches and may have 4 of them unwritten: when it says "a: end",
  // all but about 1 MB must be written already. A worker that ignored its credit would
  // say it at once, with next to nothing written. (A second file, as one file is run on
  // the main thread.)
  const specs = ['a:40:65536', 'b:1:10'];
  const r = await runPieces(specs, 5);
  t.equal(r.status, 0);
  const total = piecesOf(specs[0]).join('').length;
  t.equal(r.stdout, specs.flatMap(piecesOf).join(''), 'every piece written, in order');
  const end = r.marks.find(([text]) => text === 'tx-pieces: a: end\n');
  t.ok(end, 'the worker said it was done');
  const slack = 6 * 256 * 1024;
  t.ok(end![1] >= total - slack, `when it said so, ${end![1]} of ${total} bytes were written (at most ${slack} may wait)`);
});

t.test('a worker that ends in the middle of a file stops the run with a message (it does not wait for the file forever)', async (t) => {
  // The main thread takes the first two files (each counts as 64 KB ahead, these names
  // being no files), the worker thread the third.
  const r = await runPieces(['a:3:100', 'b:30:100', 'x:exit', 'c:3:100'], 0);
  t.equal(r.status, 1);
  t.match(r.stderr, /tx-pieces: internal error: a worker stopped \(exit code 3\) before it finished x:exit\n/);
  // The run stops when the news of the stopped worker comes, before or after "a" and "b" arrived.
  t.ok(['a:3:100', 'b:30:100'].flatMap(piecesOf).join('').startsWith(r.stdout), 'what is written is a beginning of the output of "a" and "b"');
});

t.test('tx-parse --jobs 2 over 300 small files, run 10 times: each run ends, with the bytes and messages of --jobs 1', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-jobs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const random = prng(300);
  const files: string[] = [];
  for (let i = 0; i < 300; i++) {
    const f = join(dir, `s${String(i).padStart(3, '0')}.jsonl`);
    // Some files end without a newline or hold a line that is not JSON, so stderr has messages to order.
    writeFileSync(f, session(i, i % 9, random) + (i % 17 === 0 ? 'not json\n' : ''));
    files.push(f);
  }
  const once = (jobs: string) =>
    new Promise<{ status: number | null; signal: string | null; stdout: Buffer; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [repo('build', 'bin', 'tx-parse.js'), '--jobs', jobs, ...files], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      child.on('close', (status, signal) => resolve({ status, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
    });
  const one = await once('1');
  t.equal(one.status, 0);
  t.match(one.stderr, /s017\.jsonl:\d+: not JSON/, 'some messages to keep in order');
  let same = 0;
  for (let i = 0; i < 10; i++) {
    const two = await once('2');
    t.equal(two.signal, null, `run ${i + 1}: ended by itself (not killed after 60 s)`);
    if (two.status === 0 && two.stdout.equals(one.stdout) && two.stderr === one.stderr) same++;
  }
  t.equal(same, 10, 'every run: status 0, the same bytes and the same messages');
});

t.test('workers run at most 64 files beyond the first not yet written: a store of files that give little does not pile up behind a slow one', async (t) => {
  // "a" runs on the main thread until f63 has run, and 200 ms more; the worker thread runs
  // on through the files after it, which give a line each (far from their credit), until
  // it is 64 ahead. (A wait for a time alone ran out, under load, before the worker
  // thread had started.)
  const dir = mkdtempSync(join(tmpdir(), 'tx-window-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const marker = join(dir, 'f63-ran');
  const specs = ['a:waitfor:' + marker, ...Array.from({ length: 150 }, (_, i) => (i + 1 === 63 ? `f63:touch:${marker}` : `f${i + 1}:clock`))];
  const r = await runPieces(specs, 0);
  t.equal(r.status, 0);
  const lines = r.stdout.trimEnd().split('\n').map((l) => l.split(' '));
  t.same(lines.map((l) => l[0]), specs.map((s) => s.split(':')[0]), 'a line per file, in order');
  const aEnd = Number(lines[0][1]);
  const before = lines.slice(1).filter((l) => Number(l[1]) < aEnd).map((l) => Number(l[0].slice(1)));
  t.ok(before.length > 0, `the worker thread ran ahead of "a": ${before.length} files before it ended`);
  t.ok(before.every((i) => i < 64), `none of them 64 files or more beyond it (the last: f${Math.max(...before)})`);
});

t.test('--jobs: a note said once per run comes for the first file that says it, the others counted at the end, as on one thread', async (t) => {
  const specs = ['a:2:100', 'b:2:100:once', 'c:3:100:once', 'd:1:100:once'];
  const r = await runPieces(specs, 0);
  t.equal(r.status, 0);
  const lines = r.stderr.trimEnd().split('\n');
  t.same(lines.filter((l) => /once/.test(l)), ['tx-pieces: b: once', 'tx-pieces: 2 more inputs with a note said once'], 'b named, c and d counted');
  t.equal(lines[lines.length - 1], 'tx-pieces: 2 more inputs with a note said once', 'the count comes last');
  const one = await runTool(piecesTool, ['--jobs', '1', ...specs], []);
  t.equal(one.stderr, r.stderr, 'the same messages as one thread');
});

t.test('a tool may ask for another young generation on its workers (tx-common asks for 6 MB; here 4) and then runs every file on worker threads; the others get 8 MB and the main thread runs a share; each grows to its limit', async (t) => {
  for (const [tool, mb] of [[youngTool, '4'], [youngDefaultTool, '8']] as const) {
    const r = await runTool(tool, ['--jobs', '3', 'a', 'b', 'c', 'd'], []);
    t.equal(r.status, 0, `${tool.name}: exit 0`);
    const lines = r.stdout.toString('utf8').trimEnd().split('\n');
    t.same(lines.map((l) => l.split(' ')[0]), ['a', 'b', 'c', 'd'], `${tool.name}: a line per file, in order`);
    // The main thread's limit is V8's own ("-"); it takes the first file when it runs a share.
    const onThreads = lines.filter((l) => l.split(' ')[1] !== '-');
    if (tool === youngTool) t.equal(onThreads.length, 4, `${tool.name}: every file ran on a worker thread`);
    else t.ok(lines[0].startsWith('a - ') && onThreads.length > 0, `${tool.name}: the first file ran on the main thread, ${onThreads.length} on worker threads`);
    for (const line of onThreads) t.equal(line.slice(2), `${mb} ${mb}`, `${tool.name}: ${line[0]}'s worker thread has a ${mb} MB young generation, and it grew to that size`);
  }
});

t.test("the main thread's young generation stays small while it takes the workers' data (it grew to 32 MB under tx-stats)", async (t) => {
  // In a process of its own, so that the young generation has its first size. (The test
  // runner's module hooks come into it through NODE_OPTIONS: a thread of theirs sets up
  // a heap after the workers start, which puts V8's growth factor back until a file
  // ends, so the young generation may grow once there.)
  const workers = new URL('../../../lib/core/parallel/workers.js', import.meta.url).href;
  const output = new URL('../../../lib/core/output/output.js', import.meta.url).href;
  const tool = new URL('./pieces-tool.js', import.meta.url).href;
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { Writable } from 'node:stream';
    import { runOnWorkers } from ${JSON.stringify(workers)};
    import { Output } from ${JSON.stringify(output)};
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
    const kept = [];
    const before = young();
    const out = new Output(new Writable({ write: (_chunk, _enc, cb) => cb() }));
    const files = Array.from({ length: 60 }, (_, i) => 'f' + i);
    const status = await runOnWorkers({ url: ${JSON.stringify(tool)}, name: 'tx-send' }, { _: [] }, files, 2, out, () => {}, { onData: (v) => kept.push(v) });
    console.log(JSON.stringify({ status, kept: kept.length, before, after: young() }));`;
  // A file, not -e: a worker would inherit --input-type.
  const dir = mkdtempSync(join(tmpdir(), 'tx-young-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'main.mjs'), script);
  const r = spawnSync(process.execPath, [join(dir, 'main.mjs')], { encoding: 'utf8' });
  t.equal(r.stderr, '', 'nothing on stderr');
  const got = JSON.parse(r.stdout);
  t.equal(got.status, 0, 'exit 0');
  t.equal(got.kept, 60, 'every file sent its data');
  t.ok(got.after < 16, `the young generation stayed under 16 MB: ${got.before} MB before, ${got.after} MB after 1,200,000 objects kept (32 MB when it grows)`);
});

t.test("a worker's old generation grows by half at most before it is collected: with 600 MB of large strings dropped at once, the heap stays under 2.3 times what is alive (V8 alone let it reach 2.5 to 3.3 times)", async (t) => {
  const r = await runTool(garbageTool, ['--jobs', '2', 'a', 'b'], []);
  t.equal(r.status, 0, 'exit 0');
  const lines = r.stdout.toString('utf8').trim().split('\n');
  t.equal(lines.length, 2, 'a line for each file');
  for (const line of lines) {
    const [name, base, peak, made] = line.split(' ');
    t.equal(made, String(400_000 + 600_000_000), `${name}: every string was made`);
    t.ok(Number(peak) < 2.3 * Number(base), `${name}: the heap peaked at ${peak} MB with ${base} MB alive`);
  }
});

t.test('a worker sends what a small file gives in one message (its notes, its output and its end): each message wakes the main thread', async (t) => {
  const { Worker } = await import('node:worker_threads');
  const emit = Worker.prototype.emit;
  let messages = 0;
  Worker.prototype.emit = function (this: InstanceType<typeof Worker>, event: string | symbol, ...rest: unknown[]) {
    if (event === 'message') messages++;
    return emit.call(this, event, ...rest);
  } as typeof emit;
  t.teardown(() => {
    Worker.prototype.emit = emit;
  });
  // Each file: a note, 3 lines of output, a note, the end (4 messages or more each, sent one by one).
  const specs = Array.from({ length: 40 }, (_, i) => `f${i}:3:100`);
  const r = await runPieces(specs, 0);
  t.equal(r.status, 0);
  t.equal(r.stdout, specs.flatMap(piecesOf).join(''), 'every piece, in file order');
  t.equal(r.stderr, specs.map((s) => `tx-pieces: ${s.split(':')[0]}: start\ntx-pieces: ${s.split(':')[0]}: end\n`).join(''), 'messages in file order');
  // One per file, and one more where a worker ahead of the output waits for its credit (4 or more each, one by one).
  t.ok(messages < 1.5 * specs.length, `${messages} messages for ${specs.length} files`);
});

t.test("a worker makes the streams it gives the tool once, for all its files (80 µs a file when made for each); what a file writes to stdout itself comes whole and in order, past the worker's credit", async (t) => {
  // 1.25 MB a file, written to the stdout stream itself, into a stdout taking 1 ms a piece: past the 1 MB credit.
  const specs = Array.from({ length: 12 }, (_, i) => `f${i}:20:65536:direct`);
  const r = await runPieces(specs, 1);
  t.equal(r.status, 0);
  t.ok(r.stdout === specs.flatMap(piecesOf).join(''), 'every piece, in file order');
  const fresh = r.stderr.split('\n').filter((l) => l.endsWith(': a new stdout')).length;
  const same = r.stderr.split('\n').filter((l) => l.endsWith(': the same stdout')).length;
  t.ok(fresh >= 1 && fresh <= 2, `a new stream for the first file of each of the 2 workers only (${fresh})`);
  t.equal(fresh + same, specs.length, 'every file said which');
});
