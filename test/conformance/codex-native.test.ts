/**
 * tx-native --harness codex against the real Codex CLI, both ways in:
 *
 * - Claude Code → Codex: every recorded Claude Code session and every Claude Code corpus
 *   file goes `tx-parse | tx-common --active | tx-native --harness codex --install` into a
 *   scratch CODEX_HOME; `codex exec resume ID ping` must then send the same conversation,
 *   mapped as tx-native(1) says (user texts, assistant texts, reasoning, tool calls and
 *   results, in order). Where tx-native refuses a session, the refusal must be a clear
 *   message and nothing may be installed.
 * - Codex → Common → Codex: every recorded rollout, Codex fixture of fixtures/common and corpus rollout the client
 *   loads, written back through Common, must make the client send what the original makes
 *   it send (in the normal form of codex-compare.ts).
 *
 * The CLI runs two at a time: each run takes about a second.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { nativeTool } from '../../lib/commands/native.js';
import { conformanceSkip, recordedSessionFiles, repoRoot } from '../harness/index.js';
import { EXEC_FLAGS, recordedCodexRollouts, resumeRollout, runCodex, startAppServer, startMockResponses, writeCodexConfig } from '../harness/codex/index.js';
import type { InputItem } from '../harness/codex/index.js';
import { corpusFiles, filesUnder, pool, runTool } from '../helpers.js';
import { CODEX_PROMPT, clientSide } from './codex-compare.js';
import { assertMapped, convertAndResume, scratchHome } from './to-codex.js';

const skip = conformanceSkip();
const root = repoRoot();

const claude = [...recordedSessionFiles().map((file) => ({ name: path.relative(path.join(root, 'fixtures', 'recorded'), file), file })), ...corpusFiles('claude-code').map((file) => ({ name: path.basename(file), file }))];

t.test('Claude Code → Codex: codex exec resume sends the conversation of every recorded session and corpus file, mapped', { skip }, async (t) => {
  t.ok(claude.length > 0, 'there are Claude Code sessions to convert');
  const outcomes = await pool(claude, 2, (c) => convertAndResume(c.file));
  claude.forEach((c, i) => {
    t.test(c.name, async (t) => {
      assertMapped(t, outcomes[i]!, 'claude-code');
    });
  });
});

// The hand-written Codex fixtures of fixtures/common too; one that does not open with session_meta (an early rollout) the client no longer loads.
const codexFixtures = readdirSync(path.join(root, 'fixtures', 'common'))
  .filter((d) => d.startsWith('codex-'))
  .sort()
  .map((d) => ({ name: `fixtures/common/${d}`, file: path.join(root, 'fixtures', 'common', d, 'input.jsonl'), recorded: false }));
const codex = [
  ...recordedCodexRollouts().map((r) => ({ name: `${r.scenario}/${path.basename(r.file)}`, file: r.file, recorded: true })),
  ...codexFixtures,
  ...corpusFiles('codex').map((file) => ({ name: path.basename(file), file, recorded: false })),
];

t.test('Codex → Common → Codex: the rewritten rollout makes the client send what the original does', { skip }, async (t) => {
  t.ok(codex.length > 0, 'there are rollouts to rewrite');
  const originals = await pool(codex, 2, (c) => resumeRollout(c.file, { prompt: CODEX_PROMPT }));
  const rewritten = await pool(codex, 2, (c) => convertAndResume(c.file));
  codex.forEach((c, i) => {
    const before = originals[i]!;
    const after = rewritten[i]!;
    t.test(c.name, async (t) => {
      if (!before.found) {
        if (c.recorded) t.fail(`the client did not load the recorded rollout: ${before.output.slice(0, 300)}`);
        else t.pass('the client does not load the original itself, nothing to compare');
        return;
      }
      if (!after.installed) {
        // A rollout with no conversation (nothing but bookkeeping) has no message to write.
        if (clientSide(before.input, 0).items.length === 0 && after.status === 0) return t.match(after.stderr, /not installed/, 'the original holds no conversation: nothing to install, and said');
        return t.fail(`tx-native refused: ${after.stderr}`);
      }
      if (after.input === null) return t.fail(`the client sent nothing for the rewritten rollout: ${after.output.slice(0, 600)}`);
      const a = clientSide(before.input, 0).items;
      const b = clientSide(after.input, 0).items;
      t.equal(b.length, a.length, 'as many items as from the original');
      for (let k = 0; k < Math.max(a.length, b.length); k++) if (!t.same(b[k], a[k], `item ${k + 1} (${a[k]?.type ?? b[k]?.type})`)) break;
    });
  });
});

/** The texts of the user messages the client sent, in order. */
function userTexts(input: InputItem[] | undefined): string[] {
  const out: string[] = [];
  for (const i of input ?? []) if (i.type === 'message' && i.role === 'user' && Array.isArray(i.content)) for (const c of i.content as any[]) if (typeof c?.text === 'string') out.push(c.text);
  return out;
}

