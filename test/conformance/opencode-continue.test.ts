/**
 * tx-continue with the real OpenCode client, through the bins: a recorded Claude Code
 * session, Gemini CLI chat and Codex rollout continued in OpenCode (`tx-continue ID --with
 * opencode`, which writes into the client's own database, then the printed
 * `opencode --session ID` run as `opencode run --session ID` in the printed directory,
 * against the mock), and a recorded OpenCode session (imported into a scratch store by
 * the client) continued in Gemini CLI and in Claude Code. Each client must send the
 * session's prompt and its tool calls and results, in order. (Every recorded session is
 * compared in full by opencode-native*; this proves the command's own path: lookup in
 * the stores, the database read and write, the printed command.)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { conformanceSkip, repoRoot, runClaude, startMockApi } from '../harness/index.js';
import { recordedGeminiChats, resumeInstalled } from '../harness/gemini/index.js';
import { opencodeDirs, promptArgs, recordedOpencodeExports, runOpencode, startOpencodeMock, writeOpencodeHome } from '../harness/opencode/index.js';
import { runBin } from '../helpers.js';

const skip = conformanceSkip();
const root = repoRoot();
// Each test starts the client two or three times (1-3 s each, far more on a loaded machine).
t.setTimeout(30 * 60 * 1000);

function scratch(t: any): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tx-continue-opencode-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A scratch OpenCode home whose database the client has made (and whose config names the mock's model). */
async function opencodeHome(dir: string): Promise<string> {
  const home = path.join(dir, 'opencode-home');
  const cwd = path.join(dir, 'init');
  mkdirSync(cwd, { recursive: true });
  writeOpencodeHome(home, 'http://127.0.0.1:9');
  const init = await runOpencode({ args: ['session', 'list'], home, cwd });
  if (init.code !== 0) throw new Error(`opencode session list failed: ${init.stderr.slice(0, 600)}`);
  return home;
}

/** The environment the bins run in: the scratch home (its XDG folders are the ones the client reads). */
const env = (home: string) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share') });

/** The printed OpenCode command's parts. */
function parseOpencodeCommand(command: string): { cwd: string; data: string; id: string } | null {
  const m = /^cd (\S+) && XDG_DATA_HOME=(\S+) opencode --session (ses_\w+)\n$/.exec(command);
  return m ? { cwd: m[1]!, data: m[2]!, id: m[3]! } : null;
}

/** What OpenCode sent when resumed in the printed directory: texts, tool call ids, result ids. */
async function resumeInOpencode(t: any, home: string, printed: string): Promise<{ texts: string[]; calls: string[]; results: string[] } | null> {
  const command = parseOpencodeCommand(printed);
  t.ok(command, `the command: ${printed}`);
  if (!command) return null;
  t.equal(command.data, path.join(home, '.local', 'share'), 'it names the data folder the copy went to');
  mkdirSync(command.cwd, { recursive: true });
  const mock = await startOpencodeMock({});
  try {
    writeOpencodeHome(home, mock.url);
    const run = await runOpencode({ args: ['run', '--session', command.id, '--', ...promptArgs('ping')], home, cwd: command.cwd });
    const request = mock.messagesRequests('main')[0]?.body;
    t.ok(request, `the client loaded the session and sent it (${run.stdout}${run.stderr})`.slice(0, 400));
    const blocks = (request?.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }])) as any[];
    return {
      texts: blocks.filter((b) => b.type === 'text').map((b) => b.text as string),
      calls: blocks.filter((b) => b.type === 'tool_use').map((b) => b.id as string),
      results: blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id as string),
    };
  } finally {
    await mock.close();
  }
}

t.test('a Claude Code session continued through tx-continue in OpenCode: opencode run --session sends its prompt, calls and results', { skip }, async (t) => {
  const dir = scratch(t);
  const home = await opencodeHome(dir);
  const r = await runBin('tx-continue', ['00000000-0000-4000-8000-0000000000b1', '--with', 'opencode', '--config-dir', path.join(root, 'fixtures', 'recorded', 'tools'), '--opencode-home', path.join(home, '.local', 'share')], '', env(home));
  t.equal(r.status, 0, r.stderr);
  const sent = await resumeInOpencode(t, home, r.stdout.toString());
  if (!sent) return;
  t.ok(sent.calls.length > 0, 'the calls');
  t.same(sent.results, sent.calls, 'each call answered, in order');
  t.ok(sent.texts.length > 1, 'the prompts and answers');
});

