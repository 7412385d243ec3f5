/**
 * A session of another harness continued in Codex, with the real client: its file goes
 * through `tx-parse | tx-common --active | tx-native --harness codex --install` into a
 * scratch CODEX_HOME, and `codex exec resume ID` loads it. What the client must send is
 * the Common conversation made continuable and mapped as tx-native(1) documents
 * (mappedForCodex), compared in the normal form of codex-compare.ts. Used by
 * codex-native and gemini-to-codex.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test as Tap } from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import { isModeled, type CommonLine, type CommonMessage } from '../../lib/common.js';
import type { Harness } from '../../lib/record.js';
import { EXEC_FLAGS, runCodex, startMockResponses, writeCodexConfig } from '../harness/codex/index.js';
import type { InputItem } from '../harness/codex/index.js';
import { rolloutProvider } from '../harness/codex/oracle.js';
import { continued, runTool } from '../helpers.js';
import { CODEX_PROMPT, abortedAtCalls, clientSide, omittedImages, type Item } from './codex-compare.js';

/** The id of the installed copy. */
export const SESSION = '7e1d0f5a-0000-4000-8000-00000000c0de';

/** What one conversion and resume gave, with the Common messages converted. */
export type Outcome = { messages: CommonMessage[] } & ({ installed: true; input: InputItem[] | null; output: string } | { installed: false; status: number | null; stderr: string; leftFiles: string[] });

export function filesUnder(dir: string): string[] {
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

/** A scratch HOME (CODEX_HOME = HOME/.codex) and working directory outside any repository. */
export function scratchHome(prefix: string): { scratch: string; home: string; codexHome: string; cwd: string } {
  const scratch = mkdtempSync(path.join(tmpdir(), prefix));
  const home = path.join(scratch, 'home');
  const cwd = path.join(scratch, 'work');
  mkdirSync(cwd, { recursive: true });
  return { scratch, home, codexHome: path.join(home, '.codex'), cwd };
}

/**
 * Convert `file` through Common (tx-parse | tx-common --active | tx-native --harness codex
 * --install, in process) into a scratch CODEX_HOME and resume it there. The home is
 * configured first, with the provider the original names (openai for a session of
 * another harness), as the original is resumed: the copy names the provider of the home
 * it is installed into.
 */
export async function convertAndResume(file: string): Promise<Outcome> {
  const { scratch, home, codexHome, cwd } = scratchHome('txcript-codex-native-');
  const mock = await startMockResponses({});
  try {
    writeCodexConfig(codexHome, mock.url, { provider: rolloutProvider(readFileSync(file, 'utf8')) });
    const parsed = await runTool(parseTool, [file], []);
    const common = await runTool(commonTool, ['--active'], [parsed.stdout]);
    const lines = common.stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CommonLine);
    const messages = lines.filter((l): l is CommonMessage => l.type === 'message');
    const native = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', codexHome, '--cwd', cwd, '--session-id', SESSION], [common.stdout]);
    const left = filesUnder(path.join(codexHome, 'sessions'));
    if (native.status !== 0 || left.length === 0) return { messages, installed: false, status: native.status, stderr: native.stderr, leftFiles: left };
    const r = await runCodex({ args: ['exec', ...EXEC_FLAGS, 'resume', SESSION, CODEX_PROMPT], home, cwd });
    const req = mock.responsesRequests()[0];
    return { messages, installed: true, input: req?.body?.input ?? null, output: `exit ${r.code}\n${r.stdout}${r.stderr}` };
  } finally {
    await mock.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A command a person ran, as tx-native writes it for Codex: the name and arguments typed, then what it expanded to. */
export function typedCommand(name: string, input: Record<string, unknown>): string {
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
export function mappedForCodex(messages: CommonMessage[]): Item[] {
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
export function pairedByClient(items: Item[]): Item[] {
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
export function truncatedByClient(ours: Item[], theirs: Item[]): Item[] {
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

/**
 * What a session continued in Codex must show: a refusal said clearly with nothing left
 * behind, or the client sending the conversation of `harness`'s session, made continuable
 * and mapped, item for item.
 */
export function assertMapped(t: Tap, o: Outcome, harness: Harness): void {
  if (!o.installed) {
    // A session tx-native will not hand the client: said clearly, and nothing left behind.
    t.match(o.stderr, /^tx-native: .+/m, `refused with a message: ${o.stderr.trim().split('\n').pop()}`);
    if (o.status === 0) t.match(o.stderr, /has no message the client could load: not installed/, 'a session with nothing to load is said to be not installed');
    t.not(o.stderr, /\n\s+at .+\(.+:\d+:\d+\)/, 'no stack trace');
    t.same(o.leftFiles, [], 'nothing installed');
    return;
  }
  if (o.input === null) {
    t.fail(`the client sent nothing for the installed session: ${o.output.slice(0, 600)}`);
    return;
  }
  // tx-native writes the conversation made continuable (tx-native(1), Continuable): calls answered, stray results as text.
  const session = { type: 'session', harness, id: SESSION };
  const expected = abortedAtCalls(pairedByClient(mappedForCodex(continued([session, ...o.messages], 'codex').slice(1))));
  const client = clientSide(o.input, expected.length);
  t.ok(client.base, 'the request opens with the base instructions');
  const theirs = abortedAtCalls(client.items);
  const ours = truncatedByClient(omittedImages(expected, theirs), theirs);
  t.equal(theirs.length, ours.length, 'as many items as the mapped conversation');
  for (let k = 0; k < Math.max(ours.length, theirs.length); k++) if (!t.same(theirs[k], ours[k], `item ${k + 1} (${ours[k]?.type ?? theirs[k]?.type})`)) break;
}
