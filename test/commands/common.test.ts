// tx-common end to end: each fixture of fixtures/common (one per row of the mapping
// table) gives its hand-written expected stream; several sessions in one stream;
// subagent transcripts and their parent; options and errors.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { parseTool } from '../../lib/commands/parse.js';
import { pipeline, repo, runBin, runTool } from '../helpers.js';

const lines = (b: Buffer) => b.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** tx-parse | tx-common, in process, on native bytes. */
async function common(native: string | Buffer, args: string[] = []) {
  const parsed = await runTool(parseTool, [], [native]);
  const out = await runTool(commonTool, args, [parsed.stdout]);
  return { ...out, lines: lines(out.stdout), stderr: parsed.stderr + out.stderr };
}

const FIXTURES = repo('fixtures', 'common');

for (const name of readdirSync(FIXTURES).sort()) {
  const dir = join(FIXTURES, name);
  const about = existsSync(join(dir, 'README')) ? readFileSync(join(dir, 'README'), 'utf8').trim() : name;
  t.test(`fixture ${name}: ${about}`, async (t) => {
    const args = existsSync(join(dir, 'args')) ? readFileSync(join(dir, 'args'), 'utf8').trim().split(/\s+/) : [];
    const r = await pipeline(readFileSync(join(dir, 'input.jsonl')), [
      ['tx-parse', []],
      ['tx-common', args],
    ]);
    const got = lines(r.stdout);
    const want = lines(readFileSync(join(dir, 'expected.jsonl')));
    t.equal(got.length, want.length, 'as many lines as expected');
    for (let i = 0; i < Math.max(got.length, want.length); i++) t.same(got[i], want[i], `line ${i + 1}`);
    if (existsSync(join(dir, 'expected.stderr'))) t.equal(r.stderrs.join(''), readFileSync(join(dir, 'expected.stderr'), 'utf8'), 'stderr');
    else t.equal(r.stderrs.join(''), '', 'nothing on stderr');
  });
}

const line = (o: object) => JSON.stringify(o) + '\n';
const u = (sessionId: string, uuid: string, parentUuid: string | null, text: string) =>
  line({ type: 'user', sessionId, uuid, parentUuid, timestamp: '2026-03-01T10:00:00.000Z', message: { role: 'user', content: text } });
const a = (sessionId: string, uuid: string, parentUuid: string, id: string, text: string) =>
  line({ type: 'assistant', sessionId, uuid, parentUuid, timestamp: '2026-03-01T10:00:01.000Z', message: { id, role: 'assistant', model: 'm', content: [{ type: 'text', text }] } });

t.test('two sessions piped through stdin one after the other give two session lines, each before its own messages', async (t) => {
  const r = await common(u('A', 'a1', null, 'one') + a('A', 'a2', 'a1', 'm1', 'ok') + u('B', 'b1', null, 'two') + a('B', 'b2', 'b1', 'm2', 'ok'));
  t.same(
    r.lines.map((l) => (l.type === 'session' ? `session ${l.id}` : l.id)),
    ['session A', 'a1', 'm1', 'session B', 'b1', 'm2'],
  );
});

t.test('a resumed file whose first line carries the older sessionId stays one session (that line continues no chain of its own)', async (t) => {
  const r = await common(u('OLD', 'x1', null, 'one') + a('NEW', 'x2', 'x1', 'm1', 'ok') + u('NEW', 'x3', 'x2', 'two'));
  t.same(r.lines.filter((l) => l.type === 'session').map((l) => l.id), ['OLD']);
  t.equal(r.lines.length, 4);
});

t.test('each file named is a session; an empty sessionId falls back to the file stem, and src names the file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-common-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const f1 = join(dir, 'stem-one.jsonl');
  const f2 = join(dir, 'stem-two.jsonl');
  writeFileSync(f1, u('', 'p1', null, 'hi') + a('', 'p2', 'p1', 'm1', 'ok'));
  writeFileSync(f2, u('S2', 'q1', null, 'hi'));
  const parsed = await runBin('tx-parse', [f1, f2]);
  const r = await runBin('tx-common', [], parsed.stdout);
  const sessions = lines(r.stdout).filter((l) => l.type === 'session');
  t.same(sessions.map((s) => [s.id, s.src]), [['stem-one', f1], ['S2', f2]]);
});

