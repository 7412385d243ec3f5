// Data names no keys, across every tool and both harnesses: in fixtures/prototype-keys/
// the line types, tool names, skill names, models, subagent ids and types, hook names,
// system subtypes, attachment types and field names are `__proto__`, `constructor`,
// `valueOf`, `toString` and `hasOwnProperty`. Every tool and every tx-filter and
// tx-stats question runs on them without a crash, and what is counted equals a count
// made here, independently, from the fixture's JSON.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { repo, runBin } from '../helpers.js';

const NAMES = ['__proto__', 'constructor', 'valueOf', 'toString', 'hasOwnProperty'];
const DIR = repo('fixtures', 'prototype-keys');
const CLAUDE_ROOT = join(DIR, 'claude-code');
const CLAUDE = join(CLAUDE_ROOT, '-home-dev-app', 'dddddddd-0000-4000-8000-00000000000d.jsonl');
const SUBAGENTS = join(CLAUDE_ROOT, '-home-dev-app', 'dddddddd-0000-4000-8000-00000000000d', 'subagents');
const CODEX_ROOT = join(DIR, 'codex');
const CODEX = join(CODEX_ROOT, 'sessions', '2026', '03', '01', 'rollout-2026-03-01T10-00-00-0198f000-0000-7000-8000-0000000000cd.jsonl');

const lines = (file: string): any[] => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const ndjson = (buf: Buffer): any[] => buf.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** `values` counted into a prototype-less table (the independent count). */
function count(values: string[]): Record<string, number> {
  const table: Record<string, number> = Object.create(null);
  for (const v of values) table[v] = (Object.hasOwn(table, v) ? table[v] : 0) + 1;
  return table;
}

