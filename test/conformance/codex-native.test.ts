/**
 * tx-native --harness codex against the real Codex CLI, both ways in:
 *
 * - Claude Code → Codex: every recorded Claude Code session and every Claude Code corpus
 *   file goes `tx-parse | tx-common --active | tx-native --harness codex --install` into a
 *   scratch CODEX_HOME; `codex exec resume ID ping` must then send the same conversation,
 *   mapped as tx-native(1) says (user texts, assistant texts, reasoning, tool calls and
 *   results, in order). Where tx-native refuses a session, the refusal must be a clear
 *   message and nothing may be installed.
 * - Codex → Common → Codex: every recorded rollout and every corpus rollout the client
 *   loads, written back through Common, must make the client send what the original makes
 *   it send (in the normal form of codex-compare.ts).
 *
 * The CLI runs two at a time: each run takes about a second.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import { isModeled, type CommonLine, type CommonMessage } from '../../lib/common.js';
import { conformanceSkip, recordedSessionFiles, repoRoot } from '../harness/index.js';
import { EXEC_FLAGS, recordedCodexRollouts, resumeRollout, runCodex, startMockResponses, writeCodexConfig } from '../harness/codex/index.js';
import type { InputItem } from '../harness/codex/index.js';
import { continued, corpusFiles, runTool } from '../helpers.js';
import { CODEX_PROMPT, abortedAtCalls, clientSide, omittedImages, type Item } from './codex-compare.js';

const skip = conformanceSkip();
const root = repoRoot();
const SESSION = '7e1d0f5a-0000-4000-8000-00000000c0de';

/** What one conversion and resume gave, with the Common messages converted. */
type Outcome = { messages: CommonMessage[] } & ({ installed: true; input: InputItem[] | null; output: string } | { installed: false; status: number | null; stderr: string; leftFiles: string[] });

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) stack.push(full);
      else out.push(full);
    }
  }
  return out;
}

