/**
 * tx-native --harness gemini against the real Gemini CLI, both ways in, the way a user
 * runs it: `tx-parse FILE | tx-common --active | tx-native --harness gemini --install`
 * into a fresh scratch store (no project registry: the install writes the project
 * folder's marker, by which the client finds it), then `gemini --resume ID` in the
 * session's directory:
 *
 * - Gemini → Common → Gemini: every recorded chat file the client resumes, written back
 *   so, makes the client send the conversation the original makes it send, and the
 *   conversation of the Common session.
 * - Claude Code and Codex → Gemini: every recorded Claude Code session and Codex rollout,
 *   and every corpus file of both: the client sends the same user texts, assistant texts,
 *   tool calls and results, in order, mapped as gemini-native-map.ts says (thinking not
 *   sent, commands as the text typed, a result in the order of its call), after tx-native
 *   made the conversation continuable (a placeholder result where a call had none).
 *
 * The CLI runs two at a time.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import type { CommonMessage, CommonSession } from '../../lib/common.js';
import { conformanceSkip, recordedSessionFiles, repoRoot } from '../harness/index.js';
import { recordedCodexRollouts } from '../harness/codex/index.js';
import { publicGeminiChats, recordedGeminiChats, resumeChat, resumeInstalled, type GeminiResumeResult } from '../harness/gemini/index.js';
import { continued, corpusFiles, filesUnder, pool } from '../helpers.js';
import { commonOf, nativeGemini } from '../gemini/pipeline.js';
import { GEMINI_PROMPT, clientItems, commonItems } from './gemini-compare.js';
import { mappedForGemini } from './gemini-native-map.js';

const skip = conformanceSkip();
// Every chat resumed in a real client, two at a time: longer than tap's default timeout.
t.setTimeout(90 * 60 * 1000);
const root = repoRoot();
const SESSION = '7e1d0f5a-0000-4000-8000-00000000c0de';

/** What installing a Common stream and resuming it gave. */
type Installed = { status: number | null; stderr: string; resumed: GeminiResumeResult | null; files: string[] };

