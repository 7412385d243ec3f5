// tx-parse and tx-native together: nothing lost, nothing invented, on every input.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import { corpusFiles, repo, runBin, runTool } from '../helpers.js';

/** Physical lines in a byte string: newlines, plus one for a non-empty unterminated tail. */
function physicalLines(bytes: Buffer): number {
  let n = 0;
  for (const b of bytes) if (b === 0x0a) n++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) n++;
  return n;
}

/** Check one input: it round-trips, and there is one record per physical line (glued objects marked). */
async function checkLossless(t: Test, name: string, bytes: Buffer): Promise<any[]> {
  const parsed = await runTool(parseTool, [], [bytes]);
  t.not(parsed.stderr.includes('internal error'), true, `${name}: no internal error`);
  const back = await runTool(nativeTool, [], [parsed.stdout]);
  t.ok(back.stdout.equals(bytes), `${name}: tx-parse | tx-native gives back the same bytes`);
  const records = parsed.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  t.equal(records.filter((r) => !r.glued).length, physicalLines(bytes), `${name}: one record per physical line`);
  t.same(records.filter((r) => !r.glued).map((r) => r.n), records.filter((r) => !r.glued).map((_, i) => i + 1), `${name}: numbered in order`);
  return records;
}


t.test('every corpus file round-trips byte for byte through tx-parse | tx-native (real bins)', async (t) => {
  const files = [...corpusFiles('claude-code'), ...corpusFiles('codex')];
  if (files.length === 0) { t.plan(0, 'no corpus beside this checkout'); return; }
  for (const f of files) {
    const bytes = readFileSync(f);
    const parsed = await runBin('tx-parse', [f]);
    t.equal(parsed.status, 0, `${f}: exit 0`);
    const back = await runBin('tx-native', [], parsed.stdout);
    t.ok(back.stdout.equals(bytes), `${f}: same bytes`);
  }
});

t.test('every corpus file: one record per physical line, none invented', async (t) => {
  const files = [...corpusFiles('claude-code'), ...corpusFiles('codex')];
  if (files.length === 0) { t.plan(0, 'no corpus beside this checkout'); return; }
  for (const f of files) await checkLossless(t, f, readFileSync(f));
});

t.test('the fixtures made to break it round-trip, with the right flags', async (t) => {
  const dir = repo('fixtures', 'parse');
  const want: Record<string, (records: any[]) => void> = {
    'crlf.jsonl': (r) => t.same(r.map((x) => x.crlf), [true, true]),
    'crlf-no-final-newline.jsonl': (r) => t.same(r.map((x) => [x.crlf, x.eol]), [[true, undefined], [undefined, false]]),
    'bom.jsonl': (r) => t.same(r.map((x) => x.bom), [true, undefined]),
    'no-final-newline.jsonl': (r) => t.same(r.map((x) => x.eol), [undefined, false]),
    'glued.jsonl': (r) => t.same(r.map((x) => [x.n, x.kind, x.glued, x.eol]), [[1, 'prompt', undefined, undefined], [2, 'assistant', undefined, false], [2, 'summary', true, undefined]]),
    'glued-crlf.jsonl': (r) => t.same(r.map((x) => [x.glued, x.eol, x.crlf]), [[undefined, false, undefined], [true, undefined, true]]),
    'invalid-json.jsonl': (r) => t.same(r.map((x) => x.kind), ['prompt', 'invalid', 'assistant']),
    'invalid-utf8.jsonl': (r) => t.same(r.map((x) => [x.kind, typeof x.raw_base64]), [['prompt', 'undefined'], ['invalid', 'string'], ['invalid', 'string'], ['assistant', 'undefined']]),
    'empty.jsonl': (r) => t.same(r, []),
    'blank-lines.jsonl': (r) => t.same(r.map((x) => [x.kind, x.raw]), [['invalid', ''], ['invalid', '  '], ['invalid', '\t']]),
    'spacing-and-non-objects.jsonl': (r) => t.same(r.map((x) => x.kind), ['prompt', 'other', 'other']),
  };
  t.same(readdirSync(dir).sort(), Object.keys(want).sort(), 'every fixture has its expectation');
  for (const [name, check] of Object.entries(want)) {
    const records = await checkLossless(t, name, readFileSync(join(dir, name)));
    check(records);
  }
});

t.test('invalid lines are reported on stderr as FILE:LINE and counted under --strict', async (t) => {
  const f = 'fixtures/parse/invalid-json.jsonl';
  const lax = await runBin('tx-parse', [f]);
  t.equal(lax.status, 0);
  t.match(lax.stderr, `tx-parse: ${f}:2: not JSON, kept as an invalid record`);
  const strict = await runBin('tx-parse', ['--strict', f]);
  t.equal(strict.status, 1);
  t.ok(strict.stdout.equals(lax.stdout), 'the same records are written under --strict');
});

t.test('a record stream from stdin has no src; from files it names each file', async (t) => {
  const stdin = await runTool(parseTool, [], [readFileSync(repo('fixtures/parse/crlf.jsonl'))]);
  t.notMatch(stdin.stdout.toString(), /"src"/);
  const files = await runBin('tx-parse', ['fixtures/parse/crlf.jsonl', '-', 'fixtures/parse/bom.jsonl'], '{"type":"mode"}\n');
  const srcs = files.stdout.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l).src ?? null);
  t.same(srcs, ['fixtures/parse/crlf.jsonl', 'fixtures/parse/crlf.jsonl', null, 'fixtures/parse/bom.jsonl', 'fixtures/parse/bom.jsonl']);
});

