// The model provider a written rollout names: Codex resumes a thread only under the
// provider its rollout names, so a rollout installed into a Codex home names the provider
// that home's config.toml selects (a profile's first), --model-provider names another,
// and encrypted items another provider made are left out. Also the window Codex recorded
// (model_context_window), carried through Common and back.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { configuredProvider, rolloutProvider } from '../../lib/codex/config.js';
import { commonTool } from '../../lib/commands/common.js';
import { continueTool } from '../../lib/commands/continue.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import { repo, runTool } from '../helpers.js';

const lines = (b: Buffer | string) => b.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const ndjson = (ls: object[]) => ls.map((l) => JSON.stringify(l) + '\n').join('');

/** Every rollout under a Codex home. */
function rollouts(home: string): string[] {
  const dir = path.join(home, 'sessions');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** A fresh folder of this test, taken away after it. */
function scratch(t: any): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tx-provider-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A Codex home of its own holding a config.toml with this text. */
function home(t: any, toml: string | null): string {
  const dir = scratch(t);
  if (toml !== null) writeFileSync(path.join(dir, 'config.toml'), toml);
  return dir;
}

const CLAUDE = ndjson([
  { type: 'session', harness: 'claude-code', id: '6a1c0e52-9f3b-4d7a-8e21-3b4c5d6e7f80', cwd: '/home/u/app', started_at: '2026-03-01T10:00:00.000Z' },
  { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: 'hello' }] },
  { type: 'message', id: 'a1', role: 'assistant', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 5, output_tokens: 1 } },
]);

/** A Codex session recorded under `provider`, with encrypted reasoning and a compaction. */
const codexSession = (provider: string) =>
  ndjson([
    { type: 'session', harness: 'codex', id: '019a0000-0000-7000-8000-00000000c0de', cwd: '/home/u/app', version: '0.169.0', model: 'gpt-5.5', model_provider: provider, started_at: '2026-03-01T10:00:00.000Z' },
    { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: 'hello' }] },
    { type: 'message', id: 'a1', role: 'assistant', content: [{ type: 'thinking', thinking: 'greet back', signature: 'gAAAA-encrypted-by-' + provider }, { type: 'text', text: 'hi' }], usage: { input_tokens: 900, cache_read_input_tokens: 800, output_tokens: 5, model_context_window: 258400 } },
    { type: 'message', id: 'c1', role: 'assistant', after_compaction: true, content: [{ type: 'redacted_thinking', data: 'gAAAA-summary-by-' + provider, native_type: 'compaction' }] },
    { type: 'message', id: 'u2', role: 'user', content: [{ type: 'text', text: 'and now?' }] },
  ]);

