// The model a session written for OpenCode continues with: the client resumes with the
// model of the last user message, so the writer names --model, else the model of the
// user's global config, else the one that answered.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { configuredModel, parseModel } from '../../lib/opencode/config-model.js';
import { pipeline, runBin } from '../helpers.js';
import { recordedExports } from './build.js';

t.test('PROVIDER/MODEL is split at its first slash', async (t) => {
  t.same(parseModel('anthropic/claude-x'), { providerID: 'anthropic', modelID: 'claude-x' });
  t.same(parseModel('openrouter/meta/llama'), { providerID: 'openrouter', modelID: 'meta/llama' }, 'the model may hold slashes');
  t.equal(parseModel('claude-x'), null, 'no provider');
  t.equal(parseModel('/x'), null);
  t.equal(parseModel('x/'), null);
});

t.test('the configured model is the global config’s, under $XDG_CONFIG_HOME or ~/.config', async (t) => {
  const home = mkdtempSync(path.join(tmpdir(), 'txcript-opencode-model-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  t.equal(configuredModel({ HOME: home }), null, 'no config: none');
  mkdirSync(path.join(home, '.config', 'opencode'), { recursive: true });
  writeFileSync(path.join(home, '.config', 'opencode', 'opencode.json'), JSON.stringify({ model: 'anthropic/claude-y' }));
  t.same(configuredModel({ HOME: home }), { providerID: 'anthropic', modelID: 'claude-y' });
  const xdg = path.join(home, 'xdg');
  mkdirSync(path.join(xdg, 'opencode'), { recursive: true });
  writeFileSync(path.join(xdg, 'opencode', 'opencode.json'), '{"model": "google/gemini-z"}');
  t.same(configuredModel({ HOME: home, XDG_CONFIG_HOME: xdg }), { providerID: 'google', modelID: 'gemini-z' }, '$XDG_CONFIG_HOME first');
  writeFileSync(path.join(xdg, 'opencode', 'opencode.json'), '{ not json');
  t.equal(configuredModel({ HOME: home, XDG_CONFIG_HOME: xdg }), null, 'a config that is not JSON: none');
});

t.test('tx-native --harness opencode: the user messages name --model, else the configured model, else the answers’', async (t) => {
  const home = mkdtempSync(path.join(tmpdir(), 'txcript-opencode-model-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const file = recordedExports().find((d) => d.scenario === 'tools')!.file;
  const common = (await pipeline(await (await import('node:fs/promises')).readFile(file), [['tx-parse', []], ['tx-common', []]])).stdout;
  const userModels = async (args: string[], env: NodeJS.ProcessEnv) => {
    const r = await runBin('tx-native', ['--harness', 'opencode', ...args], common, { PATH: process.env.PATH, ...env });
    t.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout.toString('utf8'));
    return [...new Set(doc.messages.filter((m: any) => m.info.role === 'user').map((m: any) => `${m.info.model.providerID}/${m.info.model.modelID}`))];
  };
  t.same(await userModels([], { HOME: home }), ['anthropic/claude-mock'], 'no config: the model that answered');
  mkdirSync(path.join(home, '.config', 'opencode'), { recursive: true });
  writeFileSync(path.join(home, '.config', 'opencode', 'opencode.json'), JSON.stringify({ model: 'anthropic/claude-configured' }));
  t.same(await userModels([], { HOME: home }), ['anthropic/claude-configured'], 'the configured model');
  t.same(await userModels(['--model', 'openai/gpt-given'], { HOME: home }), ['openai/gpt-given'], '--model first');
  const bad = await runBin('tx-native', ['--harness', 'opencode', '--model', 'nope'], common, { PATH: process.env.PATH, HOME: home });
  t.equal(bad.status, 2, 'a --model that is not PROVIDER/MODEL is a usage error');
  t.match(bad.stderr, /--model "nope" is not PROVIDER\/MODEL/);
});
