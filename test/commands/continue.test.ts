// tx-continue: a session found by id (or prefix) in either store, converted and installed
// in the other client's store, and the command that resumes it printed or run.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { HARNESSES } from '../../lib/codecs.js';
import { filesUnder, repo, runBin } from '../helpers.js';

const CODEX_PLAIN = repo('fixtures', 'recorded-codex', 'plain');
const CODEX_ID = '01a22f95-c454-7ee3-ba8a-32e14bb9f4bb';
const CLAUDE_PLAIN = repo('fixtures', 'recorded', 'plain');
const CLAUDE_ID = '00000000-0000-4000-8000-0000000000a1';

function scratch(t: any): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tx-continue-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The environment of a run: no store of the machine's own in reach. */
const env = (home: string, extra: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...extra });

t.test('a Codex session, found by a prefix of its id, is installed in Claude Code and the command that resumes it printed', async (t) => {
  const dir = scratch(t);
  const claude = path.join(dir, 'claude');
  const r = await runBin('tx-continue', ['01a22f95-c454', '--with', 'claude-code', '--codex-home', CODEX_PLAIN, '--config-dir', claude], '', env(dir));
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stdout.toString(), `cd /tmp/txcript-rec-codex/plain/work && CLAUDE_CONFIG_DIR=${claude} claude --resume ${CODEX_ID}\n`);
  const installed = path.join(claude, 'projects', '-tmp-txcript-rec-codex-plain-work', `${CODEX_ID}.jsonl`);
  t.ok(existsSync(installed), 'installed where Claude Code looks for it');
  const lines = readFileSync(installed, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  t.ok(lines.every((l) => l.sessionId === CODEX_ID), 'under the same id');
  t.match(r.stderr, /tx-native: session .*: 1 reasoning block of codex left out/, 'what was changed is said');
  const again = await runBin('tx-continue', [CODEX_ID, '--with', 'claude-code', '--codex-home', CODEX_PLAIN, '--config-dir', claude], '', env(dir));
  t.equal(again.status, 1, 'a second time: the copy is there already');
  t.match(again.stderr, `tx-continue: claude-code already has session ${CODEX_ID} (${installed}): resume it with: cd /tmp/txcript-rec-codex/plain/work && CLAUDE_CONFIG_DIR=${claude} claude --resume ${CODEX_ID}; or make another copy with --session-id new`);
  const copy = await runBin('tx-continue', [CODEX_ID, '--with', 'claude-code', '--codex-home', CODEX_PLAIN, '--config-dir', claude, '--session-id', 'new'], '', env(dir));
  t.equal(copy.status, 0, copy.stderr);
  t.equal(readdirSync(path.dirname(installed)).length, 2, '--session-id new: a second copy beside the first');
});

t.test('a Claude Code session is installed in Codex as a rollout, and the command that resumes it printed', async (t) => {
  const dir = scratch(t);
  const codex = path.join(dir, 'codex');
  const r = await runBin('tx-continue', [CLAUDE_ID, '--with', 'codex', '--config-dir', CLAUDE_PLAIN, '--codex-home', codex], '', env(dir));
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stdout.toString(), `cd /tmp/txcript-rec/plain/work && CODEX_HOME=${codex} codex resume ${CLAUDE_ID}\n`);
  const rollouts = filesUnder(path.join(codex, 'sessions'));
  t.equal(rollouts.length, 1, 'one rollout');
  t.match(path.basename(rollouts[0]), new RegExp(`^rollout-.*-${CLAUDE_ID}\\.jsonl$`), 'named as Codex names rollouts');
  t.equal(JSON.parse(readFileSync(rollouts[0], 'utf8').split('\n')[0]).type, 'session_meta', 'a rollout');
});

t.test('--from-compaction changes nothing: the conversion reads the active conversation, which starts at the latest compaction', async (t) => {
  // A recorded Codex session with a compaction, continued in Claude Code with and without the flag.
  const source = repo('fixtures', 'recorded-codex', 'compaction');
  const dir = scratch(t);
  const copies: Buffer[] = [];
  for (const flag of [[], ['--from-compaction']]) {
    const claude = path.join(dir, `claude${flag.length}`);
    const r = await runBin('tx-continue', ['01a22f96-1373', '--with', 'claude-code', '--codex-home', source, '--config-dir', claude, ...flag], '', env(dir));
    t.equal(r.status, 0, r.stderr);
    const files = filesUnder(path.join(claude, 'projects')).filter((f) => f.endsWith('.jsonl'));
    t.equal(files.length, 1, `one session installed ${flag.join(' ') || 'without the flag'}`);
    copies.push(readFileSync(files[0]));
  }
  t.ok(copies[0].length > 0, 'a session was written');
  t.ok(copies[0].includes('compact_boundary'), 'the copy starts at the compaction, marked as Claude Code marks one');
  t.same(copies[1], copies[0], 'the same bytes with the flag');
});