t.test('config.toml: the top-level provider (a legacy profile selector\'s first), else none; a problem is said, never thrown', async (t) => {
  const mock = home(t, 'model_provider = "mock"\n');
  t.same(configuredProvider(mock), { provider: 'mock', from: path.join(mock, 'config.toml'), problem: null });
  const profiled = home(t, 'model_provider = "openai"\nprofile = "work"\n\n[profiles.work]\nmodel_provider = "corp"\n\n[profiles.other]\nmodel_provider = "x"\n');
  t.equal(configuredProvider(profiled).provider, 'corp', 'a legacy selector (clients before 0.169) wins');
  t.match(configuredProvider(profiled).from, 'profile "work"');
  t.equal(configuredProvider(home(t, 'model_provider = "mock"\nprofile = "bare"\n[profiles.bare]\nmodel = "gpt-5.5"\n')).provider, 'mock', 'a profile naming no provider: the top-level one');
  t.equal(configuredProvider(home(t, 'profile = "__proto__"\n[profiles.__proto__]\nmodel_provider = "odd"\n')).provider, 'odd', 'any profile name is a name');
  const none = home(t, null);
  t.same(configuredProvider(none), { provider: null, from: path.join(none, 'config.toml'), problem: null }, 'no config.toml: none, and nothing to say');
  t.same(configuredProvider(home(t, 'approval_policy = "never"\n')).provider, null, 'a config naming no provider: none');
  t.match(configuredProvider(home(t, 'model_provider = \n')).problem, /config\.toml: cannot read it \(not TOML: /);
  t.match(configuredProvider(home(t, 'model_provider = ""\n')).problem, /config\.toml: model_provider is not a provider id/);
  t.match(configuredProvider(home(t, 'model_provider = 3\n')).problem, /model_provider is not a provider id/);
  const dir = t.testdir({ 'config.toml': {} });
  t.match(configuredProvider(dir).problem, /cannot read it \(a directory, not a regular file\)/);
});

t.test('the provider a rollout names: given, else the home\'s, else the one recorded (no home), else openai; never empty', async (t) => {
  const mock = home(t, 'model_provider = "mock"\n');
  t.same(rolloutProvider('given', mock, 'rec'), { provider: 'given', problem: null });
  t.same(rolloutProvider(undefined, mock, 'rec'), { provider: 'mock', problem: null });
  t.same(rolloutProvider(undefined, home(t, null), 'rec'), { provider: 'openai', problem: null }, 'a home without config.toml runs openai');
  t.same(rolloutProvider(undefined, undefined, 'rec'), { provider: 'rec', problem: null }, 'no home: the session keeps its own');
  t.same(rolloutProvider('', undefined, ''), { provider: 'openai', problem: null }, 'nothing empty');
  t.match(rolloutProvider(undefined, home(t, 'model_provider = ""\n'), 'rec'), { provider: 'openai', problem: /model_provider is not a provider id; the session names the provider openai \(--model-provider names another\)/ });
});

t.test('tx-native --install names the provider the Codex home is configured with; --model-provider names another; an empty one is a usage error', async (t) => {
  const mock = home(t, 'model_provider = "mock"\n[model_providers.mock]\nname = "mock"\nbase_url = "http://127.0.0.1:9/v1"\n');
  const r = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', mock], [CLAUDE]);
  t.equal(r.status, 0, r.stderr);
  t.equal(lines(readFileSync(rollouts(mock)[0]))[0].payload.model_provider, 'mock', 'the home\'s provider');
  const profiled = home(t, 'profile = "work"\n[profiles.work]\nmodel_provider = "corp"\n');
  t.equal((await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', profiled], [CLAUDE])).status, 0);
  t.equal(lines(readFileSync(rollouts(profiled)[0]))[0].payload.model_provider, 'corp', 'its profile\'s provider');
  const given = home(t, 'model_provider = "mock"\n');
  t.equal((await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', given, '--model-provider', 'azure'], [CLAUDE])).status, 0);
  t.equal(lines(readFileSync(rollouts(given)[0]))[0].payload.model_provider, 'azure', '--model-provider');
  const out = await runTool(nativeTool, ['--harness', 'codex'], [CLAUDE]);
  t.equal(lines(out.stdout)[0].payload.model_provider, 'openai', 'on standard output, another harness\'s session names openai');
  const empty = await runTool(nativeTool, ['--harness', 'codex', '--model-provider', ''], [CLAUDE]);
  t.equal(empty.status, 2);
  t.match(empty.stderr, '--model-provider needs a provider id');
  const broken = home(t, 'model_provider = ""\n');
  const warned = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', broken], [CLAUDE]);
  t.equal(warned.status, 0, 'a configuration that names no usable provider: written under openai');
  t.match(warned.stderr, 'model_provider is not a provider id; the session names the provider openai (--model-provider names another)');
});

t.test('encrypted reasoning and compactions go back only under the provider that made them', async (t) => {
  const same = await runTool(nativeTool, ['--harness', 'codex'], [codexSession('mock')]);
  t.equal(same.status, 0, same.stderr);
  const kept = lines(same.stdout);
  t.equal(kept[0].payload.model_provider, 'mock', 'on standard output a Codex session keeps its provider');
  t.match(JSON.stringify(kept), 'gAAAA-encrypted-by-mock');
  t.match(JSON.stringify(kept), 'gAAAA-summary-by-mock');
  t.equal(same.stderr, '');
  const other = home(t, 'model_provider = "corp"\n');
  const moved = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', other], [codexSession('openai')]);
  t.equal(moved.status, 0, moved.stderr);
  const text = readFileSync(rollouts(other)[0], 'utf8');
  t.equal(lines(text)[0].payload.model_provider, 'corp');
  t.notMatch(text, 'gAAAA-encrypted-by-openai', 'the reasoning\'s ciphertext is left out');
  t.match(text, 'greet back', 'its summary text stays');
  t.notMatch(text, 'gAAAA-summary-by-openai', 'the compaction\'s ciphertext too');
  t.match(moved.stderr, 'reasoning encrypted by provider openai left out: the rollout names provider corp, which cannot decrypt it');
  t.match(moved.stderr, 'a compaction summary encrypted by provider openai left out');
  t.equal(moved.stderr.split('reasoning encrypted').length, 2, 'said once');
});

t.test('tx-continue --with codex names the provider of the Codex home it installs into', async (t) => {
  const codexHome = home(t, 'model_provider = "mock"\n');
  const r = await runTool(continueTool, ['00000000-0000-4000-8000-0000000000a1', '--with', 'codex', '--config-dir', repo('fixtures', 'recorded', 'plain'), '--codex-home', codexHome], [], { HOME: scratch(t) });
  t.equal(r.status, 0, r.stderr);
  t.equal(lines(readFileSync(rollouts(codexHome)[0]))[0].payload.model_provider, 'mock');
  const given = home(t, 'model_provider = "mock"\n');
  const named = await runTool(continueTool, ['00000000-0000-4000-8000-0000000000a1', '--with', 'codex', '--config-dir', repo('fixtures', 'recorded', 'plain'), '--codex-home', given, '--model-provider', 'azure'], [], { HOME: scratch(t) });
  t.equal(named.status, 0, named.stderr);
  t.equal(lines(readFileSync(rollouts(given)[0]))[0].payload.model_provider, 'azure', '--model-provider passed on');
});

t.test('the window a Codex rollout recorded goes through Common and back', async (t) => {
  const dir = scratch(t);
  const rollout = path.join(dir, 'rollout-2026-03-01T10-00-00-019a0000-0000-7000-8000-00000000c0de.jsonl');
  writeFileSync(rollout, ndjson([
    { timestamp: '2026-03-01T10:00:00.000Z', type: 'session_meta', payload: { id: '019a0000-0000-7000-8000-00000000c0de', timestamp: '2026-03-01T10:00:00.000Z', cwd: '/home/u/app', originator: 'codex_cli_rs', cli_version: '0.169.0', model_provider: 'openai' } },
    { timestamp: '2026-03-01T10:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] } },
    { timestamp: '2026-03-01T10:00:02.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] } },
    { timestamp: '2026-03-01T10:00:02.000Z', type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: 900, cached_input_tokens: 800, output_tokens: 5, reasoning_output_tokens: 0, total_tokens: 905 }, last_token_usage: { input_tokens: 900, cached_input_tokens: 800, output_tokens: 5, reasoning_output_tokens: 0, total_tokens: 905 }, model_context_window: 258400 }, rate_limits: null } },
  ]));
  const common = await runTool(commonTool, [], [(await runTool(parseTool, [rollout], [])).stdout]);
  const [session, , reply] = lines(common.stdout);
  t.equal(session.model_provider, 'openai', 'the session line says the provider');
  t.equal(reply.usage.model_context_window, 258400, 'the usage says the window');
  const back = lines((await runTool(nativeTool, ['--harness', 'codex'], [common.stdout])).stdout).find((l) => l.payload?.type === 'token_count');
  t.equal(back.payload.info.model_context_window, 258400, 'and it is written back');
  const claude = lines((await runTool(nativeTool, ['--harness', 'codex'], [CLAUDE])).stdout).find((l) => l.payload?.type === 'token_count');
  t.equal(claude.payload.info.model_context_window, null, 'a session of another harness has none');
});