t.test('an installed rollout is found by id, by its session_index name, and by the picker; codex exec --last sees it only once opened when the client keeps a state database', { skip }, async (t) => {
  const { scratch, home, codexHome, cwd } = scratchHome('txcript-codex-picker-');
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const named = path.join(root, 'fixtures', 'native-codex', 'named-session', 'common.jsonl');
  const install = async (id: string) => runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', codexHome, '--cwd', cwd, '--session-id', id, named], []);
  const resume = async (...args: string[]) => {
    const mock = await startMockResponses({});
    try {
      writeCodexConfig(codexHome, mock.url, { provider: 'openai' });
      await runCodex({ args: ['exec', ...EXEC_FLAGS, 'resume', ...args, CODEX_PROMPT], home, cwd });
      return mock.responsesRequests()[0]?.body?.input;
    } finally {
      await mock.close();
    }
  };
  const PROMPT = 'The test fails one time in ten.';
  const first = '11111111-1111-4111-8111-111111111111';
  t.equal((await install(first)).status, 0, 'installed');
  // A fresh home: the client has no state database yet and reads the sessions folder.
  t.same(userTexts(await resume('--last')).slice(0, 1), [PROMPT], 'the picker (--last) of a fresh home finds the installed session');
  t.same(userTexts(await resume('Fix the flaky test')).slice(0, 1), [PROMPT], 'the session_index name finds it');
  t.ok(existsSync(path.join(codexHome, 'state_5.sqlite')), 'the client now keeps its state database');
  // A second session installed while that database exists: by id it is found at once; the picker learns of it when it is opened.
  const second = '22222222-2222-4222-8222-222222222222';
  const other = mkdtempSync(path.join(scratch, 'other-'));
  const text = readFileSync(named, 'utf8').replace(PROMPT, 'A second session.').replace('"started_at":"2026-05-06T07:08:09.000Z"', '"started_at":"2026-06-01T00:00:00.000Z"');
  const input2 = path.join(other, 'second.jsonl');
  writeFileSync(input2, text);
  t.equal((await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', codexHome, '--cwd', cwd, '--session-id', second, input2], [])).status, 0, 'a second session installed');
  const before = userTexts(await resume('--last'))[0];
  t.equal(before, PROMPT, 'with a state database, codex exec resume --last does not yet see the session installed after it (tx-native(1), Installing a rollout)');
  // What the interactive UI lists (its session picker) and shows, through the client's app server.
  const app = await startAppServer(home, cwd);
  try {
    const listed = (await app.request('thread/list', { cwd })).data.map((th: any) => ({ id: th.id, preview: th.preview, name: th.name }));
    t.same(
      listed.sort((a: any, b: any) => a.id.localeCompare(b.id)),
      [
        { id: first, preview: PROMPT, name: 'Fix the flaky test' },
        { id: second, preview: 'A second session.', name: 'Fix the flaky test' },
      ],
      'the picker lists both at once, with the preview of their first prompt and their session_index name',
    );
    const turns = (await app.request('thread/read', { threadId: second, includeTurns: true })).thread.turns;
    const shown = turns.flatMap((turn: any) => turn.items).map((i: any) => (i.type === 'userMessage' ? ['user', i.content.map((c: any) => c.text).join('')] : [i.type, i.text]));
    t.same(shown, [['user', 'A second session.'], ['agentMessage', 'It depends on the clock.']], 'the UI shows the prompt and the reply from the events tx-native writes');
  } finally {
    app.close();
  }
  t.same(userTexts(await resume(second)).slice(0, 1), ['A second session.'], 'codex exec resume ID finds it');
  t.same(userTexts(await resume('--last')).slice(0, 1), ['A second session.'], 'once opened by id, codex exec resume --last sees it');
});

t.test('a conversation larger than the Codex context window is refused clearly under --strict-size and nothing is installed; from its compaction it fits and resumes', { skip }, async (t) => {
  const { scratch, home, codexHome, cwd } = scratchHome('txcript-codex-large-');
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  // About 300,000 tokens of tool output (4 bytes a token): more than Codex's 258,400.
  const before = [
    { type: 'session', harness: 'claude-code', id: '33333333-3333-4333-8333-333333333333', cwd: '/home/u/app', started_at: '2026-07-01T00:00:00.000Z' },
    { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: 'Read the log.' }] },
    { type: 'message', id: 'a1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_log', name: 'Read', input: { file_path: '/var/log/big.log' } }] },
    { type: 'message', id: 'u2', role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_log', content: 'x'.repeat(1_200_000) }] },
    { type: 'message', id: 'a2', role: 'assistant', content: [{ type: 'text', text: 'The log is long.' }] },
  ];
  const after = [
    { type: 'message', id: 'u3', role: 'user', after_compaction: true, content: [{ type: 'text', text: 'Summary: the log was read; it is long.' }] },
    { type: 'message', id: 'a3', role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
  ];
  const ndjson = (lines: object[]) => lines.map((l) => JSON.stringify(l) + '\n').join('');
  const args = ['--harness', 'codex', '--install', '--config-dir', codexHome, '--cwd', cwd];
  const refused = await runTool(nativeTool, [...args, '--strict-size'], [ndjson(before)]);
  t.equal(refused.status, 1, 'refused: exit 1');
  t.match(refused.stderr, /^tx-native: session 33333333-3333-4333-8333-333333333333 is about \d+ tokens \(estimated from its bytes\), more than the 258400-token context window of codex, and it has no compaction for --from-compaction to start from: not written \(--strict-size\)/m, 'the message says why');
  t.not(refused.stderr, /\n\s+at .+:\d+:\d+\)/, 'no stack trace');
  t.same(filesUnder(codexHome), [], 'nothing installed');
  // The whole history is written with the compaction marked; Codex resumes from it, so only what follows counts.
  const whole = await runTool(nativeTool, args, [ndjson([...before, ...after])]);
  t.equal(whole.status, 0, `the session installs: Codex resumes from its compaction (${whole.stderr.trim().split('\n')[0]})`);
  const mock = await startMockResponses({});
  try {
    writeCodexConfig(codexHome, mock.url, { provider: 'openai' });
    await runCodex({ args: ['exec', ...EXEC_FLAGS, 'resume', '33333333-3333-4333-8333-333333333333', CODEX_PROMPT], home, cwd });
    const input = mock.responsesRequests()[0]?.body?.input;
    t.same(userTexts(input).slice(0, 1), ['Summary: the log was read; it is long.'], 'the client sends the conversation from the compaction on');
    t.notOk(JSON.stringify(input ?? []).includes('x'.repeat(1000)), 'nothing of what came before it');
  } finally {
    await mock.close();
  }
});
