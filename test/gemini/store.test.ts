// The Gemini CLI store as tx-ls and tx-native see it: `.gemini/` in $GEMINI_CLI_HOME (else
// $HOME), a project's chats under tmp/<name>/chats/, the name found as the client finds it
// (projects.json, else a folder's .project_root marker), one listing per session however
// many files a resume left, and an install that writes only new files: the chat, and the
// marker of a project folder it makes (never projects.json, never over a chat).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { repo } from '../helpers.js';
import { scenarioFiles } from './recorded.js';

const bin = (name: string) => repo('build', 'bin', `${name}.js`);

function run(name: string, args: string[], env: NodeJS.ProcessEnv, input?: string) {
  const r = spawnSync(process.execPath, [bin(name), ...args], { input, encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json: r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

function scratch(t: any): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'txcript-gemini-store-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A store whose project `name` (root `cwd`) holds the files of recorded scenarios. */
function store(home: string, name: string, cwd: string, scenarios: string[], register = true): string {
  const gemini = path.join(home, '.gemini');
  const chats = path.join(gemini, 'tmp', name, 'chats');
  mkdirSync(chats, { recursive: true });
  for (const s of scenarios) for (const f of scenarioFiles(s)) cpSync(f, path.join(chats, path.basename(f)));
  writeFileSync(path.join(gemini, 'tmp', name, '.project_root'), cwd);
  if (register) writeFileSync(path.join(gemini, 'projects.json'), JSON.stringify({ projects: { [cwd]: name } }, null, 2));
  return chats;
}

t.test('tx-ls lists each session once: of the files a resume leaves, the one the client resumes', async (t) => {
  const home = scratch(t);
  store(home, 'work', '/tmp/txcript-rec-gemini/resume/work', ['resume', 'plain']);
  const r = run('tx-ls', ['--harness', 'gemini'], { GEMINI_CLI_HOME: home });
  t.equal(r.status, 0, r.stderr);
  t.equal(readdirSync(path.join(home, '.gemini', 'tmp', 'work', 'chats')).length, 3, 'three files');
  t.same(
    r.json.map((e) => [path.basename(e.path), e.id.length, e.project, e.harness]),
    [
      [path.basename(scenarioFiles('plain')[0]!), 36, 'work', 'gemini'],
      [path.basename(scenarioFiles('resume').sort()[0]!), 36, 'work', 'gemini'],
    ],
    'two sessions, each by its whole id; the resume’s second file (nothing to resume) is not listed',
  );
  t.equal(r.json[1].cwd, '/tmp/txcript-rec-gemini/resume/work', 'the cwd from the session context whose hash is the projectHash');
  t.equal(r.json[1].model, 'gemini-3.8-flash');
});

t.test('tx-ls --current finds the project of a directory by projects.json, or by its marker alone', async (t) => {
  for (const register of [true, false]) {
    const home = scratch(t);
    const cwd = '/tmp/txcript-rec-gemini/tools/work';
    store(home, 'tools-work', cwd, ['tools']);
    if (!register) rmSync(path.join(home, '.gemini', 'projects.json'));
    const r = run('tx-ls', ['--harness', 'gemini', '--current', '--cwd', cwd], { HOME: home });
    t.equal(r.status, 0, r.stderr);
    t.same(
      r.json.map((e) => [e.project, e.first_prompt]),
      [['tools-work', 'Read notes.txt and missing.txt, then run two commands.']],
      register ? 'by projects.json' : 'by the marker',
    );
    const other = run('tx-ls', ['--harness', 'gemini', '--current', '--cwd', '/elsewhere'], { HOME: home });
    t.equal(other.status, 1, 'another directory has no session');
  }
});

t.test('a title is the last summary the client set; subagents are listed beside their session', async (t) => {
  const home = scratch(t);
  const chats = store(home, 'work', '/w', ['plain']);
  const file = path.join(chats, readdirSync(chats)[0]!);
  writeFileSync(file, readFileSync(file, 'utf8') + JSON.stringify({ $set: { summary: 'Greeting the user' } }) + '\n');
  const id = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!).sessionId as string;
  const sub = path.join(chats, id, 'bbbbbbbb-0000-4000-8000-000000000002.jsonl');
  mkdirSync(path.dirname(sub));
  writeFileSync(sub, JSON.stringify({ sessionId: 'bbbbbbbb-0000-4000-8000-000000000002', projectHash: 'h', startTime: '2026-01-01T00:00:00.000Z', lastUpdated: '2026-01-01T00:00:00.000Z', kind: 'subagent' }) + '\n');
  const r = run('tx-ls', ['--harness', 'gemini'], { GEMINI_CLI_HOME: home });
  t.same(
    r.json.map((e) => [e.title, e.ai_title, e.subagents]),
    [['Greeting the user', 'Greeting the user', 1]],
  );
  const subs = run('tx-ls', ['--harness', 'gemini', '--subagents', id.slice(0, 8)], { GEMINI_CLI_HOME: home });
  t.equal(subs.status, 0, subs.stderr);
  t.same(
    subs.json.map((s) => [s.agent_id, s.parent]),
    [['bbbbbbbb-0000-4000-8000-000000000002', file]],
    'by a prefix of the session id',
  );
});

const COMMON = [
  { type: 'session', harness: 'claude-code', id: 'x', cwd: '/tmp/txcript-none/My Project', started_at: '2026-03-04T05:06:07.000Z' },
  { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: 'Hello.' }] },
  { type: 'message', id: 'a1', role: 'assistant', content: [{ type: 'text', text: 'Hi.' }] },
]
  .map((l) => JSON.stringify(l) + '\n')
  .join('');