/** A table as sorted [key, value] pairs, comparable whatever its prototype. */
const pairs = (o: object) => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const scratch = mkdtempSync(join(tmpdir(), 'tx-proto-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

async function ok(t: any, name: string, args: string[], input?: Buffer | string) {
  const r = await runBin(name, args, input);
  const said = `${name} ${args.map((a) => a.replace(DIR, 'F').replace(scratch, 'S')).join(' ')}`;
  t.ok(r.status === 0 || (name === 'tx-grep' && r.status === 1), `${said}: exit ${r.status}`);
  t.notMatch(r.stderr, /internal error|\n\s+at |TypeError|RangeError|Cannot (read|convert)/, `${said}: no crash ${r.stderr.split('\n')[0]}`);
  return r;
}

for (const [harness, file] of [['claude-code', CLAUDE], ['codex', CODEX]] as const) {
  t.test(`${harness}: every tool takes names that are Object.prototype members`, async (t) => {
    const parsed = await ok(t, 'tx-parse', [file]);
    const records = join(scratch, `${harness}.records`);
    writeFileSync(records, parsed.stdout);
    t.equal(ndjson(parsed.stdout).length, lines(file).length, 'one record per line');
    const native = await ok(t, 'tx-native', [records]);
    t.ok(native.stdout.equals(readFileSync(file)), 'tx-parse | tx-native gives the file back byte for byte');
    const questions = ['--human-prompts', '--tool-calls', '--tool-results', '--reasoning', '--skills', '--subagents', '--hooks', '--compactions', '--usage', '--modes'];
    for (const q of questions) {
      await ok(t, 'tx-filter', [q, records]);
      await ok(t, 'tx-filter', [q, '--view', records]);
    }
    // --name (the questions that take it) and --type, with every name: counted in the tests below.
    await ok(t, 'tx-filter', ['--grep', NAMES.join('|'), '--view', records]);
    await ok(t, 'tx-stats', [records]);
    await ok(t, 'tx-stats', ['--subagents', records]);
    for (const args of [[], ['--active'], ['--subagents'], ['--sidechains']]) {
      const common = await ok(t, 'tx-common', [...args, records]);
      if (args.length === 0) {
        await ok(t, 'tx-native', [], common.stdout);
        await ok(t, 'tx-render', ['--format', 'md'], common.stdout);
        if (harness === 'claude-code') await ok(t, 'tx-native', ['--install', '--config-dir', join(scratch, 'config')], common.stdout);
      }
    }
    await ok(t, 'tx-escape', [records]);
    await ok(t, 'tx-escape', ['-d', records]);
    await ok(t, 'tx-redact', [records]);
    await ok(t, 'tx-redact', [file]);
    await ok(t, 'tx-render', ['--format', 'html', records]);
    await ok(t, 'tx-render', ['--format', 'md', '--subagents', file]);
    for (const name of NAMES) await ok(t, 'tx-grep', [name, file]);
    const root = harness === 'claude-code' ? CLAUDE_ROOT : CODEX_ROOT;
    const h = harness === 'codex' ? ['--harness', 'codex'] : [];
    for (const args of [[], ['--deep'], ['--lines'], ['--current', '--cwd', '/home/dev/app']]) {
      const ls = await ok(t, 'tx-ls', [...h, ...args, '--root', root]);
      t.equal(ndjson(ls.stdout).length, 1, `tx-ls ${args.join(' ')}: the session is listed`);
    }
    if (harness === 'claude-code') {
      const subs = await ok(t, 'tx-ls', ['--subagents', file]);
      t.same(ndjson(subs.stdout).map((s) => s.agent_id).sort(), [...NAMES].sort(), 'tx-ls --subagents: every subagent, by its id');
      t.same(count(ndjson(subs.stdout).map((s) => s.agent_type)), count(NAMES), 'each joined to its type');
    }
  });
}

t.test('claude-code: tx-stats and tx-filter count each name as a count made from the JSON does', async (t) => {
  const native = lines(CLAUDE);
  const blocks = native.filter((l) => l.type === 'assistant').flatMap((l) => l.message.content);
  const calls = blocks.filter((b) => b.type === 'tool_use');
  const byName = count(calls.map((b) => b.name));
  const skills = count(calls.filter((b) => b.name === 'Skill').map((b) => b.input.skill));
  const agents = count(calls.filter((b) => b.name === 'Task').map((b) => b.input.subagent_type));
  const hooks = native.filter((l) => l.type === 'attachment' && l.attachment.type === 'hook_success').map((l) => l.attachment.hookName);
  const models = native.filter((l) => l.type === 'assistant').map((l) => l.message.model);
  const odd = count(native.map((l) => l.type).filter((type) => NAMES.includes(type)));

  const records = join(scratch, 'claude-count.records');
  writeFileSync(records, (await runBin('tx-parse', [CLAUDE])).stdout);
  const s = ndjson((await ok(t, 'tx-stats', ['--subagents', records])).stdout)[0];
  t.same(pairs(s.tool_calls.by_name), pairs(byName), 'tool calls by name');
  t.equal(s.tool_calls.total, calls.length);
  t.same(pairs(s.skills), pairs(skills), 'skills');
  t.same(pairs(s.subagents.by_type), pairs(agents), 'subagents by type');
  t.same(pairs(s.hooks.by_name).map(([k, v]: any) => [k, v.ok]), pairs(count(hooks)), 'hooks by name');
  t.same(pairs(s.tokens.by_model).map(([k, v]: any) => [k, v.output_tokens]), pairs(Object.fromEntries(native.filter((l) => l.type === 'assistant').map((l) => [l.message.model, l.message.usage.output_tokens]))), 'output tokens by model');
  t.same(pairs(s.coverage.unknown_line_types).map(([k, v]: any) => [k, Object.values(v).reduce((a: number, b: any) => a + b, 0)]), pairs(odd), 'unknown line types');
  const subFiles = readdirSync(SUBAGENTS).filter((f) => f.endsWith('.jsonl'));
  const subCalls = subFiles.flatMap((f) => lines(join(SUBAGENTS, f))).filter((l) => l.type === 'assistant').flatMap((l) => l.message.content).filter((b) => b.type === 'tool_use');
  t.same(pairs(s.subagent_totals.tool_calls.by_name), pairs(count(subCalls.map((b) => b.name))), 'subagent tool calls by name');

  for (const name of NAMES) {
    const views = async (q: string[]) => ndjson((await ok(t, 'tx-filter', [...q, '--view', '--name', name, records])).stdout);
    t.equal((await views(['--tool-calls'])).length, byName[name], `--tool-calls --name ${name}`);
    t.equal((await views(['--skills'])).filter((v) => v.skill === name).length, skills[name], `--skills --name ${name}`);
    t.equal((await views(['--subagents'])).length, agents[name], `--subagents --name ${name}`);
    t.equal((await views(['--hooks'])).length, count(hooks)[name], `--hooks --name ${name}`);
  }
  const usage = ndjson((await ok(t, 'tx-filter', ['--usage', '--view', records])).stdout);
  t.same(pairs(count(usage.map((v) => v.model))), pairs(count(models)), '--usage: one view per message, by model');
  const typed = ndjson((await ok(t, 'tx-filter', ['--type', '__proto__', records])).stdout);
  t.equal(typed.length, odd.__proto__, '--type __proto__');
});

t.test('codex: tx-stats and tx-filter count each name as a count made from the JSON does', async (t) => {
  const native = lines(CODEX);
  const calls = native.filter((l) => l.type === 'response_item' && l.payload.type === 'function_call');
  const byName = count(calls.map((l) => l.payload.name));
  const odd = count(native.map((l) => l.type).filter((type) => NAMES.includes(type)));
  // Each token_count follows the turn_context that names its model.
  let model = '';
  const tokensByModel: Record<string, number> = Object.create(null);
  for (const l of native) {
    if (l.type === 'turn_context') model = l.payload.model;
    if (l.type === 'event_msg' && l.payload.type === 'token_count') tokensByModel[model] = (tokensByModel[model] ?? 0) + l.payload.info.last_token_usage.output_tokens;
  }
  const records = join(scratch, 'codex-count.records');
  writeFileSync(records, (await runBin('tx-parse', [CODEX])).stdout);
  const s = ndjson((await ok(t, 'tx-stats', [records])).stdout)[0];
  t.same(pairs(s.tool_calls.by_name), pairs(byName), 'tool calls by name');
  t.same(pairs(s.tokens.by_model).map(([k, v]: any) => [k, v.output_tokens]), pairs(tokensByModel), 'output tokens by model');
  t.same(pairs(s.coverage.unknown_line_types), pairs(odd), 'unknown line types');
  for (const name of NAMES) {
    const views = ndjson((await ok(t, 'tx-filter', ['--tool-calls', '--view', '--name', name, records])).stdout);
    t.equal(views.length, byName[name], `--tool-calls --name ${name}`);
  }
  const typed = ndjson((await ok(t, 'tx-filter', ['--type', 'constructor', records])).stdout);
  t.equal(typed.length, odd.constructor, '--type constructor');
});
