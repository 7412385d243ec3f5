/**
 * A Codex session continued in Claude Code, with the real client: every recorded Codex
 * rollout and every corpus rollout goes through `tx-parse | tx-common --active |
 * tx-native --install` into a scratch store, and `claude -p --resume ID` loads it and
 * sends the same conversation: the same user texts, assistant texts, tool calls and
 * results, in order. (That `tx-common --active` is the conversation Codex itself resumes
 * is codex-common.test.ts's claim.) The mapping is the one tx-native(1) documents:
 * inputs that are not objects wrapped, Codex reasoning left out, a call without a result
 * answered by a placeholder. A session too large for Claude Code's window is refused,
 * with a message that says so, and nothing is installed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { conformanceSkip } from '../harness/index.js';
import { recordedCodexRollouts } from '../harness/codex/index.js';
import { corpusFiles, pool } from '../helpers.js';
import { assertContinued, convert, convertAndResume } from './to-claude.js';

const skip = conformanceSkip();

const rollouts = [
  ...recordedCodexRollouts().map((r) => ({ name: `${r.scenario}/${path.basename(r.file)}`, file: r.file })),
  ...corpusFiles('codex').map((file) => ({ name: path.basename(file), file })),
];

t.test('there are Codex rollouts to continue', (t) => {
  t.ok(recordedCodexRollouts().length >= 10, 'fixtures/recorded-codex holds every scenario');
  t.end();
});

t.test('every Codex rollout, continued in Claude Code, is sent as the same conversation', { skip }, async (t) => {
  // Two clients at a time: each resume waits on the client more than on this machine.
  const outcomes = await pool(rollouts, 2, (r) => convertAndResume(r.file));
  rollouts.forEach((r, k) => {
    t.test(r.name, async (t) => {
      assertContinued(t, outcomes[k]!);
    });
  });
});

t.test('a Codex session larger than Claude Code can hold is refused, saying why, and nothing is installed', async (t) => {
  const plain = recordedCodexRollouts().find((r) => r.scenario === 'plain');
  if (!plain) return t.fail('the plain scenario is recorded');
  const dir = mkdtempSync(path.join(tmpdir(), 'tx-codex-big-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The recorded rollout, then a pasted log of 5 MB as JSON (over 1,000,000 tokens at 4 bytes each: more than any Claude Code model holds).
  const lines = readFileSync(plain.file, 'utf8').split('\n').filter(Boolean);
  const pasted = { timestamp: '2026-12-01T03:11:16.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'log line\n'.repeat(500_000) }] } };
  const file = path.join(dir, 'rollout-2026-12-01T03-11-14-01a22f95-c454-7ee3-ba8a-32e14bb9f4bb.jsonl');
  writeFileSync(file, [...lines, JSON.stringify(pasted)].join('\n') + '\n');
  const config = path.join(dir, 'claude');
  const converted = convert(file, config);
  t.equal(converted.status, 1, 'exit status 1');
  t.match(converted.stderr, /tx-native: session \S+ is about 1\d{6} tokens \(\d+ recorded at its last reply, \d+ estimated after it\), more than the 200000-token context window of claude-code, and it has no compaction for --from-compaction to start from: not written, no model of claude-code has a window that large \(1000000 tokens at most\)/);
  t.equal(converted.installed, null, 'nothing installed');
});
