// tx-stats and tx-filter over every Codex corpus file and recorded Codex rollout,
// checked against a separate, plain JSON.parse loop written here. Its token total
// comes another way than the codec's: the running total of a session's last
// token_count event (or the sum of its token_usage_records), where the codec adds up
// one usage per model response.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { corpusFiles, repo } from '../helpers.js';

const bin = (name: string) => repo('build', 'bin', `${name}.js`);

/** Every rollout under fixtures/recorded-codex (empty before any was recorded). */
function recordedRollouts(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.jsonl') && name.startsWith('rollout-')) found.push(full);
    }
  };
  if (existsSync(repo('fixtures', 'recorded-codex'))) walk(repo('fixtures', 'recorded-codex'));
  return found;
}

const CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call', 'tool_search_call', 'image_generation_call']);
const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output', 'mcp_tool_call_output']);
const FAILED = /Process exited with code [1-9]|^Exit code: [1-9]|^(apply_patch verification failed|failed to parse function arguments|unsupported call|aborted)/;

interface Expected {
  typed: number;
  calls: number;
  errors: number;
  reasoning: number;
  compactions: number;
  tokens: number;
  responses: number;
}

function outputString(output: any): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((o) => (typeof o?.text === 'string' ? o.text : '')).join('\n');
  return typeof output?.content === 'string' ? output.content : '';
}