t.test('a subagent transcript is a session of its own linked to the tool call that spawned it (.meta.json), and --subagents reads them after their session', async (t) => {
  const root = repo('fixtures', 'recorded', 'subagent', 'projects');
  if (!existsSync(root)) {
    t.plan(0, 'no recorded subagent fixture');
    return;
  }
  const project = join(root, readdirSync(root)[0]);
  const main = readdirSync(project).find((f) => f.endsWith('.jsonl')) as string;
  const dir = mkdtempSync(join(tmpdir(), 'tx-common-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(project, dir, { recursive: true });
  const file = join(dir, main);
  const subDir = join(dir, main.replace(/\.jsonl$/, ''), 'subagents');
  const agentFile = readdirSync(subDir).find((f) => f.endsWith('.jsonl')) as string;
  const meta = JSON.parse(readFileSync(join(subDir, agentFile.replace(/\.jsonl$/, '.meta.json')), 'utf8'));
  const parsed = await runBin('tx-parse', [file]);
  const r = await runBin('tx-common', ['--subagents'], parsed.stdout);
  t.equal(r.status, 0);
  const sessions = lines(r.stdout).filter((l) => l.type === 'session');
  t.equal(sessions.length, 2, 'the session, then its subagent');
  const [parent, child] = sessions;
  t.equal(child.id, agentFile.replace(/\.jsonl$/, ''), 'the subagent session is named after its file');
  t.equal(child.parent.session, parent.id, 'parent.session is the spawning session');
  t.equal(child.parent.tool_use_id, meta.toolUseId, 'parent.tool_use_id from .meta.json');
  t.equal(child.parent.agent_type, meta.agentType);
  t.equal(child.parent.description, meta.description);
  const spawning = lines(r.stdout).filter((l) => l.type === 'message').flatMap((m) => m.content).find((b: any) => b.type === 'tool_use' && b.id === meta.toolUseId);
  t.equal(spawning?.tool?.kind, 'agent', 'the spawning call is in the parent session with an agent view');
});

t.test('invalid lines are counted once per source on stderr, and --strict makes them exit 1', async (t) => {
  const bad = u('S', 'v1', null, 'hi') + 'not json\nnot json either\n';
  const parsed = await runTool(parseTool, [], [bad]);
  const r = await runTool(commonTool, [], [parsed.stdout]);
  t.equal(r.status, 0);
  t.equal(r.stderr, 'tx-common: stdin: 2 invalid lines skipped\n');
  const strict = await runTool(commonTool, ['--strict'], [parsed.stdout]);
  t.equal(strict.status, 1);
  const notRecords = await runTool(commonTool, [], [u('S', 'v1', null, 'native, not a record')]);
  t.equal(notRecords.stderr, 'tx-common: stdin: native session lines, not records: read as tx-parse reads them\n', 'native lines: one note, then read as tx-parse reads them');
  t.ok(lines(notRecords.stdout).some((l) => l.type === 'message'), 'and converted');
});

t.test('no input gives no output; an unknown option exits 2; --help exits 0', async (t) => {
  const empty = await runTool(commonTool, [], ['']);
  t.same([empty.status, empty.stdout.length, empty.stderr], [0, 0, '']);
  const unknown = await runTool(commonTool, ['--nope'], ['']);
  t.equal(unknown.status, 2);
  t.match(unknown.stderr, /unknown option --nope/);
  const help = await runTool(commonTool, ['--help'], ['']);
  t.equal(help.status, 0);
  t.match(help.stdout.toString(), /--active/);
});

t.test('a session larger than the in-memory spool limit comes out whole and in order (the spool goes to a temporary file)', async (t) => {
  const big = 'x'.repeat(200_000);
  let native = u('BIG', 'g0', null, 'start');
  for (let i = 1; i <= 40; i++) native += a('BIG', `g${i}a`, `g${i - 1}`, `m${i}`, big) + u('BIG', `g${i}`, `g${i}a`, `prompt ${i}`);
  const r = await common(native);
  t.equal(r.lines.length, 1 + 1 + 80, 'session line and every message');
  t.same(r.lines.filter((l) => l.role === 'user').map((l) => l.content[0].text).slice(-2), ['prompt 39', 'prompt 40']);
});

t.test('lines of every known type with fields of every odd shape never crash it, in any mode', async (t) => {
  const odd: unknown[] = [null, 1, 'x', [], {}, [null], [{ type: 'tool_use' }], [{ type: 'tool_result', content: { a: 1 } }], [{ type: 'text', text: 5 }], [{ type: 'image', source: null }], '<command-name>', '<local-command-stdout>x</local-command-stdout>', '<command-name>/x</command-name><command-args>a</command-args>'];
  let native = '';
  let n = 0;
  for (const type of ['user', 'assistant', 'system', 'attachment', 'summary', 'custom-title', 'agent-name', 'unknown']) {
    for (const v of odd) {
      n++;
      native += line({
        type,
        uuid: `u${n}`,
        parentUuid: n % 3 ? `u${n - 1}` : null,
        sessionId: n % 5 ? 's' : v,
        message: { id: v, content: v, model: v, usage: v, stop_reason: v },
        content: v,
        subtype: n % 2 ? 'local_command' : 'compact_boundary',
        compactMetadata: { preservedMessages: { anchorUuid: `u${n + 1}`, uuids: v } },
        attachment: { type: 'queued_command', prompt: v },
        summary: v,
        customTitle: v,
        agentName: v,
        isSidechain: n % 4 === 0,
        timestamp: v,
      });
      native += line({ type, message: v, uuid: v, parentUuid: v });
    }
  }
  for (const args of [[], ['--active'], ['--sidechains'], ['--active', '--sidechains']]) {
    const r = await common(native, args);
    t.equal(r.status, 0, `${args.join(' ') || 'default'}: exit 0`);
    t.notMatch(r.stderr, /internal error/, `${args.join(' ') || 'default'}: no internal error`);
    t.equal(r.lines[0]?.type, 'session', `${args.join(' ') || 'default'}: a session line`);
  }
});

t.test('a reader that goes away early ends it quietly (EPIPE): exit 0, nothing on stderr', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync('bash', ['-o', 'pipefail', '-c', `node build/bin/tx-parse.js fixtures/common/tool-use/input.jsonl | node build/bin/tx-common.js | head -c 1 >/dev/null; echo "\${PIPESTATUS[1]}"`], { cwd: repo(), encoding: 'utf8' });
  t.equal(r.stdout.trim(), '0');
  t.equal(r.stderr, '');
});

/** A session of `rounds` compactions, each keeping everything from the first prompt to its last message (preservedSegment head..tail). */
function manyCompactions(rounds: number): string {
  const boundary = (uuid: string, tail: string, anchor: string) =>
    line({ type: 'system', subtype: 'compact_boundary', sessionId: 'C', uuid, parentUuid: null, logicalParentUuid: tail, timestamp: '2026-03-01T10:00:02.000Z', compactMetadata: { trigger: 'auto', preservedSegment: { headUuid: 'c0', anchorUuid: anchor, tailUuid: tail } } });
  const summary = (uuid: string, parent: string) =>
    line({ type: 'user', sessionId: 'C', uuid, parentUuid: parent, isCompactSummary: true, timestamp: '2026-03-01T10:00:03.000Z', message: { role: 'user', content: `summary ${uuid}` } });
  let native = u('C', 'c0', null, 'first');
  let last = 'c0';
  for (let i = 1; i <= rounds; i++) {
    native += a('C', `c${i}a`, last, `m${i}`, `answer ${i}`);
    native += boundary(`b${i}`, `c${i}a`, `k${i}`) + summary(`k${i}`, `b${i}`);
    native += u('C', `c${i}`, `k${i}`, `prompt ${i}`);
    last = `c${i}`;
  }
  return native + a('C', 'end', last, 'mend', 'done');
}

t.test('--active after many compactions that each keep the whole history: every message comes out once, never copies of copies', async (t) => {
  const rounds = 24;
  const r = await common(manyCompactions(rounds), ['--active']);
  t.equal(r.status, 0);
  const ids = r.lines.filter((l) => l.type === 'message').map((l) => l.id);
  t.equal(new Set(ids).size, ids.length, 'no message twice');
  // The last compaction's summary, then what it kept (c0 to m24: the whole file so far, earlier summaries included), then the last prompt and answer.
  t.equal(ids.length, 3 * rounds + 2, 'the summary, the kept history, the last prompt and answer');
  t.same(ids.slice(0, 4), [`k${rounds}`, 'c0', 'm1', 'k1'], 'the summary, then the kept segment from its head, in order');
  t.same(ids.slice(-3), [`m${rounds}`, `c${rounds}`, 'mend'], 'the segment ends at its tail; what followed the summary comes after it');
  t.ok(r.stdout.length < 4 * Buffer.byteLength(manyCompactions(rounds)), `output (${r.stdout.length} bytes) stays within a small multiple of the input`);
});

t.test('several files: --jobs 1 says on stderr what --jobs 2 says, in file order (an input\'s skipped lines are counted when it ends, not after the next input\'s notes)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tx-common-order-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const native = readFileSync(repo('fixtures', 'prototype-keys', 'claude-code', '-home-dev-app', 'dddddddd-0000-4000-8000-00000000000d.jsonl'), 'utf8').split('\n').filter(Boolean);
  const files: string[] = [];
  for (let i = 0; i < 4; i++) {
    const file = join(dir, `f${i}.jsonl`);
    writeFileSync(file, ['not json', ...native.slice(0, 4), '[1]', '{"harness":"claude-code","n":"x","kind":"other","line":{}}'].join('\n') + '\n');
    if (i % 2 === 0) {
      // A records file whose own last line is not a record.
      const records = join(dir, `r${i}.rec`);
      writeFileSync(records, (await runBin('tx-parse', [file])).stdout.toString() + 'junk\n');
      files.push(records);
    } else files.push(file);
  }
  const one = await runBin('tx-common', ['--jobs', '1', ...files]);
  const two = await runBin('tx-common', ['--jobs', '2', ...files]);
  t.equal(one.stderr, two.stderr, 'the same stderr, line for line');
  t.ok(one.stdout.equals(two.stdout), 'the same stdout');
  const said = one.stderr.split('\n');
  const summary = said.findIndex((l) => l.endsWith('r0.rec: 1 invalid line skipped'));
  const nextNote = said.findIndex((l) => l.includes('f1.jsonl: native session lines'));
  t.ok(summary >= 0 && nextNote > summary, 'the first input\'s count comes before the second input\'s first note');
});
