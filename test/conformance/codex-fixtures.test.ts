/**
 * The recorded Codex rollouts are what the recorder says they are: written by the
 * pinned CLI, one folder per scenario showing what the scenario promises, listed in
 * the folder's README, and byte for byte through tx-parse | tx-native.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CODEX_VERSION, recordedCodexRollouts, recordedCodexRoot } from '../harness/codex/index.js';
import { codexScenarios, missingCodexExpectations } from '../harness/codex/record.js';
import { pipeline } from '../helpers.js';

const root = recordedCodexRoot();

t.test('fixtures/recorded-codex/CLI_VERSION names the pinned CLI version', async (t) => {
  t.equal(readFileSync(path.join(root, 'CLI_VERSION'), 'utf8').trim(), CODEX_VERSION);
});

t.test('every session_meta of the recorded rollouts names the pinned CLI version', async (t) => {
  const seen = new Set<string>();
  for (const r of recordedCodexRollouts()) {
    for (const line of readFileSync(r.file, 'utf8').split('\n')) {
      if (!line) continue;
      const o = JSON.parse(line) as { type?: string; payload?: { cli_version?: unknown } };
      if (o.type === 'session_meta' && typeof o.payload?.cli_version === 'string') seen.add(o.payload.cli_version);
    }
  }
  t.same([...seen], [CODEX_VERSION]);
});

t.test('fixtures/recorded-codex/README.md has a row for every scenario', async (t) => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  for (const sc of codexScenarios) t.ok(readme.includes(`| ${sc.name} |`), sc.name);
});

for (const sc of codexScenarios) {
  t.test(`recorded rollout ${sc.name} shows ${sc.expects.join(', ')}`, async (t) => {
    const dir = path.join(root, sc.name);
    t.ok(existsSync(dir), `${dir} exists`);
    t.same(missingCodexExpectations(sc, dir), [], 'nothing promised is missing');
  });
}

for (const r of recordedCodexRollouts()) {
  t.test(`tx-parse | tx-native reproduces ${r.scenario}/${path.basename(r.file)} byte for byte`, async (t) => {
    const bytes = readFileSync(r.file);
    const out = await pipeline(bytes, [
      ['tx-parse', []],
      ['tx-native', []],
    ]);
    t.ok(out.stdout.equals(bytes), `output equals the file (${out.stdout.length} vs ${bytes.length} bytes)`);
  });
}
