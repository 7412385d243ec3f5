/**
 * tx-continue between Gemini CLI and pi, with the real clients, both ways: every recorded
 * Gemini CLI chat continued in pi (`tx-continue ID --with pi`, then `pi --session ID` in
 * the printed directory) and every recorded pi session continued in Gemini CLI
 * (`tx-continue ID --with gemini`, then `gemini --resume ID` with the printed
 * GEMINI_CLI_HOME). The first request each client sends must carry the user texts,
 * assistant texts, tool calls and tool results of the source's Common conversation (as
 * tx-native makes it continuable for the target), in order; into Gemini CLI also part for
 * part, as gemini-native-map.ts maps a conversation of another client. A source with no
 * message the client could load is not continued: exit 1 and no command.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import t, { type Test as Tap } from 'tap';
import { isModeled, type Block, type CommonLine, type CommonMessage, type CommonSession } from '../../lib/common.js';
import type { Harness } from '../../lib/record.js';
import { conformanceSkip } from '../harness/index.js';
import { recordedGeminiChats, resumeInstalled as resumeInGemini } from '../harness/gemini/index.js';
import { recordedPiRoot, recordedPiSessions, resumeInstalled as resumeInPi } from '../harness/pi/index.js';
import { continued, runBin, typedCommand } from '../helpers.js';
import { env, printedCommand, scratch } from './continue-run.js';
import { clientItems, sentId as geminiSentId } from './gemini-compare.js';
import { mappedForGemini } from './gemini-native-map.js';
import { clientConversation, shellText } from './pi-compare.js';

const skip = conformanceSkip();
// Each case starts a real client: longer than tap's default timeout.
t.setTimeout(30 * 60 * 1000);

/** What both sides are compared by: the texts of each side, the calls and the results, each in order. */
interface Essentials {
  user: string[];
  assistant: string[];
  calls: { id: string; name: string; input: unknown }[];
  results: { id: string; text: string; error: boolean }[];
}

/** How the target client sends what Common holds in its own way. */
interface Target {
  /** A call id as the client sends it. */
  id: (id: string, name: string) => string;
  /** The user texts it sends for a command a person ran (a tool_use on the user's side) and its result. */
  command: (use: { name: string; input: Record<string, unknown> }, output: string) => string[];
  /** The user text it sends for the summary a compaction left. */
  summary: (text: string) => string;
}

const PI_SUMMARY = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';

/**
 * pi: step "another model's calls": it sends another model's call ids with the
 * characters the Messages API refuses made `_`, at most 64; step "shell commands": a `!`
 * command as the text of its bashExecutionToText; step "compaction summary": the
 * summary inside the frame pi gives it.
 */
const PI: Target = {
  id: (id) => id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64),
  // Only a `!` command has a form known here: any other makes the comparison fail, to be looked at.
  command: (use, output) => [use.name === '!' ? shellText(String(use.input.args ?? ''), output, use.input) : `(no known pi form for a ${use.name} command)`],
  summary: (text) => (text.startsWith(PI_SUMMARY) ? text : `${PI_SUMMARY}${text}\n</summary>`),
};

/** Gemini CLI: step "call ids without the tool prefix"; a command a person ran as the text typed, then its output. */
const GEMINI: Target = {
  id: (id, name) => String(geminiSentId(id, name)),
  command: (use, output) => [typedCommand(use.name, use.input), output],
  summary: (text) => text,
};

