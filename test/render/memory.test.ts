// tx-render stays under 200 MB of peak resident memory on inputs made to push it: one
// huge tool result, a huge reply in text that is not ASCII, parallel calls each with a
// large result (one message of them all in Common), a line of 100 MB, a line of 300,000
// blocks. The inputs are generated here (none is kept in the repository); the peak is
// the child's own (getrusage), reported as it exits.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { repo } from '../helpers.js';

/** The peak all tx-render's runs must stay under. */
const LIMIT_MB = 200;

const PROBE = `data:text/javascript,${encodeURIComponent("import { writeSync } from 'node:fs'; process.on('exit', () => writeSync(3, String(process.resourceUsage().maxRSS)));")}`;

/** Run tx-render on a file; its exit status, stderr and peak resident memory in MB. */
function peak(args: string[]): Promise<{ status: number | null; stderr: string; mb: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PROBE, repo('build', 'bin', 'tx-render.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let bytes = 0;
    let stderr = '';
    let rss = '';
    child.stdout!.on('data', (d: Buffer) => (bytes += d.length));
    child.stderr!.on('data', (d: Buffer) => (stderr += d));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (rss += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr, mb: Number(rss) / 1024, bytes }));
  });
}

/** Write lines (strings, or a function that writes one long line in pieces) to a file. */
async function write(file: string, lines: (string | ((put: (s: string) => Promise<void>) => Promise<void>))[]): Promise<void> {
  const out = createWriteStream(file);
  const put = (s: string) => new Promise<void>((res) => (out.write(s) ? res() : out.once('drain', () => res())));
  for (const line of lines) {
    if (typeof line === 'string') await put(line + '\n');
    else {
      await line(put);
      await put('\n');
    }
  }
  await new Promise<void>((res) => out.end(res));
}

const base = { sessionId: 's1', cwd: '/tmp/x', version: '2.1.0' };
const ts = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
const line = (o: object) => JSON.stringify(o);
const prompt = line({ ...base, type: 'user', uuid: 'u0', parentUuid: null, timestamp: ts(0), message: { role: 'user', content: 'go' } });
const calls = (ids: string[]) => line({ ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u0', timestamp: ts(1), message: { id: 'm1', role: 'assistant', model: 'x', content: ids.map((id) => ({ type: 'tool_use', id, name: 'Bash', input: { command: 'cat big' } })), usage: { input_tokens: 1, output_tokens: 1 } } });
const result = (id: string, uuid: string, parent: string, text: string) => line({ ...base, type: 'user', uuid, parentUuid: parent, timestamp: ts(2), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] } });
/** Text of about `bytes` UTF-8 bytes, none of it ASCII (JavaScript holds it in two bytes a character). */
const wide = (bytes: number) => 'é中'.repeat(Math.ceil(bytes / 5));

const dir = t.testdir({});
const cases: { name: string; file: string; lines: Parameters<typeof write>[1]; expect?: RegExp }[] = [
  { name: 'a 10 MB tool result', file: 'result.jsonl', lines: [prompt, calls(['t']), result('t', 'r', 'a1', 'line of output 0123456789 abcdefghijklmnopqrstuvwxyz\n'.repeat(190_000))] },
  { name: 'a 30 MB reply, not ASCII', file: 'reply.jsonl', lines: [prompt, line({ ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u0', timestamp: ts(1), message: { id: 'm1', role: 'assistant', model: 'x', content: [{ type: 'text', text: wide(30e6) }] } })] },
  {
    name: 'sixteen parallel calls, each a 3.9 MB result',
    file: 'parallel.jsonl',
    lines: (() => {
      const ids = Array.from({ length: 16 }, (_, i) => `t${i}`);
      const text = wide(3.9e6);
      return [prompt, calls(ids), ...ids.map((id, i) => result(id, `r${i}`, i === 0 ? 'a1' : `r${i - 1}`, text))];
    })(),
  },
  {
    name: 'a line of 100 MB',
    file: 'huge.jsonl',
    lines: [
      prompt,
      calls(['t']),
      async (put) => {
        const [head, tail] = result('t', 'r', 'a1', '@@').split('@@');
        await put(head);
        const chunk = 'y'.repeat(1 << 20);
        for (let i = 0; i < 100; i++) await put(chunk);
        await put(tail);
      },
    ],
  },
  { name: 'a line of 300,000 blocks', file: 'blocks.jsonl', lines: [line({ ...base, type: 'user', uuid: 'u0', parentUuid: null, timestamp: ts(0), message: { role: 'user', content: Array.from({ length: 300_000 }, (_, i) => ({ type: 'text', text: `b${i}` })) } })], expect: /blocks\.jsonl:1: a line of [\d,]+ bytes that passes 4,194,304 bytes even with each of its texts cut to 262,144: left out/ },
];

for (const c of cases) {
  t.test(`${c.name}: under ${LIMIT_MB} MB`, async (t) => {
    const file = path.join(dir, c.file);
    await write(file, c.lines);
    for (const format of c.name.startsWith('a 30 MB') ? ['html', 'md'] : ['html']) {
      const r = await peak(['--format', format, file]);
      t.equal(r.status, 0, `${format}: exit 0`);
      t.notMatch(r.stderr, /internal error/, `${format}: no internal error`);
      if (c.expect) t.match(r.stderr, c.expect, `${format}: what was left out is said`);
      t.ok(r.bytes > 1000, `${format}: a document was written (${r.bytes} bytes)`);
      t.ok(r.mb > 0 && r.mb < LIMIT_MB, `${format}: peak ${r.mb.toFixed(0)} MB`);
    }
  });
}
