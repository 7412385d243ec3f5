/**
 * A pi session continued in Claude Code and in Codex, with the real clients: every pi
 * session the tests hold (recorded, hand-written, public) goes `tx-parse | tx-common
 * --active | tx-native --harness H --install` into a scratch store, and the client
 * (`claude -p --resume ID`, `codex exec resume ID`) sends the same conversation: the same
 * user texts, assistant texts, tool calls and results as the source's Common, in order,
 * mapped as tx-native(1) says. That `tx-common --active` is the conversation pi itself
 * resumes is pi-common.test.ts's claim. A session the target cannot hold is refused
 * clearly, with nothing installed.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { escapeEnvelope } from '../../lib/claude-code/escape.js';
import { commonTool } from '../../lib/commands/common.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import type { CommonLine, CommonMessage } from '../../lib/common.js';
import { conformanceSkip, resumeConversation } from '../harness/index.js';
import { EXEC_FLAGS, runCodex, startMockResponses, writeCodexConfig, type InputItem } from '../harness/codex/index.js';
import { piSessions } from '../harness/pi/index.js';
import { continued, filesUnder, pool, runTool } from '../helpers.js';
import { expectedItems, PROMPT, sentItems } from './claude-items.js';
import { CODEX_PROMPT, abortedAtCalls, clientSide, omittedImages } from './codex-compare.js';
import { mappedForCodex, pairedByClient, truncatedByClient } from './codex-items.js';

const skip = conformanceSkip();
const SESSION = '7e1d0f5a-0000-4000-8000-0000000000a1';
const sessions = piSessions();

/** What converting one pi session and installing it for a target gave. */
interface Converted {
  messages: CommonMessage[];
  status: number | null;
  stderr: string;
  /** The session files the install left in the target's store. */
  installed: string[];
}

/** tx-parse | tx-common --active | tx-native --harness H --install (and `more` options), in process, into `config` for `cwd`. */
async function convert(file: string, harness: string, config: string, cwd: string, more: string[] = []): Promise<Converted> {
  const parsed = await runTool(parseTool, [file], []);
  const common = await runTool(commonTool, ['--active'], [parsed.stdout]);
  const lines = common.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CommonLine);
  const native = await runTool(nativeTool, ['--harness', harness, '--install', '--config-dir', config, '--cwd', cwd, '--session-id', SESSION, ...more], [common.stdout]);
  const installed = filesUnder(config).filter((f) => path.basename(f).includes(SESSION) && f.endsWith('.jsonl'));
  return { messages: lines.filter((l): l is CommonMessage => l.type === 'message'), status: native.status, stderr: `${common.stderr}${native.stderr}`, installed };
}

/**
 * Step "a command a person ran", for Claude Code: a `!` command on the user's side is the
 * shell escape the Claude Code writer makes of it (tx-native(1): `<bash-input>`, then the
 * output as `<bash-stdout>`, or `<bash-stderr>` when it failed), which the client sends as
 * the user's texts.
 */
function shellAsTyped(messages: CommonMessage[]): CommonMessage[] {
  return messages.map((m) => {
    if (m.role !== 'user') return m;
    const blocks = m.content as any[];
    const shell = new Set(blocks.filter((b) => b.type === 'tool_use' && b.name === '!').map((b) => b.id));
    if (shell.size === 0) return m;
    const content: any[] = [];
    for (const b of blocks) {
      if (b.type === 'tool_use' && shell.has(b.id)) content.push({ type: 'text', text: `<bash-input>${escapeEnvelope(String(b.input?.args ?? ''))}</bash-input>` });
      else if (b.type === 'tool_result' && shell.has(b.tool_use_id)) {
        const out = escapeEnvelope(typeof b.content === 'string' ? b.content : b.content.map((x: any) => (x.type === 'text' ? x.text : '')).join('\n'));
        content.push({ type: 'text', text: b.is_error ? `<bash-stdout></bash-stdout><bash-stderr>${out}</bash-stderr>` : `<bash-stdout>${out}</bash-stdout><bash-stderr></bash-stderr>` });
      } else content.push(b);
    }
    return { ...m, content };
  });
}

/**
 * Step "a second result for one call", for Claude Code: pi answers a call before a failed
 * reply with "No result provided" and keeps the result that comes after it (pi-common
 * shows both sent); the Messages API takes one result per call, so the writer keeps the
 * later one as the labelled text tx-native(1) documents for a result whose call is gone.
 */
function secondResultsAsText(messages: CommonMessage[]): CommonMessage[] {
  const answered = new Set<string>();
  return messages.map((m) => {
    if (m.role !== 'user') return m;
    const content = (m.content as any[]).map((b) => {
      if (b.type !== 'tool_result') return b;
      if (!answered.has(b.tool_use_id)) {
        answered.add(b.tool_use_id);
        return b;
      }
      const label = `[result of tool call ${b.tool_use_id}, whose call is not in this conversation${b.is_error ? '; an error' : ''}]`;
      return { type: 'text', text: typeof b.content === 'string' ? `${label}\n${b.content}` : label };
    });
    return { ...m, content };
  });
}

/** A refusal because the conversation is larger than the target's window. */
const TOO_LARGE = /is about \d+ tokens, more than the \d+-token context window of [a-z-]+/;

