// tx-ls --harness pi over agent directories laid out in t.testdir(): where the store is
// ($PI_CODING_AGENT_DIR, ~ in it, else ~/.pi/agent), the fields of the shallow scan
// against a full parse, --current as `pi --continue` picks, what pi has not; and
// tx-native --harness pi --install: where a session goes, never over one that is there.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { lsTool } from '../../lib/commands/ls.js';
import { nativeTool } from '../../lib/commands/native.js';
import { piAgentDir, piIdOf } from '../../lib/pi/store.js';
import { projectDirName, piSessionTarget } from '../../lib/pi/install.js';
import { scanPiSession } from '../../lib/pi/session-scan.js';
import { runTool } from '../claude-code/store-helpers.js';
import { runTool as runWith } from '../helpers.js';
import { piFiles } from './lines.js';

const A = '01a2463c-ab85-73a2-bb9e-69ce87352c81';
const B = '01a2463c-b201-70f0-a9b4-67aae6ef81a3';

/** A session file as pi writes one: header, a model change, a prompt, a reply; more entries after. */
function session(file: string, id: string, cwd: string, prompt: string, when: Date, more: object[] = []): void {
  const ts = when.toISOString();
  const lines = [
    { type: 'session', version: 3, id, timestamp: ts, cwd },
    { type: 'model_change', id: 'aaaa0001', parentId: null, timestamp: ts, provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
    { type: 'message', id: 'aaaa0002', parentId: 'aaaa0001', timestamp: ts, message: { role: 'user', content: [{ type: 'text', text: prompt }], timestamp: when.getTime() } },
    { type: 'message', id: 'aaaa0003', parentId: 'aaaa0002', timestamp: ts, message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: 'stop', timestamp: when.getTime() } },
    ...more,
  ];
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  utimesSync(file, when, when);
}

function agentDir(dir: string): { agent: string; a: string; b: string } {
  const agent = path.join(dir, 'agent');
  const a = path.join(agent, 'sessions', projectDirName('/home/dev/app'), `2026-02-23T12-40-23-000Z_${A}.jsonl`);
  const b = path.join(agent, 'sessions', projectDirName('/home/dev/app'), `2026-02-24T09-00-00-000Z_${B}.jsonl`);
  session(a, A, '/home/dev/app', 'fix the build', new Date('2026-02-23T12:40:23Z'), [
    { type: 'session_info', id: 'aaaa0004', parentId: 'aaaa0003', timestamp: '2026-02-23T12:41:00Z', name: 'First name' },
    { type: 'session_info', id: 'aaaa0005', parentId: 'aaaa0004', timestamp: '2026-02-23T12:42:00Z', name: '  Build fix  ' },
  ]);
  session(b, B, '/home/dev/app', 'add a test', new Date('2026-02-24T09:00:00Z'), [{ type: 'session_info', id: 'aaaa0004', parentId: 'aaaa0003', timestamp: '2026-02-24T09:01:00Z', name: 'Gone' }, { type: 'session_info', id: 'aaaa0005', parentId: 'aaaa0004', timestamp: '2026-02-24T09:02:00Z', name: '' }]);
  writeFileSync(path.join(agent, 'settings.json'), '{}');
  mkdirSync(path.join(agent, 'sessions', 'deeper', 'nested'), { recursive: true });
  writeFileSync(path.join(agent, 'sessions', 'deeper', 'nested', 'not-walked.jsonl'), '{}\n');
  return { agent, a, b };
}

t.test('$PI_CODING_AGENT_DIR: every session of every working directory, with the fields of the shallow scan', async (t) => {
  const dir = t.testdir({});
  const h = agentDir(dir);
  // HOME names a folder that is not there: the variable alone says where the store is.
  const r = await runTool(lsTool, ['--harness', 'pi', '--sort', 'path', '--lines'], { env: { PI_CODING_AGENT_DIR: h.agent, HOME: path.join(dir, 'no-home') } });
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stderr, '');
  t.same(
    r.json.map((e) => [e.path, e.id, e.project, e.cwd, e.model, e.version, e.git_branch, e.title, e.started_at, e.lines, e.harness, e.subagents]),
    [
      [h.a, A, '--home-dev-app--', '/home/dev/app', 'claude-sonnet-4-5', null, null, 'Build fix', '2026-02-23T12:40:23.000Z', 6, 'pi', null],
      [h.b, B, '--home-dev-app--', '/home/dev/app', 'claude-sonnet-4-5', null, null, null, '2026-02-24T09:00:00.000Z', 6, 'pi', null],
    ],
    'folders one level under sessions/ only; the latest name wins, trimmed; an empty name clears it',
  );
});

