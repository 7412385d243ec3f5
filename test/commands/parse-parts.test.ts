// One large file cut into parts on workers (lib/core/input/file-parts.ts): the cuts fall at
// line boundaries with the right line counts before them, and tx-parse writes, on
// stdout and stderr, exactly what one thread writes, whatever falls at a cut: an
// invalid line after a Codex line, a CR LF, a glued line, a long line, a record.
// TX_PART_SIZE makes small files worth cutting.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { corpusFiles, prng, runBin } from '../helpers.js';

process.env.TX_PART_SIZE = '64';
const { fileParts } = await import('../../lib/core/input/file-parts.js');
const { harnessBefore } = await import('../../lib/records/source-parser.js');

const dir = mkdtempSync(path.join(tmpdir(), 'tx-parts-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let made = 0;
const file = (bytes: string | Buffer) => {
  const f = path.join(dir, `f${made++}.jsonl`);
  writeFileSync(f, bytes);
  return f;
};

t.test('parts cover the file, start at line starts, and count the lines before them', async (t) => {
  const rnd = prng(7);
  let cut = 0;
  for (let i = 0; i < 200; i++) {
    const lines = Array.from({ length: 1 + Math.floor(rnd() * 80) }, () => 'x'.repeat(Math.floor(rnd() * 120)));
    const text = lines.join(rnd() < 0.5 ? '\n' : '\r\n') + (rnd() < 0.5 ? '\n' : '');
    const f = file(text);
    const parts = fileParts(f);
    const bytes = Buffer.from(text);
    // Too small, or too few newlines past the nominal cuts: not cut (checked below).
    if (!parts) continue;
    cut++;
    t.ok(parts.length >= 2, `${parts.length} parts`);
    t.equal(parts[0].start, 0);
    t.equal(parts[parts.length - 1].end, bytes.length);
    for (let k = 0; k < parts.length; k++) {
      if (k > 0) {
        t.equal(parts[k].start, parts[k - 1].end, 'parts are contiguous');
        t.equal(bytes[parts[k].start - 1], 0x0a, 'a part starts just past a newline');
      }
      let before = 0;
      for (let j = 0; j < parts[k].start; j++) if (bytes[j] === 0x0a) before++;
      t.equal(parts[k].linesBefore, before, 'lines before the part are counted');
      if (k < parts.length - 1) t.ok(parts[k].end - parts[k].start >= 64, 'a part but the last holds at least the part size');
      else t.ok(parts[k].end > parts[k].start, 'the last part is not empty');
    }
  }
  t.ok(cut > 100, `${cut} of 200 random files were cut`);
});

t.test('a file too small, or not a regular file, is not cut', async (t) => {
  t.equal(fileParts(file('{"a":1}\n'.repeat(200))), null, 'below 32 parts');
  t.equal(fileParts(dir), null, 'a directory');
  t.equal(fileParts(path.join(dir, 'missing')), null, 'a missing file');
  t.equal(fileParts(file('x'.repeat(3000))), null, 'one line without a newline');
});

t.test('harnessBefore: the last line before the offset that is not invalid', async (t) => {
  const codex = '{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}';
  const claude = '{"type":"user","uuid":"u","sessionId":"s","message":{"role":"user","content":"hi"}}';
  const text = `${claude}\n${codex}\nnot json\n\n{broken\n`;
  const f = file(text);
  t.equal(harnessBefore(f, text.length), 'codex', 'past three invalid lines');
  t.equal(harnessBefore(f, claude.length + 1), 'claude-code');
  t.equal(harnessBefore(f, 0), 'claude-code', 'nothing before the start');
  const long = `${codex}\n${'z'.repeat(300000)}\n`;
  t.equal(harnessBefore(file(long), long.length), 'codex', 'back past an invalid line longer than the window');
  const bom = `\ufeff${codex}\r\n`;
  t.equal(harnessBefore(file(bom), Buffer.byteLength(bom)), 'codex', 'a first line with a BOM and CR LF');
});

/** tx-parse with one thread and with parts: stdout, stderr and status must be the same. */
async function sameBothWays(t: Test, f: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const base = { ...process.env, TX_PART_SIZE: '64', ...env };
  const one = await runBin('tx-parse', ['--jobs', '1', ...extra, f], undefined, base);
  const many = await runBin('tx-parse', ['--jobs', '3', ...extra, f], undefined, base);
  t.equal(many.status, one.status, `${path.basename(f)}: status`);
  t.ok(many.stdout.equals(one.stdout), `${path.basename(f)}: the same records`);
  t.equal(many.stderr, one.stderr, `${path.basename(f)}: the same messages`);
}

t.test('what falls at a cut is read as by one thread', async (t) => {
  const codex = (i: number) => `{"timestamp":"2025-01-01T00:00:0${i % 10}Z","type":"event_msg","payload":{"type":"agent_message","message":"m${i}"}}`;
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) {
    lines.push(codex(i));
    if (i % 3 === 0) lines.push('not json at all');
    if (i % 5 === 0) lines.push('');
    if (i % 7 === 0) lines.push('{"type":"summary","summary":"a"}{"type":"summary","summary":"b"}');
    if (i % 11 === 0) lines.push('"just a string"');
  }
  await sameBothWays(t, file(lines.join('\n') + '\n'), ['--strict']);
  await sameBothWays(t, file('\ufeff' + lines.join('\r\n')), ['--strict']);
  await sameBothWays(t, file(lines.join('\n') + '\n'), [], { TX_LONG_LINE: '90' });
  // A records file: the note is said once, not once per part.
  const records = await runBin('tx-parse', ['--jobs', '1', file(lines.join('\n') + '\n')]);
  await sameBothWays(t, file(records.stdout));
});

t.test('every corpus file reads the same in parts', async (t) => {
  const files = [...corpusFiles('claude-code'), ...corpusFiles('codex')];
  if (files.length === 0) {
    t.comment('skipped: no corpus beside the repository (../shared/corpus)');
    return;
  }
  // Large parts keep the run short; every file still has cuts in it.
  for (const f of files) {
    const size = readFileSync(f).length;
    await sameBothWays(t, f, [], { TX_PART_SIZE: String(Math.max(64, Math.floor(size / 40))) });
  }
});

t.test('harnessBefore passes over lines that hand on the harness before them', async (t) => {
  const codex = '{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}';
  const record = '{"harness":"claude-code","n":1,"kind":"prompt","line":{"type":"user"}}';
  const text = `${codex}\n"a string"\n${record}\n[1,2]\n`;
  t.equal(harnessBefore(file(text), text.length), 'codex', 'past a non-object value, a record and an array');
});

t.test('an invalid line too long to parse just before a cut is passed over without holding it', async (t) => {
  const codex = '{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}';
  const text = `${codex}\n${'{'.repeat(200000)}\n${'x\n'.repeat(50)}${codex}\n`;
  const f = file(text);
  const env = { TX_LONG_LINE: '1000', TX_PART_SIZE: '5000' };
  await sameBothWays(t, f, [], env);
  const many = await runBin('tx-parse', ['--jobs', '2', f], undefined, { ...process.env, ...env });
  const third = JSON.parse(many.stdout.toString().split('\n')[2]);
  t.same([third.n, third.harness, third.kind], [3, 'codex', 'invalid'], 'the first line of the second part has the harness of line 1');
});

t.test('a FIFO named alone is read as a stream, its writer undisturbed', async (t) => {
  const { execFileSync, spawn } = await import('node:child_process');
  const fifo = path.join(dir, 'live.fifo');
  execFileSync('mkfifo', [fifo]);
  const text = '{"type":"summary","summary":"a"}\n'.repeat(1000);
  // The writer blocks in open until a reader comes; a reader that opened and closed at once would kill it.
  const writer = spawn('sh', ['-c', `cat > '${fifo}'`], { stdio: ['pipe', 'ignore', 'ignore'] });
  writer.stdin.end(text);
  const r = await runBin('tx-parse', ['--jobs', '2', fifo], undefined, { ...process.env, TX_PART_SIZE: '64' });
  t.equal(r.status, 0);
  t.equal(r.stdout.toString().split('\n').filter(Boolean).length, 1000, 'every line read');
});