/** Into a scratch Claude Code store, then `claude -p --resume ID` (the oracle copies the installed file into a store of its own). */
async function toClaude(file: string): Promise<{ refused: Converted | null; converted: Converted; copy: Awaited<ReturnType<typeof resumeConversation>> | null }> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'txcript-pi-claude-'));
  try {
    const cwd = path.join(scratch, 'work');
    mkdirSync(cwd, { recursive: true });
    let refused: Converted | null = null;
    let converted = await convert(file, 'claude-code', path.join(scratch, 'claude'), cwd);
    if (converted.status === 1 && TOO_LARGE.test(converted.stderr)) {
      // A real session larger than Claude Code's window: refused; told a larger window, the mapping is compared all the same.
      refused = converted;
      converted = await convert(file, 'claude-code', path.join(scratch, 'claude-larger'), cwd, ['--context-window', '10000000']);
    }
    if (converted.status !== 0 || converted.installed.length !== 1) return { refused, converted, copy: null };
    return { refused, converted, copy: await resumeConversation(converted.installed[0]!, { prompt: PROMPT, sessionId: SESSION, cwd }) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Into a scratch CODEX_HOME, then `codex exec resume ID`. */
async function toCodex(file: string): Promise<{ converted: Converted; input: InputItem[] | null; output: string }> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'txcript-pi-codex-'));
  try {
    const home = path.join(scratch, 'home');
    const codexHome = path.join(home, '.codex');
    const cwd = path.join(scratch, 'work');
    mkdirSync(cwd, { recursive: true });
    const converted = await convert(file, 'codex', codexHome, cwd);
    if (converted.status !== 0 || converted.installed.length !== 1) return { converted, input: null, output: '' };
    const mock = await startMockResponses({});
    try {
      writeCodexConfig(codexHome, mock.url, { provider: 'openai' });
      const r = await runCodex({ args: ['exec', ...EXEC_FLAGS, 'resume', SESSION, CODEX_PROMPT], home, cwd });
      return { converted, input: mock.responsesRequests()[0]?.body?.input ?? null, output: `exit ${r.code}\n${r.stdout}${r.stderr}` };
    } finally {
      await mock.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

t.test('there are pi sessions of every origin to continue', (t) => {
  t.ok(sessions.filter((s) => !s.scenario.startsWith('fixtures/')).length >= 10, 'recorded by the real client');
  t.ok(sessions.some((s) => s.scenario === 'fixtures/pi'), 'hand-written');
  t.ok(sessions.some((s) => s.scenario === 'fixtures/public-pi'), 'public');
  t.end();
});

t.test('pi → Claude Code: claude --resume sends the conversation of every pi session, mapped', { skip }, async (t) => {
  const outcomes = await pool(sessions, 2, (s) => toClaude(s.file));
  sessions.forEach((s, i) => {
    const { refused, converted, copy } = outcomes[i]!;
    t.test(`${s.scenario}/${path.basename(s.file)}`, async (t) => {
      if (refused) {
        t.match(refused.stderr, /more than the 200000-token context window of claude-code/, `refused at first, saying why: ${refused.stderr.trim().split('\n').pop()}`);
        t.same(refused.installed, [], 'nothing installed by the refusal');
      }
      t.equal(converted.status, 0, `installed ${converted.stderr.trim().split('\n').pop() ?? ''}`);
      t.equal(converted.installed.length, 1, 'one session file in the store');
      if (!copy) return;
      if (!copy.found) return t.fail(`claude --resume did not load it: ${copy.output.slice(0, 600)}`);
      const want = expectedItems(secondResultsAsText(shellAsTyped(converted.messages)));
      const got = sentItems(copy.messages);
      t.ok(want.length > 0, 'the conversation has something to compare');
      t.equal(got.length, want.length, 'as many texts, calls and results');
      for (let k = 0; k < Math.max(got.length, want.length); k++) if (!t.same(got[k], want[k], `item ${k + 1} (${(want[k] ?? got[k])?.type})`)) break;
    });
  });
});

t.test('pi → Codex: codex exec resume sends the conversation of every pi session, mapped', { skip }, async (t) => {
  const outcomes = await pool(sessions, 2, (s) => toCodex(s.file));
  sessions.forEach((s, i) => {
    const o = outcomes[i]!;
    t.test(`${s.scenario}/${path.basename(s.file)}`, async (t) => {
      if (o.converted.status !== 0) {
        // Refused: only for a session Codex could not hold, saying so, and leaving nothing behind.
        t.match(o.converted.stderr, TOO_LARGE, `a clear refusal: ${o.converted.stderr.trim().split('\n').pop()}`);
        t.same(o.converted.installed, [], 'nothing installed');
        return;
      }
      if (o.input === null) return t.fail(`the client sent nothing for the installed rollout: ${o.output.slice(0, 600)}`);
      const session = { type: 'session', harness: 'pi', id: SESSION };
      const expected = abortedAtCalls(pairedByClient(mappedForCodex(continued([session, ...o.converted.messages], 'codex').slice(1))));
      const client = clientSide(o.input, expected.length);
      const theirs = abortedAtCalls(client.items);
      const ours = truncatedByClient(omittedImages(expected, theirs), theirs);
      t.ok(ours.length > 0, 'the conversation has something to compare');
      t.equal(theirs.length, ours.length, 'as many items as the mapped conversation');
      for (let k = 0; k < Math.max(ours.length, theirs.length); k++) if (!t.same(theirs[k], ours[k], `item ${k + 1} (${ours[k]?.type ?? theirs[k]?.type})`)) break;
    });
  });
});
