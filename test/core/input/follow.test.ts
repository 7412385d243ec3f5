// Following a growing file: what comes out is what tx-parse makes of the file, never a
// line before its newline, and truncation, replacement and new files are noticed.
import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import t from 'tap';
import { SourceParser } from '../../../lib/records/source-parser.js';
import { parseTool } from '../../../lib/commands/parse.js';
import { follow, FollowedFile, type FollowEvent } from '../../../lib/core/input/follow.js';
import { LineSplitter } from '../../../lib/core/input/lines.js';
import { Output } from '../../../lib/core/output/output.js';
import type { Context } from '../../../lib/core/tool.js';
import { repo, runTool } from '../../helpers.js';

const FIXTURE = repo('fixtures/recorded/subagent/projects/-tmp-txcript-rec-subagent-work/00000000-0000-4000-8000-0000000000d1.jsonl');

/** tx-parse's records for a file's bytes, as one buffer, with a fixed src. */
async function parsed(bytes: Buffer, src: string): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'tx-follow-ref-'));
  try {
    const file = join(dir, 'ref.jsonl');
    writeFileSync(file, bytes);
    const r = await runTool(parseTool, [file], []);
    return Buffer.from(r.stdout.toString('utf8').split(JSON.stringify(file)).join(JSON.stringify(src)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A SourceParser writing into memory, as tx-parse --follow drives it. */
function recorder(src: string) {
  const chunks: Buffer[] = [];
  const out = new Output(new Writable({ write: (c, _e, cb) => (chunks.push(Buffer.from(c)), cb()) }));
  const ctx = { out, warn() {}, note() {} } as unknown as Context;
  const splitter = new LineSplitter();
  const parser = new SourceParser(ctx, src);
  return {
    take(events: Iterable<FollowEvent>) {
      for (const e of events) if (e.type === 'data') parser.push(splitter.push(e.chunk));
    },
    end() {
      parser.push(splitter.end());
    },
    async bytes(): Promise<Buffer> {
      await out.flush();
      return Buffer.concat(chunks);
    },
  };
}

t.test('a line appended in two writes, split at every byte offset, comes out once, whole, as tx-parse writes it', async (t) => {
  const lines = readFileSync(FIXTURE).toString('utf8').split('\n');
  // Line 6 holds non-ASCII text; the CR LF variant shows a split between CR and LF.
  for (const eol of ['\n', '\r\n']) {
    const before = Buffer.from(lines[4] + eol);
    const line = Buffer.from(lines[5] + eol);
    const after = Buffer.from(lines[6] + eol);
    const whole = Buffer.concat([before, line, after]);
    const want = await parsed(whole, 'f');
    const wantBefore = await parsed(before, 'f');
    t.ok(/[^\x00-\x7f]/.test(lines[5]), 'the split line holds multi-byte characters');
    const dir = mkdtempSync(join(tmpdir(), 'tx-follow-'));
    const file = join(dir, 'f.jsonl');
    let bad = 0;
    for (let k = 0; k <= line.length; k++) {
      writeFileSync(file, Buffer.concat([before, line.subarray(0, k)]));
      const followed = new FollowedFile(file);
      const rec = recorder('f');
      rec.take(followed.poll());
      const early = await rec.bytes();
      // Only the line before is complete until the newline arrives.
      const wantEarly = k === line.length ? await parsed(Buffer.concat([before, line]), 'f') : wantBefore;
      appendFileSync(file, Buffer.concat([line.subarray(k), after]));
      rec.take(followed.poll());
      rec.end();
      followed.close();
      const got = await rec.bytes();
      if (!early.equals(wantEarly) || !got.equals(want)) {
        bad++;
        t.fail(`split at byte ${k} (${JSON.stringify(eol)}): ${early.equals(wantEarly) ? 'final output differs' : 'a partial line came out early'}`);
      }
    }
    t.equal(bad, 0, `all ${line.length + 1} split points of a ${line.length}-byte line (${JSON.stringify(eol)}) agree with tx-parse`);
    rmSync(dir, { recursive: true, force: true });
  }
});

t.test('a file shorter than the offset was truncated: a restart, then its new content from 0', async (t) => {
  const dir = t.testdir({ 'f.jsonl': '{"a":1}\n{"b":2}\n' });
  const file = join(dir, 'f.jsonl');
  const followed = new FollowedFile(file);
  t.same([...followed.poll()].map((e) => e.type), ['data']);
  truncateSync(file, 0);
  appendFileSync(file, '{"c":3}\n');
  const events = [...followed.poll()];
  t.same(events.map((e) => (e.type === 'data' ? e.chunk.toString() : e.type === 'restart' ? e.why : e.type)), ['truncated', '{"c":3}\n']);
  followed.close();
});

t.test('a new file at the path is read from 0, after the old one is read to its end', async (t) => {
  const dir = t.testdir({ 'f.jsonl': '{"a":1}\n', 'next.jsonl': '{"new":1}\n' });
  const file = join(dir, 'f.jsonl');
  const followed = new FollowedFile(file);
  t.same([...followed.poll()].map((e) => e.type), ['data']);
  // The writer appends to the old file, then a new one is moved over the path.
  appendFileSync(file, '{"old":2}\n');
  renameSync(join(dir, 'next.jsonl'), file);
  const events = [...followed.poll()];
  t.same(events.map((e) => (e.type === 'data' ? e.chunk.toString() : e.type === 'restart' ? e.why : e.type)), ['{"old":2}\n', 'replaced', '{"new":1}\n']);
  t.same([...followed.poll()], [], 'nothing more until the new file grows');
  followed.close();
});

t.test('a file that is removed keeps being read from its descriptor until something appears at the path', async (t) => {
  const dir = t.testdir({ 'f.jsonl': '{"a":1}\n' });
  const file = join(dir, 'f.jsonl');
  const followed = new FollowedFile(file);
  [...followed.poll()];
  rmSync(file);
  t.same([...followed.poll()], [], 'no restart while the path is empty');
  writeFileSync(file, '{"b":1}\n');
  t.same([...followed.poll()].map((e) => e.type), ['restart', 'data']);
  followed.close();
});

t.test('follow(): appends are seen through fs.watch, a file found later is followed from its start, and stopping ends the loop after a last read', async (t) => {
  const dir = t.testdir({ 'main.jsonl': '{"m":1}\n', sub: {} });
  const main = join(dir, 'main.jsonl');
  const sub = join(dir, 'sub', 'agent-x.jsonl');
  const stop = new AbortController();
  const seen: string[] = [];
  let subVisible = false;
  const loop = (async () => {
    for await (const e of follow({
      files: [main],
      discover: () => ({ files: subVisible ? [sub] : [], dirs: [join(dir, 'sub')] }),
      signal: stop.signal,
      onSkip: (file) => seen.push(`skip ${file}`),
      // No poll within the test: every change must come through fs.watch.
      intervalMs: 60_000,
    })) {
      if (e.type === 'data') seen.push(`${e.file === main ? 'main' : 'sub'} ${e.chunk.toString().trim()}`);
    }
  })();
  const until = async (what: string) => {
    for (let i = 0; i < 200 && !seen.includes(what); i++) await new Promise((r) => setTimeout(r, 20));
    t.ok(seen.includes(what), `saw ${what}`);
  };
  await until('main {"m":1}');
  appendFileSync(main, '{"m":2}\n');
  await until('main {"m":2}');
  writeFileSync(sub, '{"s":1}\n');
  subVisible = true;
  await until('sub {"s":1}');
  appendFileSync(main, '{"m":3}\n');
  stop.abort();
  await loop;
  t.same(seen, ['main {"m":1}', 'main {"m":2}', 'sub {"s":1}', 'main {"m":3}'], 'in order, each once, the last append read after the stop');
});

t.test('follow(): a file that is not regular is skipped with a word, the others followed', async (t) => {
  const dir = t.testdir({ 'ok.jsonl': '{"a":1}\n', 'adir.jsonl': {} });
  const stop = new AbortController();
  const seen: string[] = [];
  for await (const e of follow({ files: [join(dir, 'adir.jsonl'), join(dir, 'ok.jsonl')], signal: stop.signal, onSkip: (f, err) => seen.push(`skip ${f.endsWith('adir.jsonl')} ${(err as Error).message}`), intervalMs: 10 })) {
    if (e.type === 'data') seen.push('data');
    if (e.type === 'idle') stop.abort();
  }
  t.same(seen, ['skip true a directory, not a regular file', 'data']);
});
