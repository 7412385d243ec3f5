// tx-native --harness codex: exact rollouts for small named fixtures (fixtures/native-codex),
// the lossless trip of every converted file through tx-parse | tx-native, Codex → Common →
// Codex → Common over the recorded and corpus rollouts, and --install into a Codex home
// (the file's place and name, the session_index.jsonl entry, never over a session of the
// same id).
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import { rfc3339 } from '../../lib/codex/from-common.js';
import { jsonlFiles } from '../harness/fixtures.js';
import { continued, corpusFiles, repo, runTool } from '../helpers.js';

const FIXTURES = repo('fixtures', 'native-codex');
const lines = (b: Buffer) => b.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** A native session file through tx-parse | tx-common (--active when asked), in process. */
async function commonOf(file: string, active: boolean): Promise<Buffer> {
  const records = await runTool(parseTool, [file], []);
  return (await runTool(commonTool, active ? ['--active'] : [], [records.stdout])).stdout;
}

const rolloutOf = async (common: Buffer | string, args: string[] = []) => runTool(nativeTool, ['--harness', 'codex', ...args], [common]);

t.test('each named fixture is written as its expected rollout, byte for byte', async (t) => {
  const cases = readdirSync(FIXTURES).sort();
  t.ok(cases.length >= 3, 'the fixtures are found');
  for (const name of cases) {
    const r = await runTool(nativeTool, ['--harness', 'codex', path.join(FIXTURES, name, 'common.jsonl')], []);
    t.equal(r.status, 0, `${name}: exit 0`);
    t.equal(r.stdout.toString('utf8'), readFileSync(path.join(FIXTURES, name, 'expected.jsonl'), 'utf8'), `${name}: the expected rollout`);
  }
});

t.test('Claude Code blocks: what Codex has no form for is left out and said', async (t) => {
  const r = await runTool(nativeTool, ['--harness', 'codex', path.join(FIXTURES, 'claude-turn', 'common.jsonl')], []);
  t.match(r.stderr, /common\.jsonl:3: a redacted_thinking block \(reasoning only Claude can read\) has no Codex form, left out/);
  const out = lines(r.stdout);
  t.notOk(JSON.stringify(out).includes('claude-only'), 'no Claude signature or redacted reasoning reaches the rollout');
  const meta = out[0];
  t.same([meta.type, meta.payload.model_provider, meta.payload.cli_version, meta.payload.source], ['session_meta', 'openai', '0.169.0', 'cli'], 'session_meta first: openai, the Codex version, a cli session');
  t.notOk(out.some((l) => l.type === 'turn_context'), 'a Claude model is not written as a Codex turn model');
});

