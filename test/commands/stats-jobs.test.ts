// tx-stats --jobs N: each worker counts one file and sends its counters back as data;
// the main thread merges them in file order. The output, the messages and the status
// are those of --jobs 1 byte for byte: on the real corpus, on a session cut into
// several files (merged counters), and where counters cannot merge exactly (a Codex
// session in two files, records whose source files repeat) and the input is read again.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { corpusDir, repo, runBin } from '../helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'tx-stats-jobs-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

/** tx-stats with --jobs 1 and --jobs N on the same input: the same bytes, messages and status. */
async function same(t: Test, args: string[], jobs = '4'): Promise<string> {
  const one = await runBin('tx-stats', ['--jobs', '1', ...args]);
  const many = await runBin('tx-stats', ['--jobs', jobs, ...args]);
  t.equal(many.status, one.status, 'the same status');
  t.ok(one.stdout.length > 0, `some summaries (${one.stdout.toString().split('\n').length - 1})`);
  t.ok(many.stdout.equals(one.stdout), `the same summaries with --jobs ${jobs}`);
  t.equal(many.stderr, one.stderr, 'the same messages in the same order');
  return one.stdout.toString('utf8');
}

/** A file's lines cut into `n` files of about equal line counts. */
function cut(file: string, n: number, into: string): string[] {
  const lines = readFileSync(file, 'utf8').split(/(?<=\n)/);
  const per = Math.ceil(lines.length / n);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const f = join(into, `${String(i).padStart(2, '0')}.jsonl`);
    writeFileSync(f, lines.slice(i * per, (i + 1) * per).join(''));
    out.push(f);
  }
  return out;
}

for (const harness of ['claude-code', 'codex'] as const) {
  const dir = corpusDir(harness);
  t.test(`the ${harness} corpus (a directory): --jobs 4 prints what --jobs 1 prints, with and without --subagents`, { skip: dir ? false : `no ${harness} corpus beside the checkout` }, async (t) => {
    await same(t, [dir!]);
    await same(t, ['--subagents', dir!]);
  });
}

t.test('a Claude Code session cut into three files: its counters merged from three workers are those of one thread', async (t) => {
  const dir = mkdtempSync(join(scratch, 'cut-'));
  const project = repo('fixtures', 'recorded', 'subagent', 'projects', '-tmp-txcript-rec-subagent-work');
  const files = cut(join(project, '00000000-0000-4000-8000-0000000000d1.jsonl'), 3, dir);
  const subagent = join(project, '00000000-0000-4000-8000-0000000000d1', 'subagents', 'agent-aa415a71f1388ed60.jsonl');
  const out = await same(t, [...files, subagent, repo('fixtures', 'stats', 'interleaved-sessions', 'input.jsonl')], '3');
  const main = out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((s) => s.session === '00000000-0000-4000-8000-0000000000d1');
  t.same(main.files, [...files, subagent], 'one session over four files (three parts and its subagent)');
});

t.test('a Codex session in two files (each with its session_meta) cannot merge exactly: it is counted again in one thread', async (t) => {
  const dir = mkdtempSync(join(scratch, 'codex-'));
  const rollouts = findJsonl(repo('fixtures', 'recorded-codex'));
  const rollout = rollouts.sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
  const [a, b] = cut(rollout, 2, dir);
  // The second part starts again with the session_meta, so both parts name the session.
  writeFileSync(b, readFileSync(rollout, 'utf8').split('\n')[0] + '\n' + readFileSync(b, 'utf8'));
  const out = await same(t, [a, b], '2');
  t.equal(out.split('\n').filter(Boolean).length, 1, 'one session');
});

t.test('records whose source files repeat across inputs, a line that is not a record and an unreadable file: the same, --strict too', async (t) => {
  const dir = mkdtempSync(join(scratch, 'records-'));
  // tx-parse reading stdin names no source: both files' records come from "stdin", and
  // the line without a session id that starts the second goes with the last session of
  // the first (as one thread reads them), not with the sessions after it.
  const parsed = async (input: Buffer) => (await runBin('tx-parse', [], input)).stdout;
  const a = join(dir, 'a.ndjson');
  const b = join(dir, 'b.ndjson');
  writeFileSync(a, await parsed(readFileSync(repo('fixtures', 'stats', 'one-session', 'input.jsonl'))));
  const leading = Buffer.from('{"type":"summary","summary":"before any session id","leafUuid":"00000000-0000-4000-8000-00000000aaaa"}\n');
  writeFileSync(b, Buffer.concat([await parsed(Buffer.concat([leading, readFileSync(repo('fixtures', 'stats', 'interleaved-sessions', 'input.jsonl'))])), Buffer.from('not a record\n')]));
  await same(t, [a, b, join(dir, 'missing.ndjson')]);
  await same(t, ['--strict', a, b]);
});

t.test('tool names such as __proto__ and constructor count the same after crossing from a worker', async (t) => {
  const dir = mkdtempSync(join(scratch, 'keys-'));
  const files = [1, 2].map((i) => {
    const f = join(dir, `f${i}.jsonl`);
    const content = ['__proto__', 'constructor'].map((name, k) => ({ type: 'tool_use', id: `t${i}${k}`, name, input: {} }));
    writeFileSync(f, JSON.stringify({ type: 'assistant', uuid: `a${i}`, sessionId: 's', timestamp: `2026-01-01T00:00:0${i}Z`, version: '2.1.0', message: { id: `m${i}`, role: 'assistant', model: 'x', content, usage: { input_tokens: 1, output_tokens: 2 } } }) + '\n');
    return f;
  });
  const out = JSON.parse(await same(t, files, '2'));
  t.same(Object.entries(out.tool_calls.by_name), [['__proto__', 2], ['constructor', 2]]);
});

t.test('--jobs takes a positive whole number', async (t) => {
  const r = await runBin('tx-stats', ['--jobs', 'x', repo('fixtures', 'stats', 'one-session', 'input.jsonl')]);
  t.equal(r.status, 2);
  t.equal(r.stderr, 'tx-stats: --jobs: not a positive whole number: x (see tx-stats --help)\n');
});

function findJsonl(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) stack.push(join(d, e.name));
      else if (e.name.endsWith('.jsonl')) out.push(join(d, e.name));
    }
  }
  return out;
}