t.test('a missing file is reported, the others are still read, exit 1', async (t) => {
  const missing = join(t.testdir({}), 'no', 'such.jsonl');
  const r = await runBin('tx-parse', [missing, 'fixtures/parse/crlf.jsonl']);
  t.equal(r.status, 1);
  t.match(r.stderr, `tx-parse: ${missing}: cannot read: no such file`);
  t.equal(r.stdout.toString().split('\n').filter(Boolean).length, 2);
});

t.test('a small file delivered in two chunks split at every byte offset gives the same records', async (t) => {
  const input = Buffer.concat([readFileSync(repo('fixtures/parse/bom.jsonl')), readFileSync(repo('fixtures/parse/glued-crlf.jsonl')), Buffer.from('{"bad\n\xff')]);
  const whole = await runTool(parseTool, [], [input]);
  for (let i = 1; i < input.length; i++) {
    const split = await runTool(parseTool, [], [input.subarray(0, i), input.subarray(i)]);
    if (!split.stdout.equals(whole.stdout)) {
      t.fail(`split at ${i} differs`);
      return;
    }
  }
  t.pass(`all ${input.length - 1} split points give the same records`);
});

t.test('fuzz: random bytes always round-trip, one record per line, no internal error', async (t) => {
  let seed = 42;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const pieces = ['{', '}', '"', ':', ',', '\\', '\n', '\r', '\r\n', ' ', 'a', '1', '[', ']', '\xef\xbb\xbf', '\xff', '{"type":"user"}', 'é', '\u2028', 'null'];
  for (let round = 0; round < 150; round++) {
    const input = Buffer.from(Array.from({ length: rnd(40) }, () => pieces[rnd(pieces.length)]).join(''), 'latin1');
    await checkLossless(t, `random ${round}`, input);
  }
});

t.test('fuzz: real lines cut at random offsets and joined always round-trip', async (t) => {
  const files = corpusFiles('claude-code');
  if (files.length === 0) { t.plan(0, 'no corpus beside this checkout'); return; }
  const lines = files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.length > 0 && l.length < 5000).slice(0, 30));
  let seed = 1;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let round = 0; round < 60; round++) {
    const parts: Buffer[] = [];
    for (let k = 0; k < 6; k++) {
      const line = Buffer.from(lines[rnd(lines.length)]);
      const cut = rnd(line.length + 1);
      parts.push(rnd(2) ? line.subarray(0, cut) : line.subarray(cut));
      const sep = rnd(4);
      parts.push(Buffer.from(sep === 0 ? '' : sep === 1 ? '\r\n' : '\n'));
    }
    await checkLossless(t, `cut ${round}`, Buffer.concat(parts));
  }
});

t.test('a 64 MB line round-trips through the real bins', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-big-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const big = join(dir, 'big.jsonl');
  const text = 'x'.repeat(64 * 1024 * 1024);
  writeFileSync(big, `{"type":"user","message":{"role":"user","content":"hi"}}\n{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"${text}"}]}}\n`);
  const out = execFileSync('bash', ['-c', `node "${repo('build/bin/tx-parse.js')}" "${big}" | node "${repo('build/bin/tx-native.js')}" | cmp - "${big}" && echo same`]).toString();
  t.equal(out.trim(), 'same');
});

t.test('tx-parse big.jsonl | head -1 exits 0 with nothing on stderr', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-pipe-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const big = join(dir, 'big.jsonl');
  const line = JSON.stringify({ type: 'user', message: { role: 'user', content: 'y'.repeat(2000) } });
  writeFileSync(big, (line + '\n').repeat(20000));
  for (const bin of ['tx-parse', 'tx-native']) {
    const input = bin === 'tx-parse' ? `"${big}"` : `< <(node "${repo('build/bin/tx-parse.js')}" "${big}")`;
    const out = execFileSync('bash', ['-c', `node "${repo(`build/bin/${bin}.js`)}" ${input} 2>"${dir}/err" | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"; cat "${dir}/err"`]).toString();
    t.equal(out, '0\n', `${bin}: status 0, empty stderr`);
  }
});

t.test('usage: --help, --version, an unknown option', async (t) => {
  const help = await runBin('tx-parse', ['--help']);
  t.equal(help.status, 0);
  t.match(help.stdout.toString(), /^usage: tx-parse/);
  const version = await runBin('tx-native', ['--version']);
  t.match(version.stdout.toString(), /^tx-native \d+\.\d+\.\d+\n$/);
  const bad = await runBin('tx-parse', ['--frobnicate']);
  t.equal(bad.status, 2);
  t.equal(bad.stderr, 'tx-parse: unknown option --frobnicate (see tx-parse --help)\n');
});

t.test('tx-native skips and reports lines that are neither records, Common lines nor native lines; native lines go back unchanged', async (t) => {
  const r = await runBin('tx-native', [], '{"harness":"claude-code","n":1,"kind":"meta","line":{"type":"mode"}}\n[1]\n{"type":"user"}\n');
  t.equal(r.stdout.toString(), '{"type":"mode"}\n{"type":"user"}\n');
  t.match(r.stderr, 'tx-native: stdin:2: neither a record nor a Common line, skipped');
  t.match(r.stderr, 'tx-native: stdin: native session lines, not records: written back unchanged');
});
