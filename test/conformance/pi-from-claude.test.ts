/**
 * Claude Code → pi: every recorded Claude Code session, through Common under --active,
 * made continuable for pi (lib/continuable.ts with pi's rules) and written as a pi
 * session file (lib/pi, called directly until the registry wires pi into tx-native),
 * makes `pi -p --session FILE` send the same user texts, assistant texts, tool calls and
 * results, mapped as pi keeps them: a person's `!` command as the text pi sends for a
 * shell command, another slash command as the text typed and its output, a compaction's
 * summary in pi's wording, tool results as pi's Anthropic provider sends them (texts
 * joined when there is no image). Reasoning of another harness is left out before writing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { isModeled, type CommonMessage, type CommonSession } from '../../lib/common.js';
import { Continuable } from '../../lib/continuable/continuable.js';
import { piContinueRules } from '../../lib/pi/codec.js';
import { CommonToPi } from '../../lib/pi/from-common.js';
import { conformanceSkip, recordedSessionFiles, repoRoot } from '../harness/index.js';
import { PI_PROVIDER, resumeSession } from '../harness/pi/index.js';
import { pool } from '../helpers.js';
import { commonOf } from './common-compare.js';
import { PI_PROMPT, clientConversation, essentials, type ApiMessage } from './pi-compare.js';

const skip = conformanceSkip();
const SESSION = '0198f3a0-0000-7000-8000-0000000c1a0d';
const files = recordedSessionFiles();

/** The Claude Code session as the Common messages written for pi: continuable for pi's rules. */
function continuedForPi(messages: CommonMessage[]): { session: CommonSession; messages: CommonMessage[] } {
  const session: CommonSession = { type: 'session', harness: 'claude-code', id: 'claude' };
  const c = new Continuable(session, { harness: 'pi', rules: piContinueRules }, { fromCompaction: false });
  try {
    messages.forEach((m, i) => c.push(m, i + 1));
    return { session, messages: [...c.messages()].map((x) => x.message) };
  } finally {
    c.dispose();
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

/** Common messages as pi sends what the writer made of them, in the API's shape (read from tx-native's pi mapping, written apart from lib/pi). */
function mappedForPi(messages: CommonMessage[]): ApiMessage[] {
  const out: ApiMessage[] = [];
  for (const m of messages) {
    const blocks = (m.content as any[]).filter((b) => isModeled(b));
    if (m.role === 'assistant') {
      const content = blocks.filter((b) => b.type === 'text' || b.type === 'tool_use').map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'tool_use', id: b.id, name: b.name, input: b.input }));
      if (content.length) out.push({ role: 'assistant', content });
      continue;
    }
    const results = blocks.filter((b) => b.type === 'tool_result');
    const commands = blocks.filter((b) => b.type === 'tool_use');
    const commandIds = new Set(commands.map((c) => c.id));
    let rest = blocks.filter((b) => b.type === 'text' || (b.type === 'image' && b.source?.type === 'base64'));
    if (m.after_compaction) {
      const summary = rest.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
      const prefix = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
      out.push({ role: 'user', content: [{ type: 'text', text: summary.startsWith(prefix) ? summary : `${prefix}${summary}\n</summary>` }] });
      rest = rest.filter((b) => b.type !== 'text');
    }
    const answered = results.filter((r) => !commandIds.has(r.tool_use_id));
    if (answered.length) out.push({ role: 'user', content: answered.map((r) => ({ type: 'tool_result', tool_use_id: r.tool_use_id, content: sentResult(r.content), is_error: r.is_error === true })) });
    const typed: any[] = [];
    for (const c of commands) {
      const r = results.find((x) => x.tool_use_id === c.id);
      const output = r === undefined ? '' : typeof r.content === 'string' ? r.content : r.content.filter((b: any) => b.type === 'text').map((b: any) => b.text).join('\n');
      if (c.name === '!') {
        const code = typeof c.input?.exit_code === 'number' ? c.input.exit_code : r?.is_error ? 1 : 0;
        out.push({ role: 'user', content: [{ type: 'text', text: `Ran \`${c.input?.args ?? ''}\`\n` + (output ? '```\n' + output + '\n```' : '(no output)') + (code !== 0 ? `\n\nCommand exited with code ${code}` : '') }] });
      } else {
        const args = typeof c.input?.args === 'string' ? c.input.args : '';
        typed.push({ type: 'text', text: args ? `${c.name} ${args}` : c.name });
        if (typeof c.input?.contents === 'string' && c.input.contents !== '') typed.push({ type: 'text', text: c.input.contents });
        if (output !== '') typed.push({ type: 'text', text: output });
      }
    }
    const content = [...typed, ...rest].filter((b) => b.type !== 'text' || b.text.trim() !== '').map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'image', source: b.source }));
    if (content.length) out.push({ role: 'user', content });
  }
  return out;
}

t.test('Claude Code → pi: pi --session sends the conversation of every recorded Claude Code session, mapped', { skip }, async (t) => {
  t.ok(files.length > 0, 'there are recorded Claude Code sessions');
  const scratch = mkdtempSync(path.join(tmpdir(), 'txcript-pi-from-claude-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const written = files.map((file, i) => {
    const { session, messages } = continuedForPi(commonOf(file));
    const dir = mkdtempSync(path.join(scratch, `${i}-`));
    const cwd = path.join(dir, 'work');
    mkdirSync(cwd, { recursive: true });
    const w = new CommonToPi(session, { sessionId: SESSION, cwd, modelProvider: PI_PROVIDER });
    const lines: object[] = [];
    for (const m of messages) lines.push(...w.message(m));
    lines.push(...w.finish());
    const out = path.join(dir, `2026-01-01T00-00-00-000Z_${SESSION}.jsonl`);
    writeFileSync(out, lines.map((l) => JSON.stringify(l) + '\n').join(''));
    return { out, messages, wrote: lines.length > 0 };
  });
  const resumed = await pool(written, 2, (w) => (w.wrote ? resumeSession(w.out, { prompt: PI_PROMPT }) : Promise.resolve(null)));
  files.forEach((file, i) => {
    t.test(path.relative(path.join(repoRoot(), 'fixtures', 'recorded'), file), async (t) => {
      const w = written[i]!;
      const r = resumed[i];
      if (!w.wrote) return t.same(w.messages, [], 'nothing to write only when Common holds no message');
      if (!r || !r.found) return t.fail(`the client did not load the written session: ${r?.output.slice(0, 600)}`);
      const expected = essentials(mappedForPi(w.messages));
      t.ok(expected.length >= 2, `there is a conversation to compare (${expected.length} pieces)`);
      t.same(essentials(clientConversation(r.messages)), expected, 'the same texts, tool calls and results, in order');
    });
  });
});
