/**
 * Another harness's session continued in pi, with the real client: every recorded Claude
 * Code session and Codex rollout (and the shared corpus of each, when it is beside the
 * checkout) goes `tx-parse | tx-common --active | tx-native --harness pi --install` into
 * the agent directory of a scratch HOME, and `pi -p --session ID`, run in the session's
 * working directory, finds it by id and sends the same user texts, assistant texts, tool
 * calls and results as the source's Common, mapped as pi keeps them: a person's `!`
 * command as the text pi sends for a shell command, another slash command as the text
 * typed and its output, a compaction's summary in pi's wording, tool results as pi's
 * Anthropic provider sends them (texts joined when there is no image). Reasoning of
 * another harness is left out before writing (tx-native(1), Continuable). A session
 * larger than pi's window is refused clearly, with nothing installed.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import { isModeled, type CommonLine, type CommonMessage } from '../../lib/common.js';
import { conformanceSkip, recordedSessionFiles, repoRoot } from '../harness/index.js';
import { recordedCodexRollouts } from '../harness/codex/index.js';
import { resumeInstalled, writePiConfig, type PiResumeResult } from '../harness/pi/index.js';
import { continued, corpusFiles, filesUnder, pool, runTool } from '../helpers.js';
import { PI_PROMPT, clientConversation, essentials, type ApiMessage } from './pi-compare.js';

const skip = conformanceSkip();
const SESSION = '0198f3a0-0000-7000-8000-0000000c1a0d';
const root = repoRoot();
const sources = [
  ...recordedSessionFiles().map((file) => ({ harness: 'claude-code', name: path.relative(path.join(root, 'fixtures', 'recorded'), file), file })),
  ...corpusFiles('claude-code').map((file) => ({ harness: 'claude-code', name: `corpus/${path.basename(file)}`, file })),
  ...recordedCodexRollouts().map((r) => ({ harness: 'codex', name: `${r.scenario}/${path.basename(r.file)}`, file: r.file })),
  ...corpusFiles('codex').map((file) => ({ harness: 'codex', name: `corpus/${path.basename(file)}`, file })),
];

/** What converting one session into pi's store and resuming it there gave. */
interface Outcome {
  messages: CommonMessage[];
  status: number | null;
  stderr: string;
  installed: string[];
  resumed: PiResumeResult | null;
}

/** tx-parse | tx-common --active | tx-native --harness pi --install into HOME/.pi/agent for a scratch cwd, then `pi --session ID` there. */
async function convertAndResume(file: string): Promise<Outcome> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'txcript-to-pi-'));
  try {
    const home = path.join(scratch, 'home');
    const cwd = path.join(scratch, 'work');
    mkdirSync(cwd, { recursive: true });
    const agentDir = writePiConfig(home, 'http://127.0.0.1:9');
    const parsed = await runTool(parseTool, [file], []);
    const common = await runTool(commonTool, ['--active'], [parsed.stdout]);
    const messages = common.stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CommonLine)
      .filter((l): l is CommonMessage => l.type === 'message' && l.sidechain !== true);
    const native = await runTool(nativeTool, ['--harness', 'pi', '--install', '--config-dir', agentDir, '--cwd', cwd, '--session-id', SESSION], [common.stdout]);
    const installed = filesUnder(path.join(agentDir, 'sessions'));
    const outcome: Outcome = { messages, status: native.status, stderr: `${common.stderr}${native.stderr}`, installed, resumed: null };
    if (native.status === 0 && installed.length === 1) outcome.resumed = await resumeInstalled({ home, cwd, id: SESSION }, { prompt: PI_PROMPT });
    return outcome;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** What pi's Anthropic provider sends of a tool result's content: texts joined when no image is there. */
function sentResult(content: unknown): unknown {
  if (typeof content === 'string') return content;
  const blocks = (content as any[]).filter((b) => b.type === 'text' || (b.type === 'image' && b.source?.type === 'base64'));
  if (!blocks.some((b) => b.type === 'image')) return blocks.map((b) => b.text).join('\n');
  const out = blocks.map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'image', source: b.source }));
  return out.some((b) => b.type === 'text') ? out : [{ type: 'text', text: '(see attached image)' }, ...out];
}

/** A tool call id as pi's Anthropic provider sends the calls of another model: characters the Messages API refuses made `_`, at most 64. */
function sentId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

/**
 * Common messages (made continuable for pi) as pi sends what the writer made of them, in
 * the API's shape (read from tx-native(1)'s pi mapping, written apart from lib/pi). Step
 * "results before what was said meanwhile": what the user's side said while calls of the
 * last reply were unanswered comes after their results (pi would answer them with "No
 * result provided" at it). Step "another model's calls": every reply names a model the
 * mock is not, so pi sends its call ids as the Messages API takes them.
 */