/** Install a Common stream with tx-native --harness gemini --install into a scratch HOME and resume it in a scratch project folder. */
async function installAndResume(common: Buffer, resume = true): Promise<Installed> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'txcript-gemini-native-'));
  try {
    const home = path.join(scratch, 'home');
    const cwd = path.join(scratch, 'work');
    mkdirSync(cwd, { recursive: true });
    const native = await nativeGemini(common, ['--install', '--config-dir', path.join(home, '.gemini'), '--cwd', cwd, '--session-id', SESSION]);
    const files = filesUnder(path.join(home, '.gemini', 'tmp')).filter((f) => f.endsWith('.jsonl')).map((f) => path.relative(home, f));
    if (native.status !== 0 || /not installed/.test(native.stderr) || !resume) return { status: native.status, stderr: native.stderr, resumed: null, files };
    return { status: native.status, stderr: native.stderr, resumed: await resumeInstalled(home, cwd, SESSION, { prompt: GEMINI_PROMPT }), files };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The conversation tx-native writes: the Common messages made continuable for Gemini CLI. */
function continuedFor(session: CommonSession, messages: CommonMessage[]): CommonMessage[] {
  return continued([session, ...messages], 'gemini').slice(1) as CommonMessage[];
}

const chats = [...recordedGeminiChats().map((c) => ({ name: `${c.scenario}/${path.basename(c.file)}`, file: c.file })), ...publicGeminiChats()];

t.test('Gemini → Common → Gemini: the installed file makes the client send what the original does', { skip }, async (t) => {
  t.ok(chats.length > 0, 'there are chat files');
  const results = await pool(chats, 2, async (c) => {
    const common = await commonOf(c.file);
    const original = await resumeChat(c.file, { prompt: GEMINI_PROMPT });
    const written = await installAndResume(common.text);
    return { common, original, written };
  });
  chats.forEach((c, i) => {
    const { common, original, written } = results[i]!;
    t.test(c.name, async (t) => {
      if (!original.found) {
        t.equal(common.messages.length, 0, 'a file the client does not resume has no conversation to write');
        t.match(written.stderr, /no message the client could load: not installed/, 'and tx-native says it installs nothing');
        return;
      }
      t.equal(written.status, 0, written.stderr);
      t.notMatch(written.stderr, /left out/, 'nothing was left out');
      if (!written.resumed?.found) return t.fail(`the client did not resume the installed file: ${written.resumed?.found === false ? written.resumed.output.slice(0, 400) : written.stderr}`);
      const theirs = clientItems(written.resumed.contents);
      t.same(theirs, clientItems(original.contents), 'the client sends what it sends for the original');
      t.same(theirs, commonItems(continuedFor(common.session, common.messages)), 'and that is the Common conversation');
    });
  });
});

const foreign = [
  ...recordedSessionFiles().map((file) => ({ name: path.relative(path.join(root, 'fixtures', 'recorded'), file), file })),
  ...corpusFiles('claude-code').map((file) => ({ name: path.basename(file), file })),
  ...recordedCodexRollouts().map((r) => ({ name: `${r.scenario}/${path.basename(r.file)}`, file: r.file })),
  ...corpusFiles('codex').map((file) => ({ name: path.basename(file), file })),
];

t.test('Claude Code and Codex → Gemini: gemini --resume sends the conversation of every recorded session and corpus file, mapped', { skip }, async (t) => {
  t.ok(foreign.length > 0, 'there are sessions of other harnesses to convert');
  const outcomes = await pool(foreign, 2, async (c) => {
    const common = await commonOf(c.file);
    // A subagent's conversation goes where the client keeps subagent chats, which gemini --resume does not list.
    return { common, installed: await installAndResume(common.text, !common.session.parent) };
  });
  foreign.forEach((c, i) => {
    const { common, installed } = outcomes[i]!;
    t.test(c.name, async (t) => {
      const parent = common.session.parent;
      if (parent) {
        t.equal(installed.status, 0, installed.stderr);
        t.same(installed.files.map((f) => path.basename(path.dirname(f))), [parent.session.toLowerCase()], `a subagent's conversation: installed among its parent's subagent chats (${installed.files.join(', ')}), which the client does not resume by id`);
        return;
      }
      const expected = mappedForGemini(continuedFor(common.session, common.messages));
      if (installed.resumed === null) {
        t.equal(expected.length, 0, `nothing installed only when the session has no message the client would send (${installed.stderr.trim().split('\n').pop()})`);
        t.not(installed.stderr, /\n\s+at .+\(.+:\d+:\d+\)/, 'no stack trace');
        return;
      }
      if (!installed.resumed.found) return t.fail(`the client did not resume the installed file: ${installed.resumed.output.slice(0, 600)}`);
      const theirs = clientItems(installed.resumed.contents);
      t.equal(theirs.length, expected.length, 'as many parts as the mapped conversation');
      for (let k = 0; k < Math.max(theirs.length, expected.length); k++) if (!t.same(theirs[k], expected[k], `part ${k + 1} (${expected[k]?.role ?? theirs[k]?.role})`)) break;
    });
  });
});

t.test('a conversation larger than the Gemini context window is refused clearly and nothing is installed; from its compaction it fits, and the client resumes from there', { skip }, async (t) => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'txcript-gemini-large-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const home = path.join(scratch, 'home');
  const cwd = path.join(scratch, 'work');
  mkdirSync(cwd, { recursive: true });
  // About 1,100,000 tokens of tool output (4 bytes a token): more than Gemini CLI's 1,048,576.
  const before = [
    { type: 'session', harness: 'claude-code', id: '44444444-4444-4444-8444-444444444444', cwd, started_at: '2026-07-01T00:00:00.000Z' },
    { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: 'Read the log.' }] },
    { type: 'message', id: 'a1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_log', name: 'Read', input: { file_path: '/var/log/big.log' } }] },
    { type: 'message', id: 'u2', role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_log', content: 'x'.repeat(4_400_000) }] },
    { type: 'message', id: 'a2', role: 'assistant', content: [{ type: 'text', text: 'The log is long.' }] },
  ];
  const after = [
    { type: 'message', id: 'u3', role: 'user', after_compaction: true, content: [{ type: 'text', text: 'Summary: the log was read; it is long.' }] },
    { type: 'message', id: 'a3', role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
  ];
  const ndjson = (lines: object[]) => lines.map((l) => JSON.stringify(l) + '\n').join('');
  const args = ['--install', '--config-dir', path.join(home, '.gemini'), '--cwd', cwd];
  const refused = await nativeGemini(ndjson(before), args);
  t.equal(refused.status, 1, 'refused: exit 1');
  t.match(refused.stderr, /^tx-native: session 44444444-4444-4444-8444-444444444444 is about \d+ tokens \(estimated from its bytes\), more than the 1048576-token context window of gemini, and it has no compaction for --from-compaction to start from: not written, no model of gemini has a window that large/m, 'the message says why');
  t.notOk(existsSync(path.join(home, '.gemini', 'tmp')), 'nothing installed');
  const whole = await nativeGemini(ndjson([...before, ...after]), args);
  t.equal(whole.status, 0, `the session installs: the client resumes from its compaction (${whole.stderr.trim().split('\n')[0]})`);
  const resumed = await resumeInstalled(home, cwd, '44444444-4444-4444-8444-444444444444', { prompt: GEMINI_PROMPT });
  if (!resumed.found) return t.fail(`the client did not resume it: ${resumed.output.slice(0, 400)}`);
  t.same(
    clientItems(resumed.contents),
    [
      { role: 'user', part: { text: 'Summary: the log was read; it is long.' } },
      { role: 'model', part: { text: 'Noted.' } },
    ],
    'the client sends the conversation from the compaction on, nothing of what came before it',
  );
});