function expectedBySession(files: string[]): Map<string, Expected> {
  const sessions = new Map<string, Expected>();
  for (const file of files) {
    let key = file;
    // Per session segment: the last running total, or the usage records by response id.
    let lastTotal = 0;
    let lastCounts = 0;
    let records = new Map<string, number>();
    const close = () => {
      const s = sessions.get(key);
      if (!s) return;
      s.tokens += records.size > 0 ? [...records.values()].reduce((a, b) => a + b, 0) : lastTotal;
      s.responses += records.size > 0 ? records.size : lastCounts;
    };
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      let line: any;
      try {
        line = JSON.parse(text);
      } catch {
        continue;
      }
      const p = line?.payload;
      if (line?.type === 'session_meta' && typeof p?.id === 'string') {
        close();
        key = p.id;
        lastTotal = 0;
        lastCounts = 0;
        records = new Map();
      }
      if (!sessions.has(key)) sessions.set(key, { typed: 0, calls: 0, errors: 0, reasoning: 0, compactions: 0, tokens: 0, responses: 0 });
      const s = sessions.get(key)!;
      if (line?.type === 'event_msg' && p?.type === 'user_message' && (p.kind === undefined || p.kind === 'plain') && !/^(<|# AGENTS\.md instructions)/.test(String(p.message).trimStart())) s.typed++;
      if (line?.type === 'event_msg' && p?.type === 'item_completed' && p.item?.type === 'UserMessage') s.typed++;
      if (line?.type === 'response_item' && CALLS.has(p?.type)) s.calls++;
      if (line?.type === 'response_item' && OUTPUTS.has(p?.type) && FAILED.test(outputString(p.output))) s.errors++;
      if (line?.type === 'response_item' && p?.type === 'reasoning') s.reasoning++;
      if (line?.type === 'compacted' || (line?.type === 'response_item' && (p?.type === 'compaction' || p?.type === 'compaction_summary'))) s.compactions++;
      if (line?.type === 'token_usage_record' && p?.usage) records.set(p.response_id, p.usage.total_tokens);
      if (line?.type === 'event_msg' && p?.type === 'token_count' && p.info?.total_token_usage) {
        if (p.info.total_token_usage.total_tokens !== lastTotal) lastCounts++;
        lastTotal = p.info.total_token_usage.total_tokens;
      }
    }
    close();
  }
  return sessions;
}

const files = [...corpusFiles('codex'), ...recordedRollouts()];

t.test('Codex: prompts, tool calls, errors, reasoning, compactions and tokens per session equal an independent count', async (t) => {
  if (files.length === 0) {
    t.plan(0, 'no Codex corpus beside this checkout and no recorded rollouts');
    return;
  }
  const parsed = spawnSync(process.execPath, [bin('tx-parse'), ...files], { maxBuffer: 1 << 30 });
  t.equal(parsed.status, 0, 'tx-parse reads every file');
  const stats = spawnSync(process.execPath, [bin('tx-stats')], { input: parsed.stdout, maxBuffer: 1 << 28, encoding: 'utf8' });
  t.equal(stats.status, 0, 'tx-stats runs');
  t.match(stats.stderr, /not counted for codex sessions/, 'what Codex has no notion of is said on stderr');
  t.equal(stats.stderr.trim().split('\n').length, 1, 'and said once');
  const expected = expectedBySession(files);
  const got = stats.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  t.same(got.map((s) => s.harness).filter((h) => h !== 'codex'), [], 'every summary is a Codex one');
  t.same(new Set(got.map((s) => s.session ?? s.files[0])), new Set(expected.keys()), 'one summary per session, the sessions of the independent count');
  let tokens = 0;
  for (const s of got) {
    const key = s.session ?? s.files[0];
    const e = expected.get(key);
    if (!t.ok(e, `session ${key} is expected`)) continue;
    t.equal(s.human_turns.typed, e!.typed, `${key}: typed prompts`);
    t.equal(s.tool_calls.total, e!.calls, `${key}: tool calls`);
    t.equal(s.tool_errors, e!.errors, `${key}: tool errors`);
    t.equal(s.reasoning_items, e!.reasoning, `${key}: reasoning items`);
    t.equal(s.compactions.total, e!.compactions, `${key}: compactions`);
    t.equal(s.api_messages, e!.responses, `${key}: model responses`);
    const total = s.tokens.input_tokens + s.tokens.output_tokens + s.tokens.cache_read_input_tokens + s.tokens.cache_creation_input_tokens;
    t.equal(total, e!.tokens, `${key}: tokens add up to Codex's own running total`);
    t.same(s.not_counted, ['skills', 'subagents', 'hooks'], `${key}: no zeros for what Codex lacks`);
    t.notOk('skills' in s || 'hooks' in s, `${key}: no skills or hooks fields`);
    tokens += total;
  }
  t.ok(tokens > 0, 'the sweep compared real token counts');
  t.comment(`${got.length} sessions from ${files.length} files, ${tokens} tokens compared`);

  const views = (flag: string) => {
    const r = spawnSync(process.execPath, [bin('tx-filter'), flag, '--view'], { input: parsed.stdout, maxBuffer: 1 << 28, encoding: 'utf8' });
    t.equal(r.status, 0, `tx-filter ${flag} runs`);
    return r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  };
  const sum = (f: (e: Expected) => number) => [...expected.values()].reduce((a, e) => a + f(e), 0);
  t.equal(views('--human-prompts').length, sum((e) => e.typed), 'tx-filter --human-prompts: one view per typed prompt');
  t.equal(views('--tool-calls').length, sum((e) => e.calls), 'tx-filter --tool-calls: one view per call');
  const results = views('--tool-results');
  t.equal(results.filter((v) => v.is_error).length, sum((e) => e.errors), 'tx-filter --tool-results: the failed ones');
  t.equal(views('--compactions').length, sum((e) => e.compactions), 'tx-filter --compactions');
  t.equal(views('--reasoning').length, sum((e) => e.reasoning), 'tx-filter --reasoning: one view per reasoning item');
  const usage = views('--usage');
  t.equal(usage.length, sum((e) => e.responses), 'tx-filter --usage: one view per model response');
  t.equal(
    usage.reduce((a, v) => a + v.input_tokens + v.output_tokens + v.cache_read_input_tokens + v.cache_creation_input_tokens, 0),
    sum((e) => e.tokens),
    'tx-filter --usage: tokens add up to the running totals',
  );
});

t.test('a question that does not apply to Codex is said once on stderr, and matches nothing', async (t) => {
  const line = '{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s"}}\n';
  const parsed = spawnSync(process.execPath, [bin('tx-parse')], { input: line + line });
  const r = spawnSync(process.execPath, [bin('tx-filter'), '--hooks', '--skills', '--view'], { input: parsed.stdout, encoding: 'utf8' });
  t.equal(r.status, 0);
  t.equal(r.stdout, '', 'no views');
  t.equal(r.stderr.trim().split('\n').length, 2, 'one line per question');
  t.match(r.stderr, /--skills does not apply to codex sessions/);
  t.match(r.stderr, /--hooks does not apply to codex sessions/);
});