const ID = 'cccccccc-1111-4222-8333-444444444444';

t.test('tx-native --install: the project folder the client would name, its marker, the chat named as the client names it', async (t) => {
  const home = scratch(t);
  const gemini = path.join(home, '.gemini');
  const r = run('tx-native', ['--harness', 'gemini', '--install', '--session-id', ID], { GEMINI_CLI_HOME: home }, COMMON);
  t.equal(r.status, 0, r.stderr);
  const chat = path.join(gemini, 'tmp', 'my-project', 'chats', 'session-2026-03-04T05-06-cccccccc.jsonl');
  t.ok(existsSync(chat), 'tmp/<slug of the base name>/chats/session-<start>-<id8>.jsonl');
  t.equal(readFileSync(path.join(gemini, 'tmp', 'my-project', '.project_root'), 'utf8'), '/tmp/txcript-none/My Project', 'the marker names the project root');
  t.notOk(existsSync(path.join(gemini, 'projects.json')), 'projects.json is the client’s to write');
  t.match(r.stderr, `cd '/tmp/txcript-none/My Project' && gemini --resume ${ID}`, 'the resume command');
  const again = run('tx-native', ['--harness', 'gemini', '--install', '--session-id', ID], { GEMINI_CLI_HOME: home }, COMMON.replace('2026-03-04T05:06', '2026-03-05T05:06'));
  t.equal(again.status, 1, 'the same session id again, even under another minute, is refused');
  t.match(again.stderr, `${chat} already exists`);
  t.same(readdirSync(path.join(gemini, 'tmp', 'my-project', 'chats')), [path.basename(chat)], 'and nothing more is written');
});

t.test('tx-native --install takes the registry’s name for a known root, and the next free name when another root holds the slug', async (t) => {
  const home = scratch(t);
  const gemini = path.join(home, '.gemini');
  // A known root under a name of its own; the slug of the new root held by another root's marker.
  store(home, 'custom', '/tmp/txcript-none/My Project', []);
  mkdirSync(path.join(gemini, 'history', 'other'), { recursive: true });
  writeFileSync(path.join(gemini, 'history', 'other', '.project_root'), '/elsewhere/other');
  const known = run('tx-native', ['--harness', 'gemini', '--install', '--session-id', ID], { GEMINI_CLI_HOME: home }, COMMON);
  t.equal(known.status, 0, known.stderr);
  t.same(readdirSync(path.join(gemini, 'tmp', 'custom', 'chats')), ['session-2026-03-04T05-06-cccccccc.jsonl'], 'the registry’s name');
  const taken = run('tx-native', ['--harness', 'gemini', '--install', '--session-id', 'dddddddd-1111-4222-8333-444444444444', '--cwd', '/tmp/txcript-none/other'], { GEMINI_CLI_HOME: home }, COMMON);
  t.equal(taken.status, 0, taken.stderr);
  t.ok(existsSync(path.join(gemini, 'tmp', 'other-1', 'chats', 'session-2026-03-04T05-06-dddddddd.jsonl')), '`other` is another root’s: `other-1`');
  t.equal(readFileSync(path.join(gemini, 'tmp', 'other-1', '.project_root'), 'utf8'), '/tmp/txcript-none/other');
});

t.test('two sessions of one stream into one new project: one marker, both chats, all or nothing', async (t) => {
  const home = scratch(t);
  const gemini = path.join(home, '.gemini');
  const two = COMMON + COMMON.replace('"id":"x"', '"id":"y"');
  const r = run('tx-native', ['--harness', 'gemini', '--install'], { GEMINI_CLI_HOME: home }, two);
  t.equal(r.status, 0, r.stderr);
  t.equal(readdirSync(path.join(gemini, 'tmp', 'my-project', 'chats')).length, 2, 'both chats');
  t.ok(existsSync(path.join(gemini, 'tmp', 'my-project', '.project_root')), 'one marker');
});
