// Memory stays flat whatever the input: each case that once took more than 200 MB of
// peak RSS runs here on an input made in a temporary directory, and the tool's peak
// (measured by /usr/bin/time, else by VmHWM polled from /proc) stays under 200 MB.
// What each case took before, on the machine this was written on, is in its name. (Under
// the test runner a tool's peak is some 20-40 MB higher than from a shell, for reasons not
// found; the limit holds under both.)
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, createReadStream, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { repo } from '../helpers.js';

const LIMIT_KB = 200 * 1024;
const TIME = '/usr/bin/time';
const canMeasure = existsSync(TIME) || existsSync('/proc/self/status');
const scratch = mkdtempSync(join(tmpdir(), 'tx-memory-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
// The tools run as a user runs them: without the test runner's NODE_OPTIONS (its loaders cost memory of their own).
const env: NodeJS.ProcessEnv = { ...process.env, HOME: scratch, CLAUDE_CONFIG_DIR: join(scratch, 'claude'), CODEX_HOME: join(scratch, 'codex') };
delete env.NODE_OPTIONS;

/** What a run left: its status, its peak RSS in KB, and its stderr; stdout went to `out` (or nowhere). */
interface Measured {
  status: number | null;
  peakKb: number;
  stderr: string;
}

/** Run a bin with stdout into `out` (a file path, or null for nowhere), and measure its peak RSS. */
function measure(name: string, args: string[], out: string | null, during?: (pid: number) => Promise<void>): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const timed = existsSync(TIME);
    const report = join(scratch, `time-${randomUUID()}`);
    const command = timed ? TIME : process.execPath;
    const argv = [repo('build', 'bin', `${name}.js`), ...args];
    const outFd = out === null ? 'ignore' : openSync(out, 'w');
    // Its own process group: a signal to the group reaches the tool under /usr/bin/time too.
    const child = spawn(command, timed ? ['-f', '%M', '-o', report, process.execPath, ...argv] : argv, { env, stdio: ['ignore', outFd, 'pipe'], detached: true });
    if (typeof outFd === 'number') closeSync(outFd);
    let stderr = '';
    let polled = 0;
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const poll = timed
      ? null
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) polled = Math.max(polled, Number(m[1]));
          } catch {
            // Gone already.
          }
        }, 10);
    child.on('error', reject);
    child.on('close', (status) => {
      if (poll) clearInterval(poll);
      const peakKb = timed ? Number(readFileSync(report, 'utf8').trim().split('\n').pop()) : polled;
      resolve({ status, peakKb, stderr });
    });
    // `during` runs while the tool does (a writer appending to a followed file); its end stops the tool.
    if (during) {
      void during(child.pid!).then(() => process.kill(-child.pid!, 'SIGINT'));
    }
  });
}

/** Write `text` to `file`, with `mib` MiB of `fill` where `@@` stands. */
function writeWithFill(file: string, text: string, mib: number, fill = 'x'): void {
  const [before, after] = text.split('@@');
  const fd = openSync(file, 'w');
  writeSync(fd, before);
  const block = Buffer.alloc(1 << 20, fill);
  for (let i = 0; i < mib; i++) writeSync(fd, block);
  writeSync(fd, after);
  closeSync(fd);
}

/** Lines in a file, counted as it streams by. */
async function countLines(file: string): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) n++;
  return n;
}

/** Two files hold the same bytes (compared a chunk at a time). */
async function sameBytes(a: string, b: string): Promise<boolean> {
  const left = createReadStream(a, { highWaterMark: 1 << 20 })[Symbol.asyncIterator]();
  const right = createReadStream(b, { highWaterMark: 1 << 20 })[Symbol.asyncIterator]();
  let x: Buffer = Buffer.alloc(0);
  let y: Buffer = Buffer.alloc(0);
  for (;;) {
    if (x.length === 0) x = ((await left.next()).value as Buffer | undefined) ?? Buffer.alloc(0);
    if (y.length === 0) y = ((await right.next()).value as Buffer | undefined) ?? Buffer.alloc(0);
    if (x.length === 0 || y.length === 0) return x.length === y.length;
    const n = Math.min(x.length, y.length);
    if (!x.subarray(0, n).equals(y.subarray(0, n))) return false;
    x = x.subarray(n);
    y = y.subarray(n);
  }
}

const SID = '11111111-2222-4333-8444-555555555555';
const ENVELOPE = { parentUuid: null, isSidechain: false, userType: 'external', cwd: '/home/u/p', sessionId: SID, version: '2.1.0', gitBranch: 'main' };
/** A prompt line whose text is `@@` (to be filled), then an assistant line. */
const PROMPT_SESSION =
  JSON.stringify({ ...ENVELOPE, type: 'user', message: { role: 'user', content: '@@' }, uuid: 'aaaaaaaa-0000-4000-8000-000000000001', timestamp: '2026-01-01T00:00:00.000Z' }) +
  '\n' +
  JSON.stringify({ ...ENVELOPE, parentUuid: 'aaaaaaaa-0000-4000-8000-000000000001', type: 'assistant', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }, uuid: 'aaaaaaaa-0000-4000-8000-000000000002', timestamp: '2026-01-01T00:00:01.000Z' }) +
  '\n';

const opts = { skip: canMeasure ? false : 'neither /usr/bin/time nor /proc to measure peak RSS' };

