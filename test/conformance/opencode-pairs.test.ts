/**
 * tx-continue between OpenCode and Codex and pi, with the real clients: a recorded
 * OpenCode session (imported into a scratch store by the client) continued in Codex
 * (`tx-continue ID --with codex`, then the printed `codex resume ID` run as `codex exec
 * resume ID`) and in pi (`pi --session ID` in the printed directory), and a recorded pi
 * session continued in OpenCode (the printed `opencode --session ID` run as `opencode run
 * --session ID`). The first request each client sends must carry the user texts,
 * assistant texts, tool calls and tool results of the source's Common conversation (as
 * tx-native makes it continuable for the target), in order: into Codex item for item as
 * tx-native(1) maps a conversation of another client (assertMapped of to-codex.ts), into
 * OpenCode item for item as opencode-native-check.ts expects a written session, into pi
 * text for text with the step pi's compaction summary needs (below).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test as Tap } from 'tap';
import type { CommonLine, CommonMessage } from '../../lib/common.js';
import type { Harness } from '../../lib/record.js';
import { conformanceSkip } from '../harness/index.js';
import { EXEC_FLAGS, runCodex, startMockResponses, writeCodexConfig } from '../harness/codex/index.js';
import { promptArgs, recordedOpencodeExports, runOpencode, startOpencodeMock, writeOpencodeHome } from '../harness/opencode/index.js';
import { recordedPiRoot, recordedPiSessions, resumeInstalled as resumeInPi } from '../harness/pi/index.js';
import { continued, runBin } from '../helpers.js';
import { parseCommand, scratch } from './continue-run.js';
import { clientSide as opencodeSide, commonOfExport, messagesOf } from './opencode-compare.js';
import { expectedItems } from './opencode-native-check.js';
import { itemsOf } from '../opencode/items.js';
import { assertMapped } from './to-codex.js';
import { apiOfCommon, clientConversation, essentials } from './pi-compare.js';

const skip = conformanceSkip();
// Each case starts two clients, some of them more than once: longer than tap's default timeout.
t.setTimeout(30 * 60 * 1000);

/** The environment the bins and clients run in: a PATH, the scratch HOME, its XDG folders (the ones OpenCode reads). */
const env = (home: string) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share') });

/** OpenCode's data folder in a scratch home. */
const dataOf = (home: string) => path.join(home, '.local', 'share');

/** A scratch OpenCode home whose database the client has made. */
async function opencodeHome(dir: string): Promise<string> {
  const home = path.join(dir, 'home');
  const cwd = path.join(dir, 'init');
  mkdirSync(cwd, { recursive: true });
  writeOpencodeHome(home, 'http://127.0.0.1:9');
  const init = await runOpencode({ args: ['session', 'list'], home, cwd });
  if (init.code !== 0) throw new Error(`opencode session list failed: ${init.stderr.slice(0, 600)}`);
  return home;
}

/** A recorded OpenCode session imported by the client into a scratch store; its id and its Common (made continuable for `target`). */
async function opencodeSource(dir: string, file: string, target: Harness): Promise<{ home: string; id: string; common: CommonMessage[]; messages: CommonMessage[] }> {
  const home = await opencodeHome(dir);
  const cwd = path.join(dir, 'work');
  mkdirSync(cwd, { recursive: true });
  const imported = await runOpencode({ args: ['import', file], home, cwd });
  if (imported.code !== 0) throw new Error(`opencode import failed: ${imported.stdout}${imported.stderr}`.slice(0, 600));
  const id = JSON.parse(readFileSync(file, 'utf8')).info.id as string;
  const lines = commonOfExport(file);
  return { home, id, common: messagesOf(lines), messages: continuedMessages(lines, target) };
}

/** The messages of a Common stream made continuable for `target`. */
function continuedMessages(lines: CommonLine[], target: Harness): CommonMessage[] {
  return continued(lines, target).filter((l: CommonLine): l is CommonMessage => l.type === 'message');
}

/** The Common (--active) of a native session file, through tx-parse | tx-common. */
async function commonOfFile(file: string): Promise<CommonLine[]> {
  const parsed = await runBin('tx-parse', [file]);
  const common = await runBin('tx-common', ['--active'], parsed.stdout);
  return common.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CommonLine);
}

/** tx-continue's run checked (exit 0, one command printed) and the command read back. */
function printed(t: Tap, r: { status: number | null; stdout: Buffer; stderr: string }, pattern: RegExp): RegExpExecArray | null {
  t.equal(r.status, 0, r.stderr);
  const m = pattern.exec(r.stdout.toString());
  t.ok(m, `the command: ${r.stdout}`);
  return m;
}

const PI_SUMMARY = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';

/**
 * Step "compaction summary" (as gemini-pi.test.ts has it): pi sends the texts of the first
 * message after a compaction, which tx-native writes as its compaction entry, inside the
 * frame it gives a summary. (After an OpenCode compaction that message is the client's
 * own question for the summary, and the summary the assistant's reply after it.)
 */
function framedSummaries(messages: CommonMessage[]): CommonMessage[] {
  return messages.map((m) => {
    if (!m.after_compaction || m.role !== 'user') return m;
    const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    return { ...m, content: [{ type: 'text', text: `${PI_SUMMARY}${text}\n</summary>` }, ...m.content.filter((b) => b.type !== 'text')] };
  });
}

const opencodeSessions = recordedOpencodeExports();