const GEMINI_CALLS = ['read_file__read_file_1796475098118_0', 'read_file__read_file_1796475099178_0', 'run_shell_command__run_shell_command_1796475099254_0', 'run_shell_command__run_shell_command_1796475099536_0'];

t.test('a Gemini CLI chat continued through tx-continue in OpenCode: opencode run --session sends its prompt, calls and results', { skip }, async (t) => {
  const dir = scratch(t);
  const home = await opencodeHome(dir);
  const geminiHome = path.join(dir, 'gemini-home');
  const chat = recordedGeminiChats().find((c) => c.scenario === 'tools')!.file;
  const chats = path.join(geminiHome, '.gemini', 'tmp', 'work', 'chats');
  mkdirSync(chats, { recursive: true });
  copyFileSync(chat, path.join(chats, path.basename(chat)));
  const r = await runBin('tx-continue', ['b401d2ae', '--with', 'opencode', '--gemini-home', geminiHome, '--opencode-home', path.join(home, '.local', 'share')], '', env(home));
  t.equal(r.status, 0, r.stderr);
  const sent = await resumeInOpencode(t, home, r.stdout.toString());
  if (!sent) return;
  t.ok(sent.texts.includes('Read notes.txt and missing.txt, then run two commands.'), 'the prompt');
  t.same(sent.calls, GEMINI_CALLS, 'the calls, in order');
  t.same(sent.results, GEMINI_CALLS, 'their results, in order');
});

t.test('a Codex rollout continued through tx-continue in OpenCode: the configured model resumes it', { skip }, async (t) => {
  const dir = scratch(t);
  const home = await opencodeHome(dir);
  const r = await runBin('tx-continue', ['01a22f95-cea0', '--with', 'opencode', '--codex-home', path.join(root, 'fixtures', 'recorded-codex', 'exec'), '--opencode-home', path.join(home, '.local', 'share')], '', env(home));
  t.equal(r.status, 0, r.stderr);
  const sent = await resumeInOpencode(t, home, r.stdout.toString());
  if (!sent) return;
  t.ok(sent.texts.includes('Run two commands please.'), 'the prompt (the session names the configured model, not the rollout’s gpt model)');
  t.same(sent.calls, ['call_exec_ok', 'call_exec_fail'], 'the calls, in order');
  t.same(sent.results, ['call_exec_ok', 'call_exec_fail'], 'their results, in order');
});

/** A scratch OpenCode home whose database holds the recorded tools session, imported by the client in `cwd`; its id and its tool parts' call ids. */
async function opencodeStore(dir: string): Promise<{ home: string; id: string; calls: string[]; prompt: string }> {
  const home = await opencodeHome(dir);
  const file = recordedOpencodeExports().find((d) => d.scenario === 'tools')!.file;
  const cwd = path.join(dir, 'work');
  mkdirSync(cwd, { recursive: true });
  const imported = await runOpencode({ args: ['import', file], home, cwd });
  if (imported.code !== 0) throw new Error(`opencode import failed: ${imported.stdout}${imported.stderr}`.slice(0, 600));
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  const calls = doc.messages.flatMap((m: any) => m.parts.filter((p: any) => p.type === 'tool').map((p: any) => p.callID as string));
  return { home, id: doc.info.id, calls, prompt: doc.messages[0].parts[0].text };
}

t.test('an OpenCode session continued through tx-continue in Gemini CLI: read from the database, gemini --resume sends its prompt, calls and results', { skip }, async (t) => {
  const dir = scratch(t);
  const oc = await opencodeStore(dir);
  t.ok(opencodeDirs(oc.home).db, 'the database');
  const geminiHome = path.join(dir, 'gemini-home');
  const r = await runBin('tx-continue', [oc.id.slice(0, 14), '--with', 'gemini', '--opencode-home', path.join(oc.home, '.local', 'share'), '--gemini-home', geminiHome], '', env(oc.home));
  t.equal(r.status, 0, r.stderr);
  const m = /^cd (\S+) && GEMINI_CLI_HOME=(\S+) gemini --resume (\S+)\n$/.exec(r.stdout.toString());
  t.ok(m, `the command: ${r.stdout}`);
  if (!m) return;
  t.equal(m[1], path.join(dir, 'work'), 'in the folder the session was in');
  const resumed = await resumeInstalled(geminiHome, m[1]!, m[3]!);
  t.ok(resumed.found, `the client loaded the chat (${resumed.found ? '' : resumed.output.slice(0, 300)})`);
  if (!resumed.found) return;
  const parts = resumed.contents.flatMap((c: any) => c.parts ?? []);
  t.ok(parts.some((p: any) => p.text === oc.prompt), 'the prompt');
  t.same(
    parts.filter((p: any) => p.functionCall).map((p: any) => p.functionCall.id),
    oc.calls,
    'the calls, in order',
  );
  t.same(
    parts.filter((p: any) => p.functionResponse).map((p: any) => p.functionResponse.id),
    oc.calls,
    'their results, in order',
  );
});

