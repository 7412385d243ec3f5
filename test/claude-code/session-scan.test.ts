// The shallow scan: what it reads from a line, how little of a file it reads, and
// that it agrees with a full parse however the lines fall across its read chunks.
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ChunkReader, countLines, linesWithValue, ReadCounter } from '../../lib/core/input/file-lines.js';
import { firstPrompt, scanSession } from '../../lib/claude-code/session-scan.js';
import { assistantLine, fullFields, line, userLine } from './store-helpers.js';

const ID = '22222222-2222-4222-8222-222222222222';

function scan(file: string, opts = {}) {
  return scanSession(file, statSync(file).size, opts);
}

function write(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

t.test('envelope fields are found wherever they sit in the line (key order changed around 2.1.15x)', async (t) => {
  const dir = t.testdir({});
  const late = JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' }, uuid: 'u', timestamp: '2026-03-01T00:00:00.000Z', cwd: '/late', sessionId: ID, version: '2.1.200', gitBranch: 'dev' }) + '\n';
  const f = write(dir, 'a.jsonl', late + assistantLine(ID, 'claude-x'));
  const s = scan(f);
  t.same([s.id, s.cwd, s.version, s.git_branch, s.started_at, s.model], [ID, '/late', '2.1.200', 'dev', '2026-03-01T00:00:00.000Z', 'claude-x']);
});

t.test('the model skips <synthetic> and is only read from assistant lines', async (t) => {
  const dir = t.testdir({});
  const f = write(dir, 'a.jsonl', line({ type: 'user', sessionId: ID, message: { role: 'user', model: 'not-me', content: 'x' } }) + assistantLine(ID, '<synthetic>') + assistantLine(ID, 'claude-real'));
  t.equal(scan(f).model, 'claude-real');
});

t.test('CRLF line ends, a BOM, a broken line and two glued objects are read as tx-parse reads them', async (t) => {
  const dir = t.testdir({});
  const text = '\ufeff' + line({ type: 'summary', summary: 'S1', leafUuid: 'x' }).replace('\n', '\r\n') + '{"type":"user","cwd":"/broken",\n' + userLine(ID, 'hi').trimEnd() + line({ type: 'custom-title', customTitle: 'glued title', sessionId: ID }) + assistantLine(ID, 'm');
  const f = write(dir, 'a.jsonl', text);
  const want = await fullFields(f);
  const got = scan(f);
  t.same({ ...got, lines: want.lines }, want);
  t.equal(got.cwd, '/w', 'the broken line is not read');
  t.equal(got.title, 'glued title', 'the second of two glued objects counts');
});

t.test('after the head, a large file is searched once for title values: only the lines holding one are cut out', async (t) => {
  const dir = t.testdir({});
  // A 4 MB line between the head and the title; the word "summary" inside it is text, not a title line.
  const big = userLine(ID, 'start') + assistantLine(ID, 'm') + userLine(ID, 'y'.repeat(4 << 20) + ' "summary" summary') + line({ type: 'custom-title', customTitle: 'T', sessionId: ID });
  const f = write(dir, 'big.jsonl', big);
  const counter = new ReadCounter();
  const s = scan(f, { counter });
  t.equal(s.title, 'T');
  t.ok(counter.bytes < big.length + 64 * 1024, `read ${counter.bytes} of ${big.length} bytes: the file once (and the head's first reads and the title line again), not the 4 MB line a second time`);
  t.same(scan(f, { deep: true }), s, '--deep finds the same fields');
});

t.test('whatever the line sizes, the scan agrees with a full parse on fields found in the head and titles in the tail', async (t) => {
  const dir = t.testdir({});
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
  for (let k = 0; k < 40; k++) {
    let text = '';
    const lines = 2 + rand(30);
    for (let i = 0; i < lines; i++) {
      const pad = 'é😀"\\'.repeat(rand(3) === 0 ? rand(20000) : rand(50));
      const r = rand(6);
      if (r === 0) text += line({ type: 'summary', summary: `sum ${i} ${pad.slice(0, 10)}`, leafUuid: 'x' });
      else if (r === 1) text += assistantLine(rand(2) ? ID : '', `model-${i}`, { cwd: `/c${i}`, pad });
      else if (r === 2) text += line({ type: 'agent-name', agentName: `agent ${i}`, sessionId: ID });
      else if (r === 3 && rand(3) === 0) text += line({ type: 'custom-title', customTitle: `custom ${i}`, sessionId: ID });
      else text += userLine(rand(3) ? ID : '', `p ${pad}`, { gitBranch: `b${i}`, version: `v${i}` });
    }
    const f = write(dir, `r${k}.jsonl`, text);
    const want = await fullFields(f);
    const deep = scan(f, { deep: true });
    t.same({ ...deep, lines: want.lines }, want, `file ${k} (${text.length} bytes) --deep`);
    const shallow = scan(f);
    t.same({ ...shallow, lines: want.lines }, want, `file ${k} (${text.length} bytes) by head and title search`);
  }
});

t.test('titles found by the byte search agree with a full parse anywhere in the file, whatever the line sizes, line ends and decoys', async (t) => {
  const dir = t.testdir({});
  let seed = 11;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
  for (let k = 0; k < 30; k++) {
    const eol = (s: string) => (rand(3) === 0 ? s.replace(/\n$/, '\r\n') : s);
    // The envelope is complete in the first two lines, so the head scan stops there.
    let text = (rand(2) ? '\ufeff' : '') + eol(userLine(ID, 'start')) + eol(assistantLine(ID, 'm'));
    for (let i = 0, n = 5 + rand(10); i < n; i++) text += eol(userLine(ID, 'f'.repeat(rand(40000))));
    let tail = '';
    for (let i = 0, n = 1 + rand(12); i < n; i++) {
      const pad = 'ü"\\'.repeat(rand(4) === 0 ? rand(12000) : rand(30));
      const r = rand(5);
      if (r === 0) tail += eol(line({ type: 'custom-title', customTitle: `custom ${k}.${i}`, sessionId: ID, pad }));
      else if (r === 1) tail += eol(line({ type: 'agent-name', agentName: `agent ${k}.${i}`, sessionId: ID }));
      else if (r === 2) tail += eol(line({ type: 'ai-title', aiTitle: `ai ${k}.${i}`, sessionId: ID }));
      else if (r === 3) tail += eol(line({ type: 'summary', summary: `sum ${k}.${i}`, leafUuid: 'x' }));
      // Decoys: the title types as text, as a key, and as another field's value.
      else if (rand(2)) tail += eol(userLine(ID, `${pad} "custom-title" "summary" ai-title`, { summary: 'a key, not a title', kind: 'agent-name' }));
      else tail += eol(userLine(ID, pad));
      // Filler between title lines, so they fall in different reads.
      if (rand(3) === 0) tail += eol(userLine(ID, 'g'.repeat(rand(1 << 21))));
    }
    if (rand(3) === 0) tail = tail.replace(/\r?\n$/, '');
    text += tail;
    const f = write(dir, `t${k}.jsonl`, text);
    const want = await fullFields(f);
    const got = scan(f);
    t.same([got.title, got.ai_title], [want.title, want.ai_title], `file ${k}: ${Buffer.byteLength(text)} bytes`);
  }
});

t.test('countLines counts as tx-parse numbers lines: a last line without newline counts, an empty file has none', async (t) => {
  const dir = t.testdir({});
  for (const [text, n] of [
    ['', 0],
    ['a', 1],
    ['a\n', 1],
    ['a\n\nb', 3],
    ['\n', 1],
  ] as const) {
    const f = write(dir, `c${n}${text.length}.jsonl`, text);
    t.equal(countLines(f, statSync(f).size), n, JSON.stringify(text));
  }
});

t.test('firstPrompt skips command envelopes, injected text, tool results and sidechain turns', async (t) => {
  const dir = t.testdir({});
  const text =
    userLine(ID, '<command-name>/clear</command-name>') +
    userLine(ID, '<system-reminder>x</system-reminder>') +
    line({ type: 'user', sessionId: ID, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'r' }] } }) +
    userLine(ID, 'from the parent agent', { isSidechain: true }) +
    userLine(ID, 'the real one '.repeat(40));
  const f = write(dir, 'p.jsonl', text);
  const p = firstPrompt(f, Buffer.byteLength(text), 20);
  t.equal(p, 'the real one the rea…');
});

t.test('two title searches at once each read their own file: the shared search buffer is lent to one at a time', async (t) => {
  const dir = t.testdir({});
  const files = ['a', 'b'].map((name) => {
    let text = '';
    for (let i = 0; i < 40; i++) text += line({ type: 'summary', summary: `${name}${i}`, leafUuid: 'x' }) + userLine(ID, name.repeat(60_000));
    return write(dir, `${name}.jsonl`, text);
  });
  const readers = files.map((f) => new ChunkReader(f, statSync(f).size));
  const searches = readers.map((r) => linesWithValue(r, 0, ['summary']));
  const got: string[][] = [[], []];
  // Interleaved, as two scans never run in the tool, but must still be right if they did.
  for (let done = 0; done < 2; ) {
    done = 0;
    for (const k of [0, 1]) {
      const next = searches[k].next();
      if (next.done) done++;
      else got[k].push(JSON.parse(next.value.toString()).summary);
    }
  }
  for (const r of readers) r.close();
  t.same(got[0], Array.from({ length: 40 }, (_, i) => `a${i}`));
  t.same(got[1], Array.from({ length: 40 }, (_, i) => `b${i}`));
});