/** The text of a tool result's content: its text blocks joined. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b: any) => b?.type === 'text')
    .map((b: any) => b.text as string)
    .join('\n');
}

/** The source's side: its Common conversation (made continuable for the target), as the target sends it. */
function commonEssentials(messages: CommonMessage[], target: Target): Essentials {
  const out: Essentials = { user: [], assistant: [], calls: [], results: [] };
  const names = new Map<string, string>();
  const keep = (list: string[], text: string) => {
    if (text.trim() !== '') list.push(text);
  };
  for (const m of messages) {
    const blocks = (m.content as Block[]).filter(isModeled);
    const commands = new Map(m.role === 'user' ? blocks.flatMap((b) => (b.type === 'tool_use' ? [[b.id, b] as const] : [])) : []);
    if (m.after_compaction) {
      keep(out.user, target.summary(blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')));
      continue;
    }
    for (const b of blocks) {
      if (b.type === 'text') keep(m.role === 'user' ? out.user : out.assistant, b.text);
      else if (b.type === 'tool_use' && m.role === 'assistant') {
        names.set(b.id, b.name);
        out.calls.push({ id: target.id(b.id, b.name), name: b.name, input: b.input });
      } else if (b.type === 'tool_result' && commands.has(b.tool_use_id)) {
        const use = commands.get(b.tool_use_id)!;
        for (const text of target.command({ name: use.name, input: (use.input ?? {}) as Record<string, unknown> }, resultText(b.content))) keep(out.user, text);
      } else if (b.type === 'tool_result') out.results.push({ id: target.id(b.tool_use_id, names.get(b.tool_use_id) ?? ''), text: resultText(b.content), error: b.is_error === true });
    }
  }
  return out;
}

/** What pi sent: the conversation of its first request, less the prompt it was run with. */
function piEssentials(messages: { role: string; content: unknown }[]): Essentials {
  const out: Essentials = { user: [], assistant: [], calls: [], results: [] };
  for (const m of clientConversation(messages)) {
    for (const b of m.content) {
      if (b.type === 'text' && b.text.trim() !== '') (m.role === 'user' ? out.user : out.assistant).push(b.text);
      else if (b.type === 'tool_use') out.calls.push({ id: b.id, name: b.name, input: b.input });
      else if (b.type === 'tool_result') out.results.push({ id: b.tool_use_id, text: resultText(b.content), error: b.is_error === true });
    }
  }
  return out;
}

/** What Gemini CLI sent: the contents of its first request, less its own session context and the prompt it was run with. */
function geminiEssentials(contents: { role?: string; parts?: Record<string, any>[] }[]): Essentials {
  const out: Essentials = { user: [], assistant: [], calls: [], results: [] };
  for (const { role, part } of clientItems(contents)) {
    const p = part as Record<string, any>;
    if (typeof p.text === 'string' && p.text.trim() !== '') (role === 'user' ? out.user : out.assistant).push(p.text);
    else if (p.functionCall) out.calls.push({ id: p.functionCall.id, name: p.functionCall.name, input: p.functionCall.args });
    else if (p.functionResponse) {
      const r = p.functionResponse.response as Record<string, unknown>;
      const error = typeof r.error === 'string';
      out.results.push({ id: p.functionResponse.id, text: String(error ? r.error : (r.output ?? '')), error });
    }
  }
  return out;
}

/** The session line and messages of `file` through tx-parse | tx-common --active, made continuable for `target`. */
async function commonOf(file: string, target: Harness): Promise<{ session: CommonSession; messages: CommonMessage[] }> {
  const parsed = await runBin('tx-parse', [file]);
  const common = await runBin('tx-common', ['--active'], parsed.stdout);
  const lines = common.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CommonLine);
  const session = lines.find((l): l is CommonSession => l.type === 'session')!;
  const made = continued([session, ...lines.filter((l) => l.type === 'message')], target);
  return { session, messages: made.filter((l: CommonLine) => l.type === 'message') };
}

/** The four lists compared one by one, each named. */
function assertEssentials(t: Tap, theirs: Essentials, ours: Essentials): void {
  t.ok(ours.user.length > 0, 'the source has user texts to compare');
  t.same(theirs.user, ours.user, 'the user texts, in order');
  t.same(theirs.assistant, ours.assistant, 'the assistant texts, in order');
  t.same(theirs.calls, ours.calls, 'the tool calls (id, name, input), in order');
  t.same(theirs.results, ours.results, 'the tool results (id, text, error), in order');
}

/** A source with no message the client could load: refused, said, and no command to run. */
function assertNotContinued(t: Tap, r: { status: number | null; stdout: Buffer; stderr: string }): void {
  t.equal(r.status, 1, 'not continued: exit 1');
  t.match(r.stderr, /has no message the client could load: not installed/, 'tx-native says why');
  t.equal(r.stdout.length, 0, 'no command to run');
  t.notMatch(r.stderr, /\n\s+at .+\(.+:\d+:\d+\)/, 'no stack trace');
}

// Every recorded chat file, each alone in a scratch store (the second file of a resumed chat holds no conversation of its own: it is not continued).
const chats = recordedGeminiChats();

t.test('a Gemini CLI chat continued through tx-continue in pi: pi --session sends its texts, calls and results', { skip }, async (t) => {
  t.ok(chats.length > 0, 'there are recorded chats');
  for (const chat of chats) {
    await t.test(`${chat.scenario}/${path.basename(chat.file)}`, async (t) => {
      const dir = scratch(t, 'tx-continue-gemini-pi-');
      const home = path.join(dir, 'home');
      const agent = path.join(home, '.pi', 'agent');
      const geminiHome = path.join(dir, 'gemini-home');
      const chats = path.join(geminiHome, '.gemini', 'tmp', 'work', 'chats');
      mkdirSync(chats, { recursive: true });
      copyFileSync(chat.file, path.join(chats, path.basename(chat.file)));
      const { session, messages } = await commonOf(chat.file, 'pi');
      const r = await runBin('tx-continue', [session.id, '--with', 'pi', '--gemini-home', geminiHome, '--pi-home', agent], '', env(home));
      if (messages.length === 0) return assertNotContinued(t, r);
      const command = printedCommand(t, r);
      if (!command) return;
      t.equal(command.store, agent, 'the command names the store');
      const resumed = await resumeInPi({ home, cwd: command.cwd, id: command.id });
      if (!resumed.found) return void t.fail(`pi did not load it: ${resumed.output.slice(0, 600)}`);
      assertEssentials(t, piEssentials(resumed.messages), commonEssentials(messages, PI));
    });
  }
});

const piSessions = recordedPiSessions();

t.test('a pi session continued through tx-continue in Gemini CLI: gemini --resume sends its texts, calls and results', { skip }, async (t) => {
  t.ok(piSessions.length > 0, 'there are recorded sessions');
  for (const s of piSessions) {
    await t.test(`${s.scenario}/${path.basename(s.file)}`, async (t) => {
      const dir = scratch(t, 'tx-continue-pi-gemini-');
      const home = path.join(dir, 'home');
      const { session, messages } = await commonOf(s.file, 'gemini');
      const r = await runBin('tx-continue', [session.id, '--with', 'gemini', '--pi-home', path.join(recordedPiRoot(), s.scenario), '--gemini-home', home], '', env(home));
      if (messages.length === 0) return assertNotContinued(t, r);
      const command = printedCommand(t, r);
      if (!command) return;
      t.equal(command.store, home, 'the command sets GEMINI_CLI_HOME to the home given');
      const resumed = await resumeInGemini(home, command.cwd, command.id);
      if (!resumed.found) return void t.fail(`the client did not load the chat: ${resumed.output.slice(0, 600)}`);
      assertEssentials(t, geminiEssentials(resumed.contents), commonEssentials(messages, GEMINI));
      // And part for part, as tx-native(1) maps a conversation of another client for Gemini CLI (the mapping gemini-native checks for Claude Code and Codex).
      const theirs = clientItems(resumed.contents);
      const ours = mappedForGemini(messages);
      t.equal(theirs.length, ours.length, 'as many parts as the mapped conversation');
      for (let k = 0; k < Math.max(theirs.length, ours.length); k++) if (!t.same(theirs[k], ours[k], `part ${k + 1} (${ours[k]?.role ?? theirs[k]?.role})`)) break;
    });
  }
});
