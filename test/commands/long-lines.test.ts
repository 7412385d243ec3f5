// Lines too long to hold: they become records written in pieces, and the lines after them follow.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { LineSplitter, isLongPiece, type LineItem } from '../../lib/core/input/lines.js';
import { repo, runBin } from '../helpers.js';

/** Every byte of the input, rebuilt from what the splitter reported. */
function rebuild(items: LineItem[]): Buffer {
  const parts: Buffer[] = [];
  for (const l of items) {
    if (isLongPiece(l)) {
      parts.push(l.bytes);
      if (l.last && l.eol) parts.push(Buffer.from('\n'));
      continue;
    }
    if (l.bom) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
    parts.push(l.bytes);
    if (l.eol) parts.push(Buffer.from(l.crlf ? '\r\n' : '\n'));
  }
  return Buffer.concat(parts);
}

t.test('with a limit of 8 bytes, a long line comes out in pieces (first once, last once) and every byte survives, wherever the chunks are cut', async (t) => {
  const input = Buffer.from('short\n0123456789abcdef\r\nok\n' + 'x'.repeat(30));
  for (let cut = 1; cut < input.length; cut++) {
    const s = new LineSplitter(8);
    const items = [...s.push(input.subarray(0, cut)), ...s.push(input.subarray(cut)), ...s.end()];
    t.ok(rebuild(items).equals(input), `cut at ${cut}: same bytes`);
    const long = items.filter(isLongPiece);
    t.same(long.filter((p) => p.first).map((p) => p.n), [2, 4], `cut at ${cut}: lines 2 and 4 are long`);
    t.same(long.filter((p) => p.last).map((p) => [p.n, p.eol]), [[2, true], [4, false]], `cut at ${cut}: each ends once, the last without newline`);
    t.same(items.filter((i) => !isLongPiece(i)).map((i) => i.n), [1, 3], `cut at ${cut}: the short lines keep their numbers`);
  }
});

const session = (text: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: text }, sessionId: 's' });

t.test('tx-parse: a line over the limit (TX_LONG_LINE=1000 here) is an invalid record carrying every byte in raw_base64; the rest follows; tx-native gives the file back', async (t) => {
  const env = { ...process.env, TX_LONG_LINE: '1000' };
  const big = session('é'.repeat(3000));
  const input = Buffer.from(`${session('before')}\n${big}\r\n${session('after')}\n${'z'.repeat(5000)}`);
  const parsed = await runBin('tx-parse', [], input, env);
  t.equal(parsed.status, 0);
  t.match(parsed.stderr, /stdin:2: line longer than 1000 bytes, kept as an invalid record \(raw_base64\) without parsing/);
  const records = parsed.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l));
  t.same(records.map((r) => [r.n, r.kind]), [[1, 'prompt'], [2, 'invalid'], [3, 'prompt'], [4, 'invalid']], 'one record per line, in order');
  t.equal(Buffer.from(records[1].raw_base64, 'base64').toString(), big + '\r', 'the long line, CR included, is in raw_base64');
  t.equal(records[3].eol, false, 'the unterminated last line says so');
  const back = await runBin('tx-native', [], parsed.stdout, env);
  t.ok(back.stdout.equals(input), 'tx-parse | tx-native: same bytes');
  const kept = await runBin('tx-filter', ['--kind', 'invalid'], parsed.stdout, env);
  t.same(kept.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l).n), [2, 4], 'tx-filter copies long records its kind selects');
  const stats = await runBin('tx-stats', [], parsed.stdout, env);
  t.equal(stats.status, 0, 'tx-stats reads past them');
});

t.test('a 513 MiB line (longer than any JavaScript string) streamed through tx-parse | tx-native comes back byte for byte, and the next line with it', async (t) => {
  // The input is generated as a stream and hashed on both sides, so the test holds no
  // copy of it; the tools hold at most the 64 MiB limit of it at once.
  const size = 513 * 1024 * 1024;
  const gen = `const b=Buffer.alloc(1<<20,0x61);process.stdout.write('{"type":"user","x":"');let left=${size};function go(){while(left>0){const n=Math.min(left,b.length);left-=n;if(!process.stdout.write(b.subarray(0,n)))return process.stdout.once('drain',go);}process.stdout.write('"}\\n{"type":"summary","summary":"after"}\\n');}go();`;
  const expected = createHash('sha256');
  expected.update('{"type":"user","x":"');
  const block = Buffer.alloc(1 << 20, 0x61);
  for (let left = size; left > 0; left -= block.length) expected.update(block.subarray(0, Math.min(left, block.length)));
  expected.update('"}\n{"type":"summary","summary":"after"}\n');
  const dir = mkdtempSync(join(tmpdir(), 'tx-long-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'gen.cjs'), gen);
  const script = `node "${join(dir, 'gen.cjs')}" | node "${repo('build', 'bin', 'tx-parse.js')}" | node "${repo('build', 'bin', 'tx-native.js')}"`;
  const child = spawn('bash', ['-o', 'pipefail', '-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const got = createHash('sha256');
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => got.update(d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const status = await new Promise((resolve) => child.on('close', resolve));
  t.equal(status, 0, 'the pipeline succeeds');
  t.match(stderr, /stdin:1: line longer than 67108864 bytes/, 'tx-parse says which line it did not parse');
  t.equal(got.digest('hex'), expected.digest('hex'), 'same bytes out as in');
});