function mappedForPi(messages: CommonMessage[]): ApiMessage[] {
  const out: ApiMessage[] = [];
  let unanswered = new Set<string>();
  let held: ApiMessage[] = [];
  const release = () => {
    out.push(...held);
    held = [];
  };
  for (const m of messages) {
    const blocks = (m.content as any[]).filter((b) => isModeled(b));
    if (m.role === 'assistant') {
      release();
      const content = blocks.filter((b) => b.type === 'text' || b.type === 'tool_use').map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'tool_use', id: sentId(b.id), name: b.name, input: b.input }));
      unanswered = new Set(blocks.filter((b) => b.type === 'tool_use').map((b) => b.id));
      if (content.length) out.push({ role: 'assistant', content });
      continue;
    }
    const results = blocks.filter((b) => b.type === 'tool_result');
    const commands = blocks.filter((b) => b.type === 'tool_use');
    const commandIds = new Set(commands.map((c) => c.id));
    let rest = blocks.filter((b) => b.type === 'text' || (b.type === 'image' && b.source?.type === 'base64'));
    if (m.after_compaction) {
      release();
      unanswered = new Set();
      const summary = rest.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
      const prefix = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
      out.push({ role: 'user', content: [{ type: 'text', text: summary.startsWith(prefix) ? summary : `${prefix}${summary}\n</summary>` }] });
      rest = rest.filter((b) => b.type !== 'text');
    }
    const answered = results.filter((r) => !commandIds.has(r.tool_use_id));
    if (answered.length) out.push({ role: 'user', content: answered.map((r) => ({ type: 'tool_result', tool_use_id: sentId(r.tool_use_id), content: sentResult(r.content), is_error: r.is_error === true })) });
    for (const r of answered) unanswered.delete(r.tool_use_id);
    if (unanswered.size === 0) release();
    const said: ApiMessage[] = [];
    const typed: any[] = [];
    for (const c of commands) {
      const r = results.find((x) => x.tool_use_id === c.id);
      const output = r === undefined ? '' : typeof r.content === 'string' ? r.content : r.content.filter((b: any) => b.type === 'text').map((b: any) => b.text).join('\n');
      if (c.name === '!') {
        const code = typeof c.input?.exit_code === 'number' ? c.input.exit_code : r?.is_error ? 1 : 0;
        said.push({ role: 'user', content: [{ type: 'text', text: `Ran \`${c.input?.args ?? ''}\`\n` + (output ? '```\n' + output + '\n```' : '(no output)') + (code !== 0 ? `\n\nCommand exited with code ${code}` : '') }] });
      } else {
        const args = typeof c.input?.args === 'string' ? c.input.args : '';
        typed.push({ type: 'text', text: args ? `${c.name} ${args}` : c.name });
        if (typeof c.input?.contents === 'string' && c.input.contents !== '') typed.push({ type: 'text', text: c.input.contents });
        if (output !== '') typed.push({ type: 'text', text: output });
      }
    }
    const content = [...typed, ...rest].filter((b) => b.type !== 'text' || b.text.trim() !== '').map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'image', source: b.source }));
    if (content.length) said.push({ role: 'user', content });
    if (unanswered.size > 0) held.push(...said);
    else out.push(...said);
  }
  release();
  return out;
}

t.test('there are sessions of other harnesses to continue in pi', (t) => {
  t.ok(sources.some((s) => s.harness === 'claude-code'), 'Claude Code sessions');
  t.ok(sources.some((s) => s.harness === 'codex'), 'Codex rollouts');
  if (corpusFiles('claude-code').length === 0) t.comment('the shared corpus is not beside this checkout: only the recorded sessions are continued');
  t.end();
});

t.test('Claude Code and Codex → pi: pi --session ID sends the conversation of every session, mapped', { skip }, async (t) => {
  const outcomes = await pool(sources, 2, (s) => convertAndResume(s.file));
  sources.forEach((s, i) => {
    const o = outcomes[i]!;
    t.test(`${s.harness}: ${s.name}`, async (t) => {
      if (o.status !== 0 || o.messages.length === 0) {
        // Refused: only a session pi could not hold, or one with nothing to load; said, and nothing left behind.
        t.match(o.stderr, /more than the 128000-token context window of pi|has no message the client could load: not installed/, `said: ${o.stderr.trim().split('\n').pop()}`);
        t.same(o.installed, [], 'nothing installed');
        return;
      }
      t.equal(o.installed.length, 1, `one session file in the store ${o.stderr.trim().split('\n')[0] ?? ''}`);
      const r = o.resumed;
      if (!r || !r.found) return t.fail(`pi --session did not load it: ${r && !r.found ? r.output.slice(0, 600) : ''}`);
      const session = { type: 'session', harness: s.harness, id: SESSION };
      const expected = essentials(mappedForPi(continued([session, ...o.messages], 'pi').slice(1)));
      t.ok(expected.length >= 1, `there is a conversation to compare (${expected.length} pieces)`);
      const got = essentials(clientConversation(r.messages));
      t.equal(got.length, expected.length, 'as many texts, calls and results');
      for (let k = 0; k < Math.max(got.length, expected.length); k++) if (!t.same(got[k], expected[k], `piece ${k + 1}`)) break;
    });
  });
});
