// tx-grep's memory on files with long lines, made here (nothing large is kept in the
// repository): a first line of 200 MiB (where reading titles the way tx-ls does took
// 460 MB), and lines just under the longest tx-grep parses, whose text is stored as
// two bytes a character. The peak resident size of the whole process stays under 200 MB.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { LINE_LIMIT } from '../../lib/commands/grep-file.js';
import { repo } from '../helpers.js';

const LIMIT_MB = 200;
// Reports the process's peak resident size (KB) on stderr as it exits.
const PEAK = `data:text/javascript,process.on('exit',()=>process.stderr.write('peak-rss-kb '+process.resourceUsage().maxRSS+'\\n'))`;

/** Write a session file: a user line of about `mb` MiB of `word`s ending in `tail`, then a small line with a hit, then a title. */
function write(file: string, mb: number, word: string, tail: string): void {
  const fd = openSync(file, 'w');
  try {
    const piece = (word + ' ').repeat(Math.floor((1 << 20) / Buffer.byteLength(word + ' ')));
    writeSync(fd, '{"type":"user","sessionId":"s1","message":{"role":"user","content":"');
    for (let written = 0; written + Buffer.byteLength(piece) <= mb * (1 << 20); written += Buffer.byteLength(piece)) writeSync(fd, piece);
    writeSync(fd, `${tail}"}}\n`);
    writeSync(fd, JSON.stringify({ type: 'user', sessionId: 's1', message: { role: 'user', content: 'a small needle' } }) + '\n');
    writeSync(fd, JSON.stringify({ type: 'custom-title', customTitle: 'Named', sessionId: 's1' }) + '\n');
  } finally {
    closeSync(fd);
  }
}

function grepPeak(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string; peakMB: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PEAK, repo('build', 'bin', 'tx-grep.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (status) => {
      const stderr = Buffer.concat(err).toString('utf8');
      const peak = /peak-rss-kb (\d+)/.exec(stderr);
      resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr, peakMB: peak ? Number(peak[1]) / 1024 : Infinity });
    });
  });
}

t.test(`peak memory stays under ${LIMIT_MB} MB: a 200 MiB first line, and lines just under the longest parsed`, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'txcript-grep-memory-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const huge = join(dir, 'huge.jsonl');
  write(huge, 200, 'word', 'needle');
  const under = LINE_LIMIT / (1 << 20) - 0.5;
  const files = [huge];
  for (const [name, word] of [['latin', 'word'], ['two-byte', 'café']]) {
    for (const copy of ['a', 'b']) {
      const file = join(dir, `${name}-${copy}.jsonl`);
      write(file, under, word, 'needle');
      files.push(file);
    }
  }
  for (const jobs of ['1', '2']) {
    const r = await grepPeak(['-F', 'needle', '--jobs', jobs, ...files]);
    t.equal(r.status, 0, `--jobs ${jobs}: status 0`);
    t.ok(r.peakMB < LIMIT_MB, `--jobs ${jobs}: peak ${r.peakMB.toFixed(0)} MB`);
    const hits = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    t.same(
      hits.map((h) => [h.path, h.n, h.title]),
      [[huge, 2, null], ...files.slice(1).flatMap((f) => [[f, 1, 'Named'], [f, 2, 'Named']])],
      `--jobs ${jobs}: the long line under the limit is searched; the 200 MiB one is not, and its file's title is not read`,
    );
    t.match(r.stderr, /huge\.jsonl:1: line longer than \d+ bytes, not searched/);
    t.match(r.stderr, /huge\.jsonl: a line is longer than \d+ MiB: its title is not read/);
  }
});