t.test('a session that is already the named client\'s is not converted: its own command is printed', async (t) => {
  const dir = scratch(t);
  const r = await runBin('tx-continue', [CLAUDE_ID, '--with', 'claude-code', '--config-dir', CLAUDE_PLAIN], '', env(dir));
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stdout.toString(), `cd /tmp/txcript-rec/plain/work && CLAUDE_CONFIG_DIR=${CLAUDE_PLAIN} claude --resume ${CLAUDE_ID}\n`);
  t.match(r.stderr, 'is already a claude-code session');
});

t.test('the stores default to the environment, as the clients find them', async (t) => {
  const dir = scratch(t);
  const claude = path.join(dir, 'claude');
  const r = await runBin('tx-continue', [CODEX_ID, '--with', 'claude-code'], '', env(dir, { CODEX_HOME: CODEX_PLAIN, CLAUDE_CONFIG_DIR: claude }));
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stdout.toString(), `cd /tmp/txcript-rec-codex/plain/work && claude --resume ${CODEX_ID}\n`, 'no variable: the client finds the store as it was found');
  t.ok(existsSync(path.join(claude, 'projects', '-tmp-txcript-rec-codex-plain-work', `${CODEX_ID}.jsonl`)));
});

t.test('--exec runs the command on this terminal and exits with the client\'s status', async (t) => {
  const dir = scratch(t);
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  // A stand-in client that says where it ran, with what, and fails with status 3.
  writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\necho "ran in $(pwd) with $* from $CLAUDE_CONFIG_DIR"\nexit 3\n');
  chmodSync(path.join(bin, 'claude'), 0o755);
  mkdirSync('/tmp/txcript-rec-codex/plain/work', { recursive: true });
  const claude = path.join(dir, 'claude');
  const r = await runBin('tx-continue', [CODEX_ID, '--with', 'claude-code', '--codex-home', CODEX_PLAIN, '--config-dir', claude, '--exec'], '', env(dir, { PATH: `${bin}:${process.env.PATH}` }));
  t.equal(r.status, 3, 'the client\'s status');
  t.equal(r.stdout.toString(), `ran in /tmp/txcript-rec-codex/plain/work with --resume ${CODEX_ID} from ${claude}\n`);
});

t.test('--exec says what is missing, and what to do, when the session\'s directory is gone or the client is not installed', async (t) => {
  const dir = scratch(t);
  // The recorded Codex session, its directory moved under this test's scratch folder, where it does not exist.
  const gone = path.join(dir, 'gone', 'work');
  const home = path.join(dir, 'codex');
  const original = filesUnder(path.join(CODEX_PLAIN, 'sessions'))[0];
  const folder = path.join(home, 'sessions', '2026', '12', '01');
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, path.basename(original)), readFileSync(original, 'utf8').replaceAll('/tmp/txcript-rec-codex/plain/work', gone));
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\necho ran\n');
  chmodSync(path.join(bin, 'claude'), 0o755);
  const claude = path.join(dir, 'claude');
  const moved = await runBin('tx-continue', [CODEX_ID, '--with', 'claude-code', '--codex-home', home, '--config-dir', claude, '--exec'], '', env(dir, { PATH: bin }));
  t.equal(moved.status, 1, 'exit 1');
  t.equal(moved.stdout.toString(), '', 'nothing ran');
  t.notMatch(moved.stderr, /can't cd|No such file/, 'no shell error');
  t.match(moved.stderr, `tx-continue: the session's directory ${gone} does not exist (any more), and Claude Code continues a session in its own directory: make it (mkdir -p ${gone}), or bring the project back there, then run: cd ${gone} && CLAUDE_CONFIG_DIR=${claude} claude --resume ${CODEX_ID}`);
  t.ok(existsSync(path.join(claude, 'projects')), 'the copy is installed, for the command to resume later');

  mkdirSync(gone, { recursive: true });
  const empty = path.join(dir, 'empty-bin');
  mkdirSync(empty);
  const absent = await runBin('tx-continue', [CODEX_ID, '--with', 'claude-code', '--codex-home', home, '--config-dir', path.join(dir, 'claude2'), '--exec'], '', env(dir, { PATH: empty }));
  t.equal(absent.status, 1, 'exit 1');
  t.notMatch(absent.stderr, /not found:|: not found/, 'no shell error');
  t.match(absent.stderr, `tx-continue: claude is not installed here (not found on PATH): install Claude Code, or put its claude on PATH, then run: cd ${gone} && CLAUDE_CONFIG_DIR=${path.join(dir, 'claude2')} claude --resume ${CODEX_ID}`);
  const found = await runBin('tx-continue', [CODEX_ID, '--with', 'claude-code', '--codex-home', home, '--config-dir', path.join(dir, 'claude3'), '--exec'], '', env(dir, { PATH: `${empty}:${bin}:/usr/bin:/bin` }));
  t.equal(found.status, 0, found.stderr);
  t.equal(found.stdout.toString(), 'ran\n', 'with both there, the client runs');
});