t.test('where the agent directory is: the variable (with ~), else ~/.pi/agent', (t) => {
  t.equal(piAgentDir({ PI_CODING_AGENT_DIR: '/x/agent', HOME: '/h' }), '/x/agent');
  t.equal(piAgentDir({ PI_CODING_AGENT_DIR: '~/other', HOME: '/h' }), '/h/other', 'pi expands a leading ~');
  t.equal(piAgentDir({ PI_CODING_AGENT_DIR: '', HOME: '/h' }), '/h/.pi/agent');
  t.equal(piAgentDir({ HOME: '/h' }), '/h/.pi/agent');
  t.equal(piAgentDir({}), null);
  t.equal(piIdOf(`/s/2026-02-23T12-40-23-000Z_${A}.jsonl`), A, 'the id is the UUID after the start time');
  t.equal(piIdOf('/s/odd-name.jsonl'), 'odd-name');
  t.end();
});

t.test('the shallow scan gives what a full parse of every session file gives', (t) => {
  for (const file of piFiles()) {
    const text = readFileSync(file, 'utf8');
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return null;
        }
      });
    const header = lines[0];
    const names = lines.filter((l) => l?.type === 'session_info');
    const name = names.length ? (String(names.at(-1).name ?? '').trim() || null) : null;
    const reply = lines.find((l) => l?.type === 'message' && l.message?.role === 'assistant');
    const want = { id: header.id, cwd: header.cwd ?? null, model: reply?.message.model ?? null, title: name, started_at: header.timestamp ?? null };
    for (const deep of [false, true]) {
      const got = scanPiSession(file, Buffer.byteLength(text), { deep });
      t.same({ id: got.id, cwd: got.cwd, model: got.model, title: got.title, started_at: got.started_at }, want, `${path.basename(file)}${deep ? ' (--deep)' : ''}`);
    }
  }
  t.end();
});

t.test('--current: the newest session of the working directory, as pi --continue picks it, with its first prompt', async (t) => {
  const h = agentDir(t.testdir({}));
  const r = await runTool(lsTool, ['--harness', 'pi', '--current', '--cwd', '/home/dev/app', '--window', '0'], { env: { PI_CODING_AGENT_DIR: h.agent } });
  t.equal(r.status, 0, r.stderr);
  t.same(
    r.json.map((e) => [e.id, e.first_prompt]),
    [[B, 'add a test']],
  );
  const both = await runTool(lsTool, ['--harness', 'pi', '--current', '--cwd', '/home/dev/app', '--window', '2000'], { env: { PI_CODING_AGENT_DIR: h.agent } });
  t.same(
    both.json.map((e) => e.id),
    [B, A],
    'within the window, newest first',
  );
  const nowhere = path.join(h.agent, 'nowhere');
  const none = await runTool(lsTool, ['--harness', 'pi', '--current', '--cwd', nowhere], { env: { PI_CODING_AGENT_DIR: h.agent } });
  t.equal(none.status, 1);
  t.ok(none.stderr.includes(`no session of ${nowhere}`), none.stderr);
});

t.test('a skill a person invoked is not the first prompt', async (t) => {
  const dir = t.testdir({});
  const file = path.join(dir, 'agent', 'sessions', projectDirName('/w'), `2026-01-01T00-00-00-000Z_${A}.jsonl`);
  session(file, A, '/w', '<skill name="review" location="/s/review/SKILL.md">\nReferences are relative to /s/review.\n\nBody.\n</skill>\n\nsrc/', new Date('2026-01-01T00:00:00Z'), [
    { type: 'message', id: 'aaaa0004', parentId: 'aaaa0003', timestamp: '2026-01-01T00:00:01Z', message: { role: 'user', content: 'typed by a person' } },
  ]);
  const r = await runTool(lsTool, ['--harness', 'pi', '--current', '--cwd', '/w'], { env: { PI_CODING_AGENT_DIR: path.join(dir, 'agent') } });
  t.same(
    r.json.map((e) => e.first_prompt),
    ['typed by a person'],
  );
});

