// tx-parse --follow as a user runs it: a real process following files that another
// writes, stopped by a signal. Its output once the writer stops is tx-parse of the file.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { prng, repo, ROOT, runBin } from '../helpers.js';

const FIXTURE = repo('fixtures/recorded/tools/projects/-tmp-txcript-rec-tools-work/00000000-0000-4000-8000-0000000000b1.jsonl');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A running bin whose output is gathered as it comes. */
function start(name: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [repo('build', 'bin', `${name}.js`), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return watchOutput(child);
}

// A test that fails mid-way must not leave a follower running (it would hold the test open).
const children: ChildProcess[] = [];
t.teardown(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function watchOutput(child: ChildProcess) {
  children.push(child);
  const out: Buffer[] = [];
  let err = '';
  child.stdout!.on('data', (d: Buffer) => out.push(d));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    stdout: () => Buffer.concat(out),
    stderr: () => err,
    /** Wait (up to 20 s) until the output says what is wanted. */
    async until(what: string, ok: (text: string) => boolean) {
      for (let i = 0; i < 400 && !ok(Buffer.concat(out).toString('utf8')); i++) await sleep(50);
      if (!ok(Buffer.concat(out).toString('utf8'))) throw new Error(`timed out waiting for ${what}; stderr: ${err}`);
    },
    /** Send a signal and wait for the exit status. */
    async stop(signal: NodeJS.Signals = 'SIGINT') {
      child.kill(signal);
      return closed;
    },
  };
}

const records = (text: string) => text.split('\n').filter(Boolean).length;

t.test('appends in random pieces, some mid-line: once the writer stops and SIGINT ends it (status 0), the output is tx-parse of the file', async (t) => {
  const bytes = readFileSync(FIXTURE);
  // No final newline: the unfinished last line is written when following ends, as tx-parse writes it.
  const whole = bytes.subarray(0, bytes.length - 1);
  const dir = t.testdir({});
  const file = join(dir, 's.jsonl');
  writeFileSync(file, '');
  const run = start('tx-parse', ['-f', file]);
  const random = prng(17);
  for (let at = 0; at < whole.length; ) {
    const n = Math.min(whole.length - at, 1 + Math.floor(random() * 4000));
    appendFileSync(file, whole.subarray(at, at + n));
    at += n;
    if (random() < 0.3) await sleep(20);
  }
  const lines = whole.toString('utf8').split('\n').length;
  await run.until('every complete line', (s) => records(s) === lines - 1);
  t.equal(await run.stop('SIGINT'), 0, 'SIGINT ends it with status 0');
  const plain = await runBin('tx-parse', [file]);
  t.ok(run.stdout().equals(plain.stdout), 'the same bytes as tx-parse of the final file');
  t.match(run.stdout().toString().trimEnd().split('\n').at(-1), /"eol":false/, 'the last line, without newline, came out at the end');
});

t.test('SIGTERM ends it with status 0 too, after writing what was read', async (t) => {
  const dir = t.testdir({ 's.jsonl': '{"type":"user","message":{"role":"user","content":"hi"}}\n' });
  const run = start('tx-parse', ['--follow', join(dir, 's.jsonl')]);
  await run.until('the first record', (s) => records(s) === 1);
  t.equal(await run.stop('SIGTERM'), 0);
  t.equal(run.stderr(), '', 'nothing on stderr');
});

t.test('truncation: a note on stderr, and the new content is parsed from line 1', async (t) => {
  const dir = t.testdir({ 's.jsonl': '{"a":1}\n{"a":2}\n{"a":3}\n' });
  const file = join(dir, 's.jsonl');
  const run = start('tx-parse', ['-f', file]);
  await run.until('three records', (s) => records(s) === 3);
  truncateSync(file, 0);
  appendFileSync(file, '{"b":1}\n');
  await run.until('the new record', (s) => records(s) === 4);
  t.equal(await run.stop(), 0);
  const last = JSON.parse(run.stdout().toString().trimEnd().split('\n').at(-1)!);
  t.same([last.n, last.line], [1, { b: 1 }]);
  t.match(run.stderr(), /s\.jsonl: truncated; reading it again from the start/);
});

t.test('replacement: a new file moved over the path is followed from its start', async (t) => {
  const dir = t.testdir({ 's.jsonl': '{"a":1}\n', 'next.jsonl': '{"b":1}\n{"b":2}\n' });
  const file = join(dir, 's.jsonl');
  const run = start('tx-parse', ['-f', file]);
  await run.until('one record', (s) => records(s) === 1);
  const { renameSync } = await import('node:fs');
  renameSync(join(dir, 'next.jsonl'), file);
  await run.until('the new file', (s) => records(s) === 3);
  t.equal(await run.stop(), 0);
  t.same(run.stdout().toString().trim().split('\n').map((l) => JSON.parse(l).n), [1, 1, 2]);
  t.match(run.stderr(), /replaced by another file; reading it again from the start/);
});

t.test('a session named by id: its subagent transcripts are followed as they appear, each record naming its file', async (t) => {
  const id = '00000000-0000-4000-8000-00000000f011';
  const dir = t.testdir({ config: { projects: { '-tmp-x': { [`${id}.jsonl`]: '{"type":"user","sessionId":"' + id + '","message":{"role":"user","content":"go"}}\n' } } } });
  const project = join(dir, 'config', 'projects', '-tmp-x');
  const env = { ...process.env, CLAUDE_CONFIG_DIR: join(dir, 'config'), CODEX_HOME: join(dir, 'no-codex') };
  const run = start('tx-parse', ['-f', id.slice(0, 30)], env);
  await run.until('the session line', (s) => records(s) === 1);
  const subDir = join(project, id, 'subagents');
  mkdirSync(subDir, { recursive: true });
  const sub = join(subDir, 'agent-a1.jsonl');
  writeFileSync(sub, '{"type":"user","isSidechain":true,"sessionId":"' + id + '","message":{"role":"user","content":"task"}}\n');
  await run.until('the subagent line', (s) => records(s) === 2);
  appendFileSync(join(project, `${id}.jsonl`), '{"type":"user","sessionId":"' + id + '","message":{"role":"user","content":"more"}}\n');
  await run.until('the next session line', (s) => records(s) === 3);
  t.equal(await run.stop(), 0);
  const got = run.stdout().toString().trim().split('\n').map((l) => JSON.parse(l));
  t.same(got.map((r) => [r.src, r.n]), [[join(project, `${id}.jsonl`), 1], [sub, 1], [join(project, `${id}.jsonl`), 2]]);
});

t.test('tx-parse -f | tx-filter --tool-calls --view shows a tool call while both still run', async (t) => {
  const lines = readFileSync(FIXTURE, 'utf8').split('\n');
  const call = lines.findIndex((l) => l.includes('"type":"tool_use"'));
  t.ok(call > 0, 'the fixture has a tool call');
  const dir = t.testdir({});
  const file = join(dir, 's.jsonl');
  writeFileSync(file, lines.slice(0, call).join('\n') + '\n');
  const parse = spawn(process.execPath, [repo('build', 'bin', 'tx-parse.js'), '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const filter = spawn(process.execPath, [repo('build', 'bin', 'tx-filter.js'), '--tool-calls', '--view'], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(parse);
  parse.stdout.pipe(filter.stdin!);
  const view = watchOutput(filter);
  await sleep(500);
  appendFileSync(file, lines[call] + '\n');
  await view.until('the tool call view', (s) => records(s) === 1);
  t.equal(JSON.parse(view.stdout().toString()).id, JSON.parse(lines[call]).message.content.find((b: any) => b.type === 'tool_use').id);
  parse.kill('SIGINT');
  t.equal(await new Promise((r) => filter.on('close', r)), 0, 'the pipeline ends with status 0');
});

t.test('--follow needs files: stdin is a usage error, a missing file or id an error', async (t) => {
  const dir = t.testdir({ fifo: {} });
  const r = await runBin('tx-parse', ['-f', '-']);
  t.equal(r.status, 2);
  t.match(r.stderr, /--follow reads files, not stdin/);
  const none = await runBin('tx-parse', ['-f'], '');
  t.equal(none.status, 2);
  const missing = await runBin('tx-parse', ['-f', join(dir, 'nope.jsonl')]);
  t.equal(missing.status, 1);
  t.match(missing.stderr, /nope\.jsonl: cannot follow: no such file/);
  const env = { ...process.env, CLAUDE_CONFIG_DIR: join(dir, 'c'), CODEX_HOME: join(dir, 'x') };
  const id = await runBin('tx-parse', ['-f', 'not-an-id'], '', env);
  t.equal(id.status, 1);
  t.match(id.stderr, /not-an-id: no such file, and no session of that id/);
  const d = await runBin('tx-parse', ['-f', join(dir, 'fifo')]);
  t.equal(d.status, 1);
  t.match(d.stderr, /cannot follow: a directory, not a regular file/);
});

t.test('with no file and a terminal on stdin: the current session of the directory, and its subagents as they appear', async (t) => {
  const { spawnSync } = await import('node:child_process');
  if (spawnSync('script', ['--version']).status !== 0) {
    t.plan(0, 'script (util-linux) is not installed: no terminal to give tx-parse');
    return;
  }
  const dir = t.testdir({ work: {}, config: { projects: {} } });
  const cwd = join(dir, 'work');
  const slug = cwd.replace(/[^A-Za-z0-9]/g, '-');
  const project = join(dir, 'config', 'projects', slug);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 's1.jsonl'), JSON.stringify({ type: 'user', sessionId: 's1', cwd, message: { role: 'user', content: 'hi' }, timestamp: '2026-01-01T00:00:00Z' }) + '\n');
  const env = { ...process.env, CLAUDE_CONFIG_DIR: join(dir, 'config'), CODEX_HOME: join(dir, 'no-codex') };
  // script gives the command a terminal for stdin (and for stdout: records are read from its output).
  const child = spawn('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(repo('build', 'bin', 'tx-parse.js'))} -f`, '/dev/null'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const run = watchOutput(child);
  await run.until('the session line', (s) => s.includes('"src":' + JSON.stringify(join(project, 's1.jsonl'))));
  mkdirSync(join(project, 's1', 'subagents'), { recursive: true });
  const sub = join(project, 's1', 'subagents', 'agent-x.jsonl');
  writeFileSync(sub, JSON.stringify({ type: 'user', isSidechain: true, sessionId: 's1', message: { role: 'user', content: 'sub' } }) + '\n');
  await run.until('the subagent line', (s) => s.includes('"src":' + JSON.stringify(sub)));
  t.match(run.stdout().toString(), /reading the current session .*s1\.jsonl/);
  child.kill('SIGTERM');
});