t.test('a session no client could continue is refused, and nothing is installed', async (t) => {
  const dir = scratch(t);
  const home = path.join(dir, 'codex');
  const folder = path.join(home, 'sessions', '2026', '12', '01');
  mkdirSync(folder, { recursive: true });
  const original = filesUnder(path.join(CODEX_PLAIN, 'sessions'))[0];
  // Over 4 MB of text: more than any Claude Code model holds.
  const pasted = { timestamp: '2026-12-01T03:11:16.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'log line\n'.repeat(500_000) }] } };
  writeFileSync(path.join(folder, path.basename(original)), readFileSync(original, 'utf8') + JSON.stringify(pasted) + '\n');
  const claude = path.join(dir, 'claude');
  const r = await runBin('tx-continue', [CODEX_ID, '--with', 'claude-code', '--codex-home', home, '--config-dir', claude], '', env(dir));
  t.equal(r.status, 1);
  t.match(r.stderr, /tx-native: session \S+ is about \d+ tokens \(\d+ recorded at its last reply, \d+ estimated after it\), more than the 200000-token context window of claude-code, and it has no compaction for --from-compaction to start from: not written, no model of claude-code has a window that large/);
  t.match(r.stderr, `tx-continue: ${path.join(folder, path.basename(original))}: not continued in claude-code`);
  t.equal(r.stdout.length, 0, 'no command');
  t.same(filesUnder(claude), [], 'nothing installed');
});

t.test('a session with no message a client could load is not continued: no command is printed and nothing is installed', async (t) => {
  const dir = scratch(t);
  // The second file of a resumed Gemini CLI chat: the minute of the resume, holding only the client's session context.
  const chat = repo('fixtures', 'recorded-gemini', 'resume', 'chats', 'session-2026-12-05T12-51-71c7db43.jsonl');
  const chats = path.join(dir, 'gemini', '.gemini', 'tmp', 'work', 'chats');
  mkdirSync(chats, { recursive: true });
  writeFileSync(path.join(chats, path.basename(chat)), readFileSync(chat));
  for (const [harness, flag] of [['claude-code', '--config-dir'], ['codex', '--codex-home'], ['pi', '--pi-home']]) {
    const store = path.join(dir, harness);
    const r = await runBin('tx-continue', ['71c7db43-a5b2', '--with', harness, '--gemini-home', path.join(dir, 'gemini'), flag, store], '', env(dir));
    t.equal(r.status, 1, `${harness}: exit 1`);
    t.equal(r.stdout.length, 0, `${harness}: no command`);
    t.match(r.stderr, /has no message the client could load: not installed/, `${harness}: tx-native says why`);
    t.match(r.stderr, `tx-continue: ${path.join(chats, path.basename(chat))}: not continued in ${harness}: nothing was installed`, `${harness}: and tx-continue that it did not continue it`);
    t.same(filesUnder(store).filter((f) => f.endsWith('.jsonl')), [], `${harness}: no session installed`);
  }
});

t.test('an id no store holds, or a prefix that names several, is an error that says so', async (t) => {
  const dir = scratch(t);
  const none = await runBin('tx-continue', ['ffffffff', '--with', 'codex', '--config-dir', CLAUDE_PLAIN, '--codex-home', CODEX_PLAIN], '', env(dir));
  t.equal(none.status, 1);
  t.match(none.stderr, 'tx-continue: no session ffffffff in the stores');
  const home = path.join(dir, 'codex');
  for (const scenario of ['plain', 'exec']) {
    const file = filesUnder(repo('fixtures', 'recorded-codex', scenario, 'sessions'))[0];
    mkdirSync(path.join(home, 'sessions'), { recursive: true });
    writeFileSync(path.join(home, 'sessions', path.basename(file)), readFileSync(file));
  }
  const several = await runBin('tx-continue', ['01a22f95', '--with', 'claude-code', '--codex-home', home, '--config-dir', path.join(dir, 'claude')], '', env(dir));
  t.equal(several.status, 1);
  t.match(several.stderr, 'tx-continue: 01a22f95 names 2 sessions:');
});

t.test('usage errors: no id, no or an unknown --with, a --session-id that is not a UUID', async (t) => {
  const dir = scratch(t);
  for (const [args, said] of [
    [['--with', 'codex'], 'name one session'],
    [[CODEX_ID], `--with ${HARNESSES.join('|')}: which client`],
    [[CODEX_ID, '--with', 'emacs'], `--with "emacs" is not one of ${HARNESSES.join(', ')}`],
    [[CODEX_ID, '--with', 'codex', '--session-id', 'x'], '--session-id "x" is not a UUID'],
  ] as [string[], string][]) {
    const r = await runBin('tx-continue', args, '', env(dir));
    t.equal(r.status, 2, args.join(' '));
    t.match(r.stderr, said);
  }
});