t.test('an OpenCode session continued through tx-continue in Claude Code: claude --resume sends its prompt, calls and results', { skip }, async (t) => {
  const dir = scratch(t);
  const oc = await opencodeStore(dir);
  const claudeHome = path.join(dir, 'claude-home');
  const r = await runBin('tx-continue', [oc.id, '--with', 'claude-code', '--opencode-home', path.join(oc.home, '.local', 'share'), '--config-dir', path.join(claudeHome, '.claude')], '', env(oc.home));
  t.equal(r.status, 0, r.stderr);
  const m = /^cd (\S+) && CLAUDE_CONFIG_DIR=\S+ claude --resume (\S+)\n$/.exec(r.stdout.toString());
  t.ok(m, `the command: ${r.stdout}`);
  if (!m) return;
  const mock = await startMockApi({});
  try {
    const run = await runClaude({ args: ['-p', '--resume', m[2]!, 'next'], home: claudeHome, cwd: m[1]!, baseUrl: mock.url });
    const request = mock.messagesRequests('main')[0]?.body as { messages?: { role: string; content: unknown }[] } | undefined;
    t.ok(request, `the client loaded the session and sent it (${run.stdout}${run.stderr})`.slice(0, 400));
    const blocks = (request?.messages ?? []).flatMap((b) => (Array.isArray(b.content) ? b.content : [{ type: 'text', text: b.content }])) as any[];
    t.ok(blocks.some((b) => b.type === 'text' && b.text === oc.prompt), 'the prompt');
    t.same(blocks.filter((b) => b.type === 'tool_use').map((b) => b.id), oc.calls, 'the calls, in order');
    t.same(blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id), oc.calls, 'their results, in order');
  } finally {
    await mock.close();
  }
});

t.test('a session installed for a folder inside a git repository: the client resumes it there (its project global, not the repository’s)', { skip }, async (t) => {
  const dir = scratch(t);
  const home = await opencodeHome(dir);
  const repoDir = path.join(dir, 'repo');
  mkdirSync(path.join(repoDir, 'sub'), { recursive: true });
  const git = (args: string[]) => spawnSync('git', args, { cwd: repoDir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' } });
  t.equal(git(['init', '-q']).status, 0, 'a repository');
  t.equal(git(['commit', '-q', '--allow-empty', '-m', 'root']).status, 0, 'with a commit (the client names its project by the root commit)');
  const cwd = path.join(repoDir, 'sub');
  // A Claude Code session, installed for a folder of the repository by tx-native (project `global`).
  const common = await runBin('tx-common', ['--active'], (await runBin('tx-parse', [path.join(root, 'fixtures', 'recorded', 'tools', 'projects', '-tmp-txcript-rec-tools-work', '00000000-0000-4000-8000-0000000000b1.jsonl')])).stdout);
  const installed = await runBin('tx-native', ['--harness', 'opencode', '--install', '--cwd', cwd, '--session-id', 'new'], common.stdout, env(home));
  t.equal(installed.status, 0, installed.stderr);
  const id = /installed session (ses_\w+)/.exec(installed.stderr)?.[1];
  t.ok(id, installed.stderr);
  const listed = await runOpencode({ args: ['session', 'list', '--format', 'json'], home, cwd });
  t.notOk(listed.stdout.includes(id!), 'the client’s list of the repository’s sessions does not show it (its project is global), as tx-native(1) says');
  const sent = await resumeInOpencode(t, home, `cd ${cwd} && XDG_DATA_HOME=${path.join(home, '.local', 'share')} opencode --session ${id}\n`);
  if (!sent) return;
  t.ok(sent.calls.length > 0, 'the calls');
  t.same(sent.results, sent.calls, 'each call answered, in order');
});