t.test('an OpenCode session continued through tx-continue in Codex: codex exec resume sends its texts, calls and results', { skip }, async (t) => {
  t.ok(opencodeSessions.length > 0, 'there are recorded sessions');
  for (const s of opencodeSessions) {
    await t.test(`${s.scenario}/${path.basename(s.file)}`, async (t) => {
      const dir = scratch(t, 'tx-continue-opencode-codex-');
      const oc = await opencodeSource(dir, s.file, 'codex');
      const codexHome = path.join(oc.home, '.codex');
      const r = await runBin('tx-continue', [oc.id, '--with', 'codex', '--opencode-home', dataOf(oc.home), '--codex-home', codexHome], '', env(oc.home));
      const command = printed(t, r, /^cd (\S+) && CODEX_HOME=(\S+) codex resume (\S+)\n$/);
      if (!command) return;
      t.equal(command[1], path.join(dir, 'work'), 'in the folder the session was in');
      t.equal(command[2], codexHome, 'the command names the Codex home');
      const mock = await startMockResponses({});
      try {
        writeCodexConfig(codexHome, mock.url, { provider: 'openai' });
        const run = await runCodex({ args: ['exec', ...EXEC_FLAGS, 'resume', command[3]!, 'ping'], home: oc.home, cwd: command[1]! });
        const input = mock.responsesRequests()[0]?.body?.input ?? null;
        t.ok(oc.common.some((m) => m.role === 'user'), 'the source has user messages to compare');
        // Item for item, as tx-native(1) maps a conversation of another client for Codex (the check codex-native makes for Claude Code, gemini-to-codex for Gemini CLI).
        assertMapped(t, { messages: oc.common, installed: true, input, output: `exit ${run.code}\n${run.stdout}${run.stderr}` }, 'opencode');
      } finally {
        await mock.close();
      }
    });
  }
});

t.test('an OpenCode session continued through tx-continue in pi: pi --session sends its texts, calls and results', { skip }, async (t) => {
  t.ok(opencodeSessions.length > 0, 'there are recorded sessions');
  for (const s of opencodeSessions) {
    await t.test(`${s.scenario}/${path.basename(s.file)}`, async (t) => {
      const dir = scratch(t, 'tx-continue-opencode-pi-');
      const oc = await opencodeSource(dir, s.file, 'pi');
      const agent = path.join(oc.home, '.pi', 'agent');
      const r = await runBin('tx-continue', [oc.id, '--with', 'pi', '--opencode-home', dataOf(oc.home), '--pi-home', agent], '', env(oc.home));
      t.equal(r.status, 0, r.stderr);
      const command = parseCommand(r.stdout.toString());
      t.ok(command, `the command: ${r.stdout}`);
      if (!command) return;
      t.equal(command.cwd, path.join(dir, 'work'), 'in the folder the session was in');
      t.equal(command.store, agent, 'the command names the store');
      const resumed = await resumeInPi({ home: oc.home, cwd: command.cwd, id: command.id });
      if (!resumed.found) return void t.fail(`pi did not load it: ${resumed.output.slice(0, 600)}`);
      const ours = essentials(apiOfCommon(framedSummaries(oc.messages)));
      t.ok(ours.some((e: any) => e[0] === 'user'), 'the source has user texts to compare');
      t.same(essentials(clientConversation(resumed.messages)), ours, 'the user and assistant texts, calls and results, in order');
    });
  }
});

/** What OpenCode sent when resumed in the printed directory: its request's messages. */
async function resumeInOpencode(t: Tap, home: string, printedText: string): Promise<{ role: string; content: unknown }[] | null> {
  const m = /^cd (\S+) && XDG_DATA_HOME=(\S+) opencode --session (ses_\w+)\n$/.exec(printedText);
  t.ok(m, `the command: ${printedText}`);
  if (!m) return null;
  t.equal(m[2], dataOf(home), 'it names the data folder the copy went to');
  mkdirSync(m[1]!, { recursive: true });
  const mock = await startOpencodeMock({});
  try {
    writeOpencodeHome(home, mock.url);
    const run = await runOpencode({ args: ['run', '--session', m[3]!, '--', ...promptArgs('ping')], home, cwd: m[1]! });
    const request = mock.messagesRequests('main')[0]?.body;
    if (!request) {
      t.fail(`the client did not load the session: ${run.stdout}${run.stderr}`.slice(0, 600));
      return null;
    }
    return request.messages as { role: string; content: unknown }[];
  } finally {
    await mock.close();
  }
}

const piFiles = recordedPiSessions();

t.test('a pi session continued through tx-continue in OpenCode: opencode run --session sends its texts, calls and results', { skip }, async (t) => {
  t.ok(piFiles.length > 0, 'there are recorded sessions');
  for (const s of piFiles) {
    await t.test(`${s.scenario}/${path.basename(s.file)}`, async (t) => {
      const dir = scratch(t, 'tx-continue-pi-opencode-');
      const home = await opencodeHome(dir);
      const lines = await commonOfFile(s.file);
      const id = (lines.find((l) => l.type === 'session') as { id: string }).id;
      const r = await runBin('tx-continue', [id, '--with', 'opencode', '--pi-home', path.join(recordedPiRoot(), s.scenario), '--opencode-home', dataOf(home)], '', env(home));
      t.equal(r.status, 0, r.stderr);
      const sent = await resumeInOpencode(t, home, r.stdout.toString());
      if (!sent) return;
      // Item for item, as opencode-native checks a conversation of another client written as OpenCode.
      const ours = expectedItems(continuedMessages(lines, 'opencode'));
      t.ok(ours.some((i) => i[0] === 'user'), 'the source has user texts to compare');
      t.same(itemsOf(opencodeSide(sent)), ours, 'the user and assistant texts, reasoning, calls and results, in order');
    });
  }
});