t.test('tx-common --active on a chain of 400,000 lines (was 305 MB)', opts, async (t) => {
  const file = join(scratch, 'chain.jsonl');
  const fd = openSync(file, 'w');
  let parent: string | null = null;
  let text = '';
  for (let i = 0; i < 400_000; i++) {
    const uuid = randomUUID();
    const line = i % 2 === 0 ? { type: 'user', uuid, parentUuid: parent, sessionId: SID, message: { role: 'user', content: 'p' } } : { type: 'assistant', uuid, parentUuid: parent, sessionId: SID, message: { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: 'a' }] } };
    parent = uuid;
    text += JSON.stringify(line) + '\n';
    if (text.length > 1 << 20) {
      writeSync(fd, text);
      text = '';
    }
  }
  writeSync(fd, text);
  closeSync(fd);
  const out = join(scratch, 'chain.common');
  const r = await measure('tx-common', ['--active', file], out);
  t.equal(r.status, 0, r.stderr);
  t.ok(r.peakKb < LIMIT_KB, `peak ${Math.round(r.peakKb / 1024)} MB`);
  t.equal(await countLines(out), 400_001, 'a session line and every message of the chain');
});

t.test('tx-ls on a session whose first line is 150 MiB, listed and --current (were 464 and 869 MB)', opts, async (t) => {
  const project = join(scratch, 'claude', 'projects', '-home-u-p');
  mkdirSync(project, { recursive: true });
  writeWithFill(join(project, `${SID}.jsonl`), PROMPT_SESSION, 150);
  for (const args of [['--root', join(scratch, 'claude', 'projects')], ['--current', '--cwd', '/home/u/p']]) {
    const out = join(scratch, 'ls.out');
    const r = await measure('tx-ls', args, out);
    t.equal(r.status, 0, r.stderr);
    t.ok(r.peakKb < LIMIT_KB, `tx-ls ${args[0]}: peak ${Math.round(r.peakKb / 1024)} MB`);
    const entry = JSON.parse(readFileSync(out, 'utf8'));
    t.match(entry, { id: SID, cwd: '/home/u/p', git_branch: 'main', version: '2.1.0', model: 'claude-x', started_at: '2026-01-01T00:00:00.000Z' }, `tx-ls ${args[0]}: the fields around the long line`);
    if (args[0] === '--current') t.equal(entry.first_prompt, 'x'.repeat(300) + '…', 'the first prompt, cut as usual');
  }
});

t.test('tx-native on a line over 64 MiB, native and as tx-parse keeps it (were 187 and 303 MB)', opts, async (t) => {
  const native = join(scratch, 'long.jsonl');
  writeWithFill(native, PROMPT_SESSION, 70);
  const records = join(scratch, 'long.records');
  const parsed = await measure('tx-parse', [native], records);
  t.equal(parsed.status, 0);
  t.ok(parsed.peakKb < LIMIT_KB, `tx-parse: peak ${Math.round(parsed.peakKb / 1024)} MB`);
  for (const input of [records, native]) {
    const out = join(scratch, 'long.back');
    const r = await measure('tx-native', [input], out);
    t.equal(r.status, 0, r.stderr);
    t.ok(r.peakKb < LIMIT_KB, `tx-native ${input === records ? 'records' : 'native lines'}: peak ${Math.round(r.peakKb / 1024)} MB`);
    t.ok(await sameBytes(out, native), 'the file back, byte for byte');
  }
});

t.test('tx-common on a 16 MiB line (was 206 MB; 239 MB under tap), tx-escape on a 70 MiB line (was 340 MB)', opts, async (t) => {
  const file = join(scratch, 'prompt16.jsonl');
  writeWithFill(file, PROMPT_SESSION, 16);
  const out = join(scratch, 'prompt16.common');
  const r = await measure('tx-common', [file], out);
  t.equal(r.status, 0, r.stderr);
  t.ok(r.peakKb < LIMIT_KB, `tx-common: peak ${Math.round(r.peakKb / 1024)} MB`);
  t.equal(await countLines(out), 3, 'the session, the prompt and the answer');
  const long = join(scratch, 'long70.jsonl');
  writeWithFill(long, PROMPT_SESSION, 70);
  const escaped = join(scratch, 'long70.out');
  const e = await measure('tx-escape', [long], escaped);
  t.equal(e.status, 0, e.stderr);
  t.ok(e.peakKb < LIMIT_KB, `tx-escape: peak ${Math.round(e.peakKb / 1024)} MB`);
  t.ok(await sameBytes(escaped, long), 'tx-escape passes the long line through unchanged');
});

t.test('tx-parse -f on a line growing to 80 MB (was 240 MB)', opts, async (t) => {
  const file = join(scratch, 'growing.jsonl');
  const fd = openSync(file, 'w');
  writeSync(fd, '{"type":"user","message":{"role":"user","content":"');
  const out = join(scratch, 'growing.records');
  const block = Buffer.alloc(1 << 20, 'x');
  const r = await measure('tx-parse', ['-f', file], out, async () => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (let i = 0; i < 80; i++) {
      writeSync(fd, block);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    writeSync(fd, '"}}\n');
    closeSync(fd);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  });
  t.ok(r.peakKb < LIMIT_KB, `peak ${Math.round(r.peakKb / 1024)} MB`);
  t.match(r.stderr, 'line longer than 67108864 bytes, kept as an invalid record (raw_base64) without parsing');
  t.equal(await countLines(out), 1, 'one record for the line');
});