t.test('tx-ls --harness all lists the pi store with the others, each entry naming its harness', async (t) => {
  const dir = t.testdir({});
  const h = agentDir(dir);
  const r = await runTool(lsTool, ['--harness', 'all', '--sort', 'path'], { env: { HOME: path.join(dir, 'home'), PI_CODING_AGENT_DIR: h.agent } });
  t.equal(r.status, 0, r.stderr);
  t.same(
    r.json.map((e) => [e.harness, e.id]),
    [
      ['pi', A],
      ['pi', B],
    ],
  );
  const flagged = await runTool(lsTool, ['--harness', 'all', '--pi-home', h.agent], { env: { HOME: path.join(dir, 'home') } });
  t.same(flagged.json.map((e) => e.id).sort(), [A, B], '--pi-home names the store');
});

t.test('what pi has not is refused with a reason', async (t) => {
  const h = agentDir(t.testdir({}));
  for (const flag of ['--subagents', '--plugins']) {
    const r = await runTool(lsTool, ['--harness', 'pi', flag], { env: { PI_CODING_AGENT_DIR: h.agent } });
    t.equal(r.status, 2, flag);
    t.match(r.stderr, /--(subagents|plugins): pi keeps no (subagent transcripts beside a session|plugin registry)/);
  }
});

const COMMON = [
  { type: 'session', harness: 'claude-code', id: A, cwd: '/home/dev/app', started_at: '2026-03-01T10:00:00.000Z', title: 'Named' },
  { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: 'Hi.' }], timestamp: '2026-03-01T10:00:01.000Z' },
  { type: 'message', id: 'a1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Hello.' }], timestamp: '2026-03-01T10:00:02.000Z' },
]
  .map((l) => JSON.stringify(l))
  .join('\n');

t.test('tx-native --harness pi --install: into the folder of the working directory, named as pi names its files; never over a session that is there', async (t) => {
  const dir = t.testdir({});
  const agent = path.join(dir, 'agent');
  const cwd = path.join(dir, 'work');
  mkdirSync(cwd);
  const first = await runWith(nativeTool, ['--harness', 'pi', '--install', '--config-dir', agent, '--cwd', cwd], [COMMON + '\n']);
  t.equal(first.status, 0, first.stderr);
  const file = path.join(agent, 'sessions', projectDirName(cwd), `2026-03-01T10-00-00-000Z_${A}.jsonl`);
  t.ok(existsSync(file), 'the file pi would have written');
  t.match(first.stderr, new RegExp(`continue it with: cd ${cwd.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} && pi --session ${A}`));
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  t.same(lines[0], { type: 'session', version: 3, id: A, timestamp: '2026-03-01T10:00:00.000Z', cwd }, 'a header pi opens (its cwd the one resumed in)');
  t.same(lines.at(-1).name, 'Named', 'the name last');
  const before = readFileSync(file);
  const again = await runWith(nativeTool, ['--harness', 'pi', '--install', '--config-dir', agent, '--cwd', cwd], [COMMON + '\n']);
  t.equal(again.status, 1, 'refused');
  t.match(again.stderr, /already exists: not overwritten; to install it as a new session, run: .*--session-id new/);
  t.same(readFileSync(file), before, 'the session there is untouched');
  // A file of the same session under another start time is the same session for pi (it finds sessions by id).
  const moved = COMMON.replace('"started_at":"2026-03-01T10:00:00.000Z"', '"started_at":"2026-04-01T10:00:00.000Z"');
  const other = await runWith(nativeTool, ['--harness', 'pi', '--install', '--config-dir', agent, '--cwd', cwd], [moved + '\n']);
  t.equal(other.status, 1, 'refused under another start time too');
  t.same(readdirSync(path.dirname(file)), [path.basename(file)], 'nothing else written');
});

t.test('an install target is refused for an id that is not a UUID and a relative working directory', (t) => {
  t.throws(() => piSessionTarget('/agent', '/w', '../escape'), /is not a UUID/);
  t.throws(() => piSessionTarget('/agent', 'w', A), /not an absolute path/);
  t.same(piSessionTarget('/agent', '/a/b:c\\d', A, 'not a date').file, `/agent/sessions/--a-b-c-d--/1970-01-01T00-00-00-000Z_${A}.jsonl`, 'separators and colons made -, an unknown start the epoch');
  t.end();
});

t.test('a copy of a store file keeps its id: tx-ls finds it by the name pi gave it', async (t) => {
  const dir = t.testdir({});
  const h = agentDir(dir);
  const flat = path.join(dir, 'flat');
  mkdirSync(flat);
  copyFileSync(h.a, path.join(flat, path.basename(h.a)));
  const r = await runTool(lsTool, ['--harness', 'pi', flat], { env: {} });
  t.same(
    r.json.map((e) => [e.id, e.project]),
    [[A, 'flat']],
    'a flat session folder (settings.json sessionDir) is listed with --root or as a DIR',
  );
});
