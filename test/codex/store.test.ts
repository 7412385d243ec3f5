// tx-ls --harness codex over Codex homes laid out in t.testdir(): where the store is,
// dated and archived rollouts, a compressed one, names from session_index.jsonl,
// --current by the session's cwd, and what does not apply to Codex.
import { copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { lsTool } from '../../lib/commands/ls.js';
import { runTool } from '../claude-code/store-helpers.js';
import { repo } from '../helpers.js';

const A = '019c8a4c-ed82-79a1-aa28-7738fc5ab61a';
const B = '019c8a59-e9dd-71f0-9ae3-4079fe9726a9';
const ZST_ID = '0198f000-0000-7000-8000-00000000a001';
const ZST = `rollout-2025-09-01T08-00-00-${ZST_ID}.jsonl.zst`;

function rollout(file: string, id: string, cwd: string, prompt: string, when: Date): void {
  const ts = when.toISOString();
  const lines = [
    { timestamp: ts, type: 'session_meta', payload: { id, timestamp: ts, cwd, originator: 'codex_exec', cli_version: '0.169.0', git: { branch: 'dev' } } },
    { timestamp: ts, type: 'turn_context', payload: { cwd, model: 'gpt-5.5' } },
    { timestamp: ts, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] } },
    { timestamp: ts, type: 'event_msg', payload: { type: 'item_completed', item: { type: 'UserMessage', content: [{ type: 'text', text: prompt }] } } },
  ];
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  utimesSync(file, when, when);
}

function home(dir: string): { home: string; a: string; b: string; zst: string } {
  const h = path.join(dir, 'codex-home');
  const a = path.join(h, 'sessions', '2026', '02', '23', `rollout-2026-02-23T12-40-23-${A}.jsonl`);
  const b = path.join(h, 'sessions', '2026', '02', '24', `rollout-2026-02-24T09-00-00-${B}.jsonl`);
  rollout(a, A, '/home/dev/app', 'fix the build', new Date('2026-02-23T12:40:23Z'));
  rollout(b, B, '/home/dev/app', 'add a test', new Date('2026-02-24T09:00:00Z'));
  mkdirSync(path.join(h, 'archived_sessions'), { recursive: true });
  const zst = path.join(h, 'archived_sessions', ZST);
  copyFileSync(repo('fixtures', 'codex-store', ZST), zst);
  writeFileSync(path.join(h, 'log.jsonl'), '{"not":"a rollout"}\n');
  writeFileSync(
    path.join(h, 'session_index.jsonl'),
    [
      { id: A, thread_name: 'First name', updated_at: '2026-02-23T12:41:00Z' },
      { id: A, thread_name: 'Build fix', updated_at: '2026-02-23T13:00:00Z' },
      { id: ZST_ID, thread_name: 'Old scripts', updated_at: '2025-09-01T09:00:00Z' },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n') + '\n',
  );
  return { home: h, a, b, zst };
}

t.test('$CODEX_HOME: dated rollouts and archived ones, a compressed one read through the decoder, names from session_index.jsonl', async (t) => {
  const h = home(t.testdir({}));
  const r = await runTool(lsTool, ['--harness', 'codex', '--sort', 'path', '--lines'], { env: { CODEX_HOME: h.home, HOME: '/nonexistent' } });
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stderr, '');
  t.same(
    r.json.map((e) => [e.path, e.id, e.project, e.cwd, e.model, e.version, e.git_branch, e.title, e.lines, e.harness, e.subagents]),
    [
      [h.zst, ZST_ID, 'archived_sessions', '/home/dev/old', 'gpt-5', '0.30.0', 'main', 'Old scripts', 6, 'codex', null],
      [h.a, A, path.join('sessions', '2026', '02', '23'), '/home/dev/app', 'gpt-5.5', '0.169.0', 'dev', 'Build fix', 4, 'codex', null],
      [h.b, B, path.join('sessions', '2026', '02', '24'), '/home/dev/app', 'gpt-5.5', '0.169.0', 'dev', null, 4, 'codex', null],
    ],
    'every rollout, none of the other files; the last name in the index wins; an unnamed session has title null',
  );
  t.equal(r.json[0].started_at, '2025-09-01T08:00:00.000Z');
});

t.test('without CODEX_HOME the store is $HOME/.codex', async (t) => {
  const dir = t.testdir({});
  const h = home(path.join(dir, 'home'));
  const dot = path.join(dir, 'home', '.codex');
  mkdirSync(dot, { recursive: true });
  copyFileSync(h.a, path.join(dot, path.basename(h.a)));
  mkdirSync(path.join(dot, 'sessions'));
  copyFileSync(h.b, path.join(dot, 'sessions', path.basename(h.b)));
  for (const env of [{ HOME: path.join(dir, 'home') }, { HOME: path.join(dir, 'home'), CODEX_HOME: '' }]) {
    const r = await runTool(lsTool, ['--harness', 'codex'], { env });
    t.same(
      r.json.map((e) => e.id),
      [B],
      'only sessions/ (and archived_sessions/) of the home are walked',
    );
  }
  const none = await runTool(lsTool, ['--harness', 'codex'], { env: {} });
  t.equal(none.status, 1);
  t.match(none.stderr, /neither CODEX_HOME nor HOME/);
});

t.test('--current --harness codex: the newest rollout whose session ran in the directory', async (t) => {
  const h = home(t.testdir({}));
  const r = await runTool(lsTool, ['--harness', 'codex', '--current', '--cwd', '/home/dev/app', '--window', '0'], { env: { CODEX_HOME: h.home } });
  t.equal(r.status, 0, r.stderr);
  t.same(
    r.json.map((e) => [e.id, e.first_prompt]),
    [[B, 'add a test']],
  );
  const old = await runTool(lsTool, ['--harness', 'codex', '--current', '--cwd', '/home/dev/nowhere'], { env: { CODEX_HOME: h.home } });
  t.equal(old.status, 1);
  t.match(old.stderr, /no session of \/home\/dev\/nowhere/);
});

t.test('an archived rollout is listed from its folder but is never the current session', async (t) => {
  const h = home(t.testdir({}));
  const r = await runTool(lsTool, ['--harness', 'codex', '--current', '--cwd', '/home/dev/old'], { env: { CODEX_HOME: path.join(h.home) } });
  // --current walks sessions/ only: an archived session is not current.
  t.equal(r.status, 1);
  const direct = await runTool(lsTool, ['--harness', 'codex', path.join(h.home, 'archived_sessions')], { env: {} });
  t.same(
    direct.json.map((e) => e.id),
    [ZST_ID],
  );
});

t.test('what Codex has not is refused with a reason, and an unknown harness is a usage error', async (t) => {
  const h = home(t.testdir({}));
  for (const flag of ['--subagents', '--plugins']) {
    const r = await runTool(lsTool, ['--harness', 'codex', flag], { env: { CODEX_HOME: h.home } });
    t.equal(r.status, 2, flag);
    t.match(r.stderr, /--(subagents|plugins): Codex keeps no (subagent transcripts beside a session|plugin registry)/);
  }
  const bad = await runTool(lsTool, ['--harness', 'emacs'], { env: {} });
  t.equal(bad.status, 2);
  t.match(bad.stderr, /--harness is all or one of .*, not "emacs"/);
});
