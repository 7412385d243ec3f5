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
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import type { CommonLine, CommonMessage } from '../../lib/common.js';
import { conformanceSkip, repoRoot, resumeConversation } from '../harness/index.js';
import { recordedCodexRollouts } from '../harness/codex/index.js';
import { corpusFiles, pool } from '../helpers.js';
import { expectedItems, PROMPT, sentItems } from './claude-items.js';

const skip = conformanceSkip();
const root = repoRoot();
const SESSION_ID = '7e1d0f5a-0000-4000-8000-00000000c0de';

const bin = (name: string) => path.join(root, 'build', 'bin', `${name}.js`);

/** tx-parse | tx-common --active of a rollout, and that stream through tx-native --install into `config`. */
function convert(file: string, config: string): { common: CommonLine[]; installed: string | null; status: number | null; stderr: string } {
  const parsed = spawnSync(process.execPath, [bin('tx-parse'), file], { maxBuffer: 1 << 30 });
  const common = spawnSync(process.execPath, [bin('tx-common'), '--active'], { input: parsed.stdout, maxBuffer: 1 << 30 });
  const native = spawnSync(process.execPath, [bin('tx-native'), '--install', '--config-dir', config, '--session-id', SESSION_ID], { input: common.stdout, maxBuffer: 1 << 30 });
  let installed: string | null = null;
  try {
    const projects = path.join(config, 'projects');
    for (const dir of readdirSync(projects)) for (const f of readdirSync(path.join(projects, dir))) if (f.endsWith('.jsonl')) installed = path.join(projects, dir, f);
  } catch {
    installed = null;
  }
  const lines = common.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CommonLine);
  return { common: lines, installed, status: native.status, stderr: `${common.stderr}${native.stderr}` };
}

const rollouts = [
  ...recordedCodexRollouts().map((r) => ({ name: `${r.scenario}/${path.basename(r.file)}`, file: r.file })),
  ...corpusFiles('codex').map((file) => ({ name: path.basename(file), file })),
];

t.test('there are Codex rollouts to continue', (t) => {
  t.ok(recordedCodexRollouts().length >= 10, 'fixtures/recorded-codex holds every scenario');
  t.end();
});

/** What converting and resuming one rollout gave. */
interface Outcome {
  converted: ReturnType<typeof convert>;
  /** The installed file through tx-parse | tx-native, equal to it. */
  roundTrip: boolean | null;
  copy: Awaited<ReturnType<typeof resumeConversation>> | null;
}

async function convertAndResume(file: string): Promise<Outcome> {
  const config = mkdtempSync(path.join(tmpdir(), 'tx-codex-claude-'));
  try {
    const converted = convert(file, config);
    if (!converted.installed) return { converted, roundTrip: null, copy: null };
    const bytes = readFileSync(converted.installed);
    const parsed = spawnSync(process.execPath, [bin('tx-parse'), converted.installed], { maxBuffer: 1 << 30 });
    const back = spawnSync(process.execPath, [bin('tx-native')], { input: parsed.stdout, maxBuffer: 1 << 30 });
    const copy = await resumeConversation(converted.installed, { prompt: PROMPT, sessionId: SESSION_ID });
    return { converted, roundTrip: back.stdout.equals(bytes), copy };
  } finally {
    rmSync(config, { recursive: true, force: true });
  }
}

t.test('every Codex rollout, continued in Claude Code, is sent as the same conversation', { skip }, async (t) => {
  // Two clients at a time: each resume waits on the client more than on this machine.
  const outcomes = await pool(rollouts, 2, (r) => convertAndResume(r.file));
  rollouts.forEach((r, k) => {
    const { converted, roundTrip, copy } = outcomes[k]!;
    t.test(r.name, async (t) => {
      const messages = converted.common.filter((l): l is CommonMessage => l.type === 'message' && l.sidechain !== true);
      if (converted.status !== 0) {
        // Refused: only for a session Claude Code could not continue, saying so, and leaving nothing behind.
        t.match(converted.stderr, /is about \d+ tokens, more than the 200000-token context window of claude-code/, `a clear refusal: ${converted.stderr.trim().split('\n').pop()}`);
        t.equal(converted.status, 1, 'exit status 1');
        t.equal(converted.installed, null, 'nothing installed');
        return;
      }
      if (messages.length === 0) {
        // A rollout with no conversation (nothing but bookkeeping): nothing to install, and said.
        t.match(converted.stderr, /has no message the client could load: not installed/, 'nothing to install, and said');
        t.equal(converted.installed, null, 'nothing installed');
        return;
      }
      t.ok(converted.installed, `a session was installed ${converted.stderr}`);
      if (!converted.installed || !copy) return;
      t.equal(roundTrip, true, 'the installed file goes through tx-parse | tx-native byte for byte');
      t.equal(copy.found, true, 'claude --resume loads it');
      if (!copy.found) return;
      const want = expectedItems(messages);
      const got = sentItems(copy.messages);
      t.ok(want.length > 0, 'the conversation has something to compare');
      t.equal(got.length, want.length, 'as many texts, calls and results');
      for (let i = 0; i < Math.max(got.length, want.length); i++) t.same(got[i], want[i], `item ${i + 1} (${(want[i] ?? got[i])?.type})`);
    });
  });
});

t.test('a Codex session larger than Claude Code can hold is refused, saying why, and nothing is installed', async (t) => {
  const plain = recordedCodexRollouts().find((r) => r.scenario === 'plain');
  if (!plain) return t.fail('the plain scenario is recorded');
  const dir = mkdtempSync(path.join(tmpdir(), 'tx-codex-big-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The recorded rollout, then a pasted log of 1 MB (over 200,000 tokens at 4 bytes each).
  const lines = readFileSync(plain.file, 'utf8').split('\n').filter(Boolean);
  const pasted = { timestamp: '2026-12-01T03:11:16.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'log line\n'.repeat(111_112) }] } };
  const file = path.join(dir, 'rollout-2026-12-01T03-11-14-01a22f95-c454-7ee3-ba8a-32e14bb9f4bb.jsonl');
  writeFileSync(file, [...lines, JSON.stringify(pasted)].join('\n') + '\n');
  const config = path.join(dir, 'claude');
  const converted = convert(file, config);
  t.equal(converted.status, 1, 'exit status 1');
  t.match(converted.stderr, /tx-native: session \S+ is about 2\d{5} tokens, more than the 200000-token context window of claude-code, and it has no compaction to start from: not written, no client could continue it/);
  t.equal(converted.installed, null, 'nothing installed');
});
