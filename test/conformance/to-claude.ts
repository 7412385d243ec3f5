/**
 * A session of another harness continued in Claude Code, with the real client: its file
 * goes through `tx-parse | tx-common --active | tx-native --install` into a scratch
 * store, and `claude -p --resume ID` loads it. What the client must send is the Common
 * conversation mapped as tx-native(1) documents (expectedItems), and what it sent is read
 * back less what it adds itself at resume time (sentItems). Used by codex-to-claude and
 * gemini-to-claude.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommonLine, CommonMessage } from '../../lib/common.js';
import type { Test as Tap } from 'tap';
import { repoRoot, resumeConversation } from '../harness/index.js';
import { PROMPT, expectedItems, sentItems } from './claude-items.js';

const root = repoRoot();
/** The id of the installed copy. */
export const SESSION_ID = '7e1d0f5a-0000-4000-8000-00000000c0de';

const bin = (name: string) => path.join(root, 'build', 'bin', `${name}.js`);

/** tx-parse | tx-common --active of a session file, and that stream through tx-native --install into `config`. */
export function convert(file: string, config: string): { common: CommonLine[]; installed: string | null; status: number | null; stderr: string } {
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

export interface Outcome {
  converted: ReturnType<typeof convert>;
  /** The installed file through tx-parse | tx-native, equal to it. */
  roundTrip: boolean | null;
  copy: Awaited<ReturnType<typeof resumeConversation>> | null;
}

export async function convertAndResume(file: string): Promise<Outcome> {
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

/**
 * What a continued session must show: a refusal only for a session too large for the
 * window (said, nothing installed), nothing installed for a session with no conversation
 * (said), else an installed file tx-parse | tx-native gives back byte for byte, which the
 * client loads and sends as the same texts, calls and results, in order.
 */
export function assertContinued(t: Tap, outcome: Outcome): void {
  const { converted, roundTrip, copy } = outcome;
  const messages = converted.common.filter((l): l is CommonMessage => l.type === 'message' && l.sidechain !== true);
  if (converted.status !== 0) {
    // Refused: only for a session Claude Code could not continue, saying so, and leaving nothing behind.
    t.match(converted.stderr, /is about \d+ tokens, more than the 200000-token context window of claude-code/, `a clear refusal: ${converted.stderr.trim().split('\n').pop()}`);
    t.equal(converted.status, 1, 'exit status 1');
    t.equal(converted.installed, null, 'nothing installed');
    return;
  }
  if (messages.length === 0) {
    // A session with no conversation (nothing but bookkeeping): nothing to install, and said.
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
}