/** Convert `file` through Common (tx-parse | tx-common --active | tx-native --harness codex --install, in process) into a scratch CODEX_HOME and resume it there. */
async function convertAndResume(file: string): Promise<Outcome> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'txcript-codex-native-'));
  const home = path.join(scratch, 'home');
  const cwd = path.join(scratch, 'work');
  const codexHome = path.join(home, '.codex');
  mkdirSync(cwd, { recursive: true });
  try {
    const parsed = await runTool(parseTool, [file], []);
    const common = await runTool(commonTool, ['--active'], [parsed.stdout]);
    const messages = common.stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CommonLine)
      .filter((l): l is CommonMessage => l.type === 'message');
    const native = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', codexHome, '--cwd', cwd, '--session-id', SESSION], [common.stdout]);
    const left = filesUnder(path.join(codexHome, 'sessions'));
    if (native.status !== 0 || left.length === 0) return { messages, installed: false, status: native.status, stderr: native.stderr, leftFiles: left };
    const mock = await startMockResponses({});
    try {
      writeCodexConfig(codexHome, mock.url, { provider: 'openai' });
      const r = await runCodex({ args: ['exec', ...EXEC_FLAGS, 'resume', SESSION, CODEX_PROMPT], home, cwd });
      const req = mock.responsesRequests()[0];
      return { messages, installed: true, input: req?.body?.input ?? null, output: `exit ${r.code}\n${r.stdout}${r.stderr}` };
    } finally {
      await mock.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Run `work` over `items`, at most `limit` at a time, results in input order. */
async function pool<A, B>(items: A[], limit: number, work: (a: A) => Promise<B>): Promise<B[]> {
  const out: B[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** A command a person ran, as tx-native writes it for Codex: the name and arguments typed, then what it expanded to. */
function typedCommand(name: string, input: Record<string, unknown>): string {
  const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
  const typed = name === '!' ? `!${str(input.args)}` : [name, str(input.args)].filter((s) => s !== '').join(' ');
  return input.contents === undefined ? typed : `${typed}\n\n${str(input.contents)}`;
}

function piece(b: any): unknown {
  if (b.type === 'text') return { type: 'text', text: b.text };
  const url = b.source.type === 'base64' ? `data:${b.source.media_type};base64,${b.source.data}` : b.source.url;
  return b.detail === undefined ? { type: 'image', url } : { type: 'image', url, detail: b.detail };
}

/**
 * A Claude Code conversation in Common as the Codex items tx-native(1) maps it to, in the
 * normal form of codex-compare.ts (written apart from lib/codex): texts and images as
 * message pieces, thinking as reasoning without Claude's signature, tool_use as a function
 * call (a custom tool call for freeform `{"input": text}`), tool_result as its output, a
 * slash command and its output as user texts; blocks without a Codex form left out.
 */
function mappedClaude(messages: CommonMessage[]): Item[] {
  const out: Item[] = [];
  const custom = new Set<string>();
  for (const m of messages) {
    const role = m.developer ? 'developer' : m.role;
    const commands = new Set<string>();
    for (const b of m.content as any[]) {
      if (!isModeled(b)) continue;
      if (b.type === 'text' || b.type === 'image') out.push({ type: 'message', role, content: piece(b) });
      else if (b.type === 'thinking') out.push({ type: 'reasoning', text: b.thinking });
      else if (b.type === 'tool_use' && m.role === 'user') {
        commands.add(b.id);
        out.push({ type: 'message', role, content: { type: 'text', text: typedCommand(b.name, b.input ?? {}) } });
      } else if (b.type === 'tool_use') {
        const keys = Object.keys(b.input ?? {});
        if (keys.length === 1 && keys[0] === 'input' && typeof b.input.input === 'string') {
          custom.add(b.id);
          out.push({ type: 'custom_tool_call', call_id: b.id, name: b.name, input: b.input.input });
        } else out.push({ type: 'function_call', call_id: b.id, name: b.name, arguments: b.input });
      } else if (b.type === 'tool_result' && commands.has(b.tool_use_id)) {
        const text = typeof b.content === 'string' ? b.content : b.content.map((x: any) => (x.type === 'text' ? x.text : '')).join('\n');
        out.push({ type: 'message', role, content: { type: 'text', text } });
      } else if (b.type === 'tool_result') {
        const output = typeof b.content === 'string' ? b.content : b.content.filter((x: any) => x.type === 'text' || x.type === 'image').map(piece);
        out.push({ type: custom.has(b.tool_use_id) ? 'custom_tool_call_output' : 'function_call_output', call_id: b.tool_use_id, output });
      } else if (b.type === 'artifact' && b.source.type === 'path') {
        out.push({ type: 'function_call', call_id: b.id, name: 'Artifact', arguments: b.description === undefined ? { file_path: b.source.path } : { file_path: b.source.path, description: b.description } });
      }
    }
  }
  return out;
}

const OUTPUT: Record<string, string> = { custom_tool_call: 'custom_tool_call_output', tool_search_call: 'tool_search_output' };
const CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call']);

/**
 * Step "the client pairs calls and outputs": a call without an output gets the output
 * "aborted" from the client, and an output whose call is not in the conversation is
 * dropped by it (tx-native writes the conversation as Common has it).
 */
function pairedByClient(items: Item[]): Item[] {
  const calls = new Set(items.filter((i) => CALLS.has(i.type)).map((i) => i.call_id));
  const answered = new Set(items.filter((i) => i.type.endsWith('_output')).map((i) => i.call_id));
  const out: Item[] = [];
  for (const i of items) {
    if (i.type.endsWith('_output') && !calls.has(i.call_id)) continue;
    out.push(i);
    if (CALLS.has(i.type) && !answered.has(i.call_id)) out.push({ type: OUTPUT[i.type] ?? 'function_call_output', call_id: i.call_id, output: 'aborted' });
  }
  return out;
}

const TRUNCATED = /…\d+ tokens truncated…/;

/**
 * Step "long outputs cut by the client": the client cuts the middle out of a long tool
 * output when it sends it ("…N tokens truncated…"); the rollout holds it whole. Where the
 * client's output is ours with the middle cut, ours takes the client's.
 */
function truncatedByClient(ours: Item[], theirs: Item[]): Item[] {
  return ours.map((o, k) => {
    const c = theirs[k];
    if (!c || c.type !== o.type || c.call_id !== o.call_id || typeof o.output !== 'string' || typeof c.output !== 'string') return o;
    const m = TRUNCATED.exec(c.output);
    if (!m) return o;
    const head = c.output.slice(0, m.index).replace(/\s+$/, '');
    const tail = c.output.slice(m.index + m[0].length).replace(/^\s+/, '');
    return o.output.startsWith(head) && o.output.endsWith(tail) ? { ...o, output: c.output } : o;
  });
}

const claude = [...recordedSessionFiles().map((file) => ({ name: path.relative(path.join(root, 'fixtures', 'recorded'), file), file })), ...corpusFiles('claude-code').map((file) => ({ name: path.basename(file), file }))];

t.test('Claude Code → Codex: codex exec resume sends the conversation of every recorded session and corpus file, mapped', { skip }, async (t) => {
  t.ok(claude.length > 0, 'there are Claude Code sessions to convert');
  const outcomes = await pool(claude, 2, (c) => convertAndResume(c.file));
  claude.forEach((c, i) => {
    const o = outcomes[i]!;
    t.test(c.name, async (t) => {
      if (!o.installed) {
        // A session tx-native will not hand the client: said clearly, and nothing left behind.
        t.match(o.stderr, /^tx-native: .+/m, `refused with a message: ${o.stderr.trim().split('\n').pop()}`);
        if (o.status === 0) t.match(o.stderr, /has no message the client could load: not installed/, 'a session with nothing to load is said to be not installed');
        t.not(o.stderr, /\n\s+at .+\(.+:\d+:\d+\)/, 'no stack trace');
        t.same(o.leftFiles, [], 'nothing installed');
        return;
      }
      if (o.input === null) return t.fail(`the client sent nothing for the installed session: ${o.output.slice(0, 600)}`);
      // tx-native writes the conversation made continuable (tx-native(1), Continuable): calls answered, stray results as text.
      const session = { type: 'session', harness: 'claude-code', id: SESSION };
      const expected = abortedAtCalls(pairedByClient(mappedClaude(continued([session, ...o.messages], 'codex').slice(1))));
      const client = clientSide(o.input, expected.length);
      t.ok(client.base, 'the request opens with the base instructions');
      const theirs = abortedAtCalls(client.items);
      const ours = truncatedByClient(omittedImages(expected, theirs), theirs);
      t.equal(theirs.length, ours.length, 'as many items as the mapped conversation');
      for (let k = 0; k < Math.max(ours.length, theirs.length); k++) if (!t.same(theirs[k], ours[k], `item ${k + 1} (${ours[k]?.type ?? theirs[k]?.type})`)) break;
    });
  });
});

const codex = [...recordedCodexRollouts().map((r) => ({ name: `${r.scenario}/${path.basename(r.file)}`, file: r.file, recorded: true })), ...corpusFiles('codex').map((file) => ({ name: path.basename(file), file, recorded: false }))];

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

t.test('an installed rollout is found by id, by its session_index name, and by the picker; a client state database lists it once it was opened', { skip }, async (t) => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'txcript-codex-picker-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const home = path.join(scratch, 'home');
  const codexHome = path.join(home, '.codex');
  const cwd = path.join(scratch, 'work');
  mkdirSync(cwd, { recursive: true });
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
  t.equal(before, PROMPT, 'with a state database, the picker does not yet list the session installed after it (tx-native(1), Installing a rollout)');
  t.same(userTexts(await resume(second)).slice(0, 1), ['A second session.'], 'codex exec resume ID finds it');
  t.same(userTexts(await resume('--last')).slice(0, 1), ['A second session.'], 'once opened by id, the picker lists it');
});