t.test('Codex fields in Common go back to what they came from', async (t) => {
  const out = lines((await runTool(nativeTool, ['--harness', 'codex', path.join(FIXTURES, 'codex-items', 'common.jsonl')], [])).stdout);
  const items = out.filter((l) => l.type === 'response_item').map((l) => l.payload);
  t.same(items[0].role, 'developer', 'developer: true is a developer message');
  t.equal(items.find((i) => i.type === 'reasoning').encrypted_content, 'gAAAAB-openai-encrypted', 'a Codex signature is encrypted_content again');
  t.equal(items.find((i) => i.call_id === 'call_a').arguments, '{"command":["ls"', 'raw_arguments are the arguments text, unparsed');
  t.same(items.find((i) => i.call_id === 'call_b'), { type: 'custom_tool_call', status: 'completed', call_id: 'call_b', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' }, 'a custom tool call with its freeform input (the patch view dropped)');
  t.equal(items.find((i) => i.call_id === 'call_b' && i.type.endsWith('_output')).type, 'custom_tool_call_output', 'its output is a custom tool call output');
  t.equal(items.find((i) => i.call_id === 'call_c' && i.type.endsWith('_output')).type, 'function_call_output', 'a local shell call is answered by a function call output');
  t.same(out.find((l) => l.type === 'compacted').payload.replacement_history, [{ type: 'compaction', encrypted_content: 'gAAAAB-compaction' }], 'the compaction item opens the replacement history');
  t.equal(items.find((i) => i.type === 'message' && i.role === 'user' && Array.isArray(i.content) && i.content[1]?.type === 'input_image').content[1].detail, 'high', 'image detail kept');
});

t.test('RFC 3339 timestamps are kept as written; other dates converted; non-dates refused', async (t) => {
  t.equal(rfc3339('2026-02-01T10:00:00Z'), '2026-02-01T10:00:00Z');
  t.equal(rfc3339('2026-02-01T10:00:00.123+02:00'), '2026-02-01T10:00:00.123+02:00');
  t.equal(rfc3339('2026-02-01 10:00:00Z'), '2026-02-01T10:00:00.000Z');
  t.equal(rfc3339('[trimmed]'), null);
  t.equal(rfc3339(1700000000), null);
  t.equal(rfc3339('2026-13-45T99:99:99Z'), null, 'a date that does not exist');
  t.equal(rfc3339('2026-02-30T10:00:00Z'), null, 'February 30th is not rolled over to March');
  t.equal(rfc3339('+275760-09-13T00:00:00Z'), null, 'a year RFC 3339 cannot write');
});

/** Every session file the sweeps read: recorded Claude Code sessions, the corpora, recorded rollouts. */
function sweepFiles(): string[] {
  const recorded = jsonlFiles(repo('fixtures', 'recorded')).filter((f) => !f.includes(`${path.sep}subagents${path.sep}`));
  return [...recorded, ...corpusFiles('claude-code'), ...jsonlFiles(repo('fixtures', 'recorded-codex')), ...corpusFiles('codex')];
}

t.test('every converted rollout goes through tx-parse | tx-native byte for byte, and converts the same way twice', async (t) => {
  const files = sweepFiles();
  if (corpusFiles('codex').length === 0) t.comment('no ../shared/corpus beside the checkout: recorded sessions only');
  t.ok(files.length > 10, 'there are sessions to convert');
  for (const file of files) {
    const common = await commonOf(file, true);
    const first = await rolloutOf(common);
    const again = await rolloutOf(common);
    const name = path.basename(file);
    t.ok(first.stdout.equals(again.stdout), `${name}: deterministic`);
    const records = await runTool(parseTool, [], [first.stdout]);
    const back = await runTool(nativeTool, [], [records.stdout]);
    t.ok(back.stdout.equals(first.stdout), `${name}: tx-parse | tx-native gives the converted bytes back`);
    t.notOk(/"kind":"(invalid|other)"/.test(records.stdout.toString('utf8')), `${name}: every written line is a rollout line tx-parse knows`);
  }
});

/**
 * Common as Codex sees it: the blocks of each message in order, with its role and flags.
 * Codex keeps no message boundaries between two model responses in a row, nor message ids
 * (tx-common names a message after its first item, else its line), nor a session id that is
 * not a UUID (tx-native makes one): those are left out of the comparison.
 */
function asCodexSees(common: Buffer | any[]): unknown[] {
  const out: unknown[] = [];
  for (const l of Array.isArray(common) ? common : lines(common)) {
    if (l.type === 'session') {
      const { src: _src, id: _id, version: _version, ...rest } = l;
      out.push(rest);
      continue;
    }
    const { id: _id, content, usage: _usage, model: _model, timestamp: _ts, ...flags } = l;
    for (const b of content) out.push({ ...flags, block: b });
  }
  return out;
}

t.test('Codex → Common → Codex → Common keeps every block, role and flag (of the conversation made continuable first)', async (t) => {
  const files = [...jsonlFiles(repo('fixtures', 'recorded-codex')), ...corpusFiles('codex')];
  for (const file of files) {
    const common = await commonOf(file, false);
    const rollout = await rolloutOf(common);
    if (!lines(common).some((l) => l.type === 'message')) {
      t.equal(rollout.stdout.length, 0, `${path.basename(file)}: a session with no message writes no rollout`);
      continue;
    }
    const again = await runTool(commonTool, [], [(await runTool(parseTool, [], [rollout.stdout])).stdout]);
    t.same(asCodexSees(again.stdout), asCodexSees(continued(lines(common), 'codex')), `${path.basename(file)}: the same conversation`);
  }
});

t.test('--install writes the rollout under sessions/YYYY/MM/DD with the time and id in its name', async (t) => {
  const home = mkdtempSync(path.join(tmpdir(), 'txcript-codex-home-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const input = path.join(FIXTURES, 'claude-turn', 'common.jsonl');
  const r = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', home, input], []);
  t.equal(r.status, 0);
  const file = path.join(home, 'sessions', '2026', '03', '04', 'rollout-2026-03-04T05-06-07-5b0c7e2a-1f3d-4e5a-9b6c-7d8e9f0a1b2c.jsonl');
  t.ok(existsSync(file), 'the file is where the client looks for it');
  t.equal(readFileSync(file, 'utf8'), readFileSync(path.join(FIXTURES, 'claude-turn', 'expected.jsonl'), 'utf8'), 'the same bytes as on standard output');
  t.match(r.stderr, `installed ${file}\n  continue it with: cd /home/u/app && codex resume 5b0c7e2a-1f3d-4e5a-9b6c-7d8e9f0a1b2c`);
  t.notOk(existsSync(path.join(home, 'session_index.jsonl')), 'a session without a name adds no index entry');
  t.same(readdirSync(path.dirname(file)), [path.basename(file)], 'no temporary file left');

  const again = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', home, input], []);
  t.equal(again.status, 1, 'a second install of the same id is refused');
  t.match(again.stderr, 'already exists: not overwritten; to install it as a new session, run: tx-native --harness codex --install --config-dir');
});

t.test('--install refuses an id that a rollout of another date already has', async (t) => {
  const home = mkdtempSync(path.join(tmpdir(), 'txcript-codex-home-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const other = path.join(home, 'archived_sessions', 'rollout-2025-01-01T00-00-00-5b0c7e2a-1f3d-4e5a-9b6c-7d8e9f0a1b2c.jsonl');
  mkdirSync(path.dirname(other), { recursive: true });
  writeFileSync(other, '{}\n');
  const r = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', home, path.join(FIXTURES, 'claude-turn', 'common.jsonl')], []);
  t.equal(r.status, 1);
  t.match(r.stderr, `${other} already exists: not overwritten`);
  t.notOk(existsSync(path.join(home, 'sessions')), 'nothing written');
  t.equal(readFileSync(other, 'utf8'), '{}\n', 'the other rollout untouched');
});

t.test('--install names a titled session in session_index.jsonl, appended after what is there', async (t) => {
  const home = mkdtempSync(path.join(tmpdir(), 'txcript-codex-home-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const index = path.join(home, 'session_index.jsonl');
  writeFileSync(index, '{"id":"00000000-0000-4000-8000-000000000001","thread_name":"older","updated_at":"2026-01-01T00:00:00Z"}\n');
  const r = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', home, path.join(FIXTURES, 'named-session', 'common.jsonl')], []);
  t.equal(r.status, 0, r.stderr);
  const entries = lines(readFileSync(index));
  t.equal(entries.length, 2, 'one entry appended');
  t.same(entries[1], { id: entries[1].id, thread_name: 'Fix the flaky test', updated_at: '2026-05-06T07:09:00.000Z' }, 'the custom title, updated at the last message');
  t.match(entries[1].id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-/, 'a session id that was no UUID becomes a UUIDv5');
  const day = path.join(home, 'sessions', '2026', '05', '06');
  t.same(readdirSync(day), [`rollout-2026-05-06T07-08-09-${entries[1].id}.jsonl`]);
});

t.test('--install will not append through a session_index.jsonl that is a symbolic link', async (t) => {
  const home = mkdtempSync(path.join(tmpdir(), 'txcript-codex-home-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const elsewhere = path.join(home, 'elsewhere.jsonl');
  writeFileSync(elsewhere, '');
  symlinkSync(elsewhere, path.join(home, 'session_index.jsonl'));
  const r = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', home, path.join(FIXTURES, 'named-session', 'common.jsonl')], []);
  t.equal(r.status, 1);
  t.equal(readFileSync(elsewhere, 'utf8'), '', 'nothing written through the link');
  t.ok(lstatSync(path.join(home, 'session_index.jsonl')).isSymbolicLink());
});

t.test('impossible dates neither crash an install nor reach the rollout', async (t) => {
  const home = mkdtempSync(path.join(tmpdir(), 'txcript-codex-home-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const common = '{"type":"session","harness":"claude-code","id":"x","started_at":"2026-13-45T99:99:99Z"}\n{"type":"message","id":"m","role":"user","timestamp":"2026-02-30T25:00:00Z","content":[{"type":"text","text":"hi"}]}\n';
  const r = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', home], [common]);
  t.equal(r.status, 0, r.stderr);
  const day = path.join(home, 'sessions', '1970', '01', '01');
  const [file] = readdirSync(day);
  t.match(file, /^rollout-1970-01-01T00-00-00-/, 'the start is unknown: the epoch names the file');
  t.ok(lines(readFileSync(path.join(day, file))).every((l) => l.timestamp === '1970-01-01T00:00:00.000Z'), 'and every line carries it');
});

t.test('--harness names a harness tx-native writes', async (t) => {
  const r = await runTool(nativeTool, ['--harness', 'emacs'], ['']);
  t.equal(r.status, 2);
  t.match(r.stderr, /tx-native: --harness "emacs" is not one of claude-code, codex/);
});
