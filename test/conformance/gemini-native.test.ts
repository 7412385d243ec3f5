/**
 * The Gemini codec's from-Common against the real Gemini CLI, both ways in:
 *
 * - Gemini → Common → Gemini: every recorded chat file the client resumes, taken to Common
 *   (--active) and written back by the writer, makes `gemini --resume` send the conversation
 *   the original makes it send, and the conversation of the Common session.
 * - Claude Code and Codex → Gemini: every recorded Claude Code session and Codex rollout, and
 *   every corpus file of both, `tx-parse | tx-common --active`, written by the writer: the client
 *   sends the same user texts, assistant texts, tool calls and results, in order, mapped as
 *   gemini-native-map.ts says (thinking not sent, commands as the text typed, a result in the
 *   order of its call).
 *
 * The writer is called directly (tx-native does not know the harness yet). The CLI runs
 * two at a time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import type { CommonLine, CommonMessage, CommonSession } from '../../lib/common.js';
import { conformanceSkip, recordedSessionFiles, repoRoot } from '../harness/index.js';
import { recordedCodexRollouts } from '../harness/codex/index.js';
import { recordedGeminiChats, resumeChat, type GeminiResumeResult } from '../harness/gemini/index.js';
import { corpusFiles, pool, runBin } from '../helpers.js';
import { geminiCommonOf, writeGemini } from '../gemini/helpers.js';
import { GEMINI_PROMPT, clientItems, commonItems } from './gemini-compare.js';
import { mappedForGemini } from './gemini-native-map.js';

const skip = conformanceSkip();
const root = repoRoot();
const SESSION = '7e1d0f5a-0000-4000-8000-00000000c0de';

/** Write Common messages as a chat file in a scratch folder and resume it. */
async function writeAndResume(session: CommonSession, messages: CommonMessage[]): Promise<{ resumed: GeminiResumeResult; warnings: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'txcript-gemini-native-'));
  try {
    const { lines, warnings } = writeGemini(session, messages, SESSION);
    const file = path.join(dir, `session-2026-01-01T00-00-${SESSION.slice(0, 8)}.jsonl`);
    writeFileSync(file, lines.map((l) => JSON.stringify(l) + '\n').join(''));
    return { resumed: await resumeChat(file, { prompt: GEMINI_PROMPT }), warnings };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const chats = recordedGeminiChats();

t.test('Gemini → Common → Gemini: the written file makes the client send what the original does', { skip }, async (t) => {
  t.ok(chats.length > 0, 'there are recorded chat files');
  const results = await pool(chats, 2, async (c) => {
    const common = geminiCommonOf(c.file);
    const original = await resumeChat(c.file, { prompt: GEMINI_PROMPT });
    const written = common.messages.length > 0 ? await writeAndResume(common.session, common.messages) : null;
    return { common, original, written };
  });
  chats.forEach((c, i) => {
    const { common, original, written } = results[i]!;
    t.test(`${c.scenario}/${path.basename(c.file)}`, async (t) => {
      if (!original.found) {
        t.equal(written, null, 'a file the client does not resume has no conversation to write');
        return;
      }
      if (!written || !written.resumed.found) return t.fail(`the client did not resume the written file: ${written?.resumed.found === false ? written.resumed.output.slice(0, 400) : 'nothing written'}`);
      t.same(written.warnings, [], 'nothing was left out');
      const theirs = clientItems(written.resumed.contents);
      t.same(theirs, clientItems(original.contents), 'the client sends what it sends for the original');
      t.same(theirs, commonItems(common.messages), 'and that is the Common conversation');
    });
  });
});

const foreign = [
  ...recordedSessionFiles().map((file) => ({ name: path.relative(path.join(root, 'fixtures', 'recorded'), file), file })),
  ...corpusFiles('claude-code').map((file) => ({ name: path.basename(file), file })),
  ...recordedCodexRollouts().map((r) => ({ name: `${r.scenario}/${path.basename(r.file)}`, file: r.file })),
  ...corpusFiles('codex').map((file) => ({ name: path.basename(file), file })),
];

/** The Common stream of a Claude Code or Codex file, as a user gets it: tx-parse | tx-common --active. */
async function foreignCommon(file: string): Promise<{ session: CommonSession; messages: CommonMessage[] }> {
  const parsed = await runBin('tx-parse', [file]);
  const common = await runBin('tx-common', ['--active'], parsed.stdout);
  const lines = common.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CommonLine);
  return { session: lines[0] as CommonSession, messages: lines.filter((l): l is CommonMessage => l.type === 'message') };
}

t.test('Claude Code and Codex → Gemini: gemini --resume sends the conversation of every recorded session and corpus file, mapped', { skip }, async (t) => {
  t.ok(foreign.length > 0, 'there are sessions of other harnesses to convert');
  const outcomes = await pool(foreign, 2, async (c) => {
    const common = await foreignCommon(c.file);
    if (common.messages.length === 0) return { common, resumed: null };
    return { common, resumed: (await writeAndResume(common.session, common.messages)).resumed };
  });
  foreign.forEach((c, i) => {
    const { common, resumed } = outcomes[i]!;
    t.test(c.name, async (t) => {
      const expected = mappedForGemini(common.messages);
      if (resumed === null || expected.length === 0) {
        t.equal(expected.length, 0, 'nothing to resume: the session has no message the client would send');
        return;
      }
      if (!resumed.found) return t.fail(`the client did not resume the written file: ${resumed.output.slice(0, 600)}`);
      const theirs = clientItems(resumed.contents);
      t.equal(theirs.length, expected.length, 'as many parts as the mapped conversation');
      for (let k = 0; k < Math.max(theirs.length, expected.length); k++) if (!t.same(theirs[k], expected[k], `part ${k + 1} (${expected[k]?.role ?? theirs[k]?.role})`)) break;
    });
  });
});
