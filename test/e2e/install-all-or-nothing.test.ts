// `tx-native --install` is all or nothing, seen from outside: the real bin, real files,
// real signals. A refusal (a symbolic link or a file where the store has a directory, a
// config dir that is a file, a session or artifact already there) or a SIGINT/SIGTERM
// in the middle leaves the config directory exactly as it was: no temporary, no session
// or subagent file written before the refusal, no folder of its own. And the spool of
// `tx-common` never has a name on disk, so a signal leaves nothing in $TMPDIR either.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { projectSlug } from '../../lib/claude-code/slug.js';
import { parseTool } from '../../lib/commands/parse.js';
import { repo, ROOT, runBin, runTool } from '../helpers.js';

const ndjson = (lines: unknown[]) => lines.map((l) => JSON.stringify(l) + '\n').join('');
const CWD = '/home/u/app';
const SLUG = projectSlug(CWD);
const A = 'aaaaaaaa-1111-4111-8111-000000000001';
const B = 'bbbbbbbb-2222-4222-8222-000000000002';

function scratch(t: any): string {
  const dir = mkdtempSync(join(tmpdir(), 'tx-all-or-nothing-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Every path beneath `dir` (links not followed), sorted. */
function tree(dir: string): string[] {
  return existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).sort() : [];
}

const session = (id: string, extra: object = {}) => ({ type: 'session', harness: 'claude-code', id, cwd: CWD, ...extra });
const turn = (n: number, blocks: object[] = [{ type: 'text', text: `answer ${n}` }]) => [
  { type: 'message', id: `u${n}`, role: 'user', content: [{ type: 'text', text: `question ${n}` }] },
  { type: 'message', id: `m${n}`, role: 'assistant', content: blocks },
];
const art = (name: string) => ({ type: 'artifact', id: 'toolu_a', name, source: { type: 'text', text: 'bytes' } });

t.test('a symbolic link for projects/ or for the project directory is refused, and nothing is written anywhere', async (t) => {
  for (const linked of ['projects', `projects/${SLUG}`]) {
    const base = scratch(t);
    const config = join(base, 'config');
    const outside = join(base, 'outside');
    mkdirSync(outside);
    mkdirSync(join(config, linked, '..'), { recursive: true });
    symlinkSync(outside, join(config, linked));
    const before = tree(config);
    const r = await runBin('tx-native', ['--install', '--config-dir', config], ndjson([session(A), ...turn(1)]));
    t.equal(r.status, 1, `${linked}: exit 1`);
    t.equal(r.stderr, `tx-native: ${join(config, linked)} is a symbolic link: refusing to write through it\n`, `${linked}: a named error`);
    t.same(readdirSync(outside), [], `${linked}: nothing written through the link`);
    t.same(tree(config), before, `${linked}: no temporary, nothing new`);
  }
});

t.test('a file where the store has a directory, and --config-dir naming a file, are named errors', async (t) => {
  const base = scratch(t);
  const config = join(base, 'config');
  mkdirSync(join(config, 'projects'), { recursive: true });
  writeFileSync(join(config, 'projects', SLUG), 'a file, not a project');
  const r = await runBin('tx-native', ['--install', '--config-dir', config], ndjson([session(A), ...turn(1)]));
  t.equal(r.status, 1);
  t.equal(r.stderr, `tx-native: ${join(config, 'projects', SLUG)} is not a directory\n`);
  t.same(tree(config), ['projects', `projects/${SLUG}`]);

  const file = join(base, 'settings.json');
  writeFileSync(file, '{}');
  const f = await runBin('tx-native', ['--install', '--config-dir', file], ndjson([session(A), ...turn(1)]));
  t.equal(f.status, 1);
  t.equal(f.stderr, `tx-native: ${file} is not a directory\n`);
  t.equal(readFileSync(file, 'utf8'), '{}');
});

t.test('a refusal late in the input takes back the sessions, subagent files and artifacts written before it', async (t) => {
  const config = scratch(t);
  const project = join(config, 'projects', SLUG);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, `${B}.jsonl`), 'theirs\n');
  const before = tree(config);
  // A session with an artifact, its subagent, then a session whose id is taken.
  const input = ndjson([
    session(A),
    ...turn(1, [art('report.md')]),
    session('agent-x', { parent: { session: A, agent_id: 'x1', agent_type: 'general' } }),
    ...turn(2),
    session(B),
    ...turn(3),
  ]);
  const r = await runBin('tx-native', ['--install', '--config-dir', config], input);
  t.equal(r.status, 1);
  t.match(r.stderr, `${join(project, `${B}.jsonl`)} already exists: not overwritten`);
  t.notMatch(r.stderr, /installed/, 'nothing is said to be installed');
  t.same(tree(config), before, 'the first session, its artifact folder and the subagent files are gone');
  t.equal(readFileSync(join(project, `${B}.jsonl`), 'utf8'), 'theirs\n');

  // Without the taken session the same input installs all of it.
  const ok = await runBin('tx-native', ['--install', '--config-dir', config], ndjson([session(A), ...turn(1, [art('report.md')]), session('agent-x', { parent: { session: A, agent_id: 'x1' } }), ...turn(2)]));
  t.equal(ok.status, 0, ok.stderr);
  t.same(tree(project).filter((p) => p.endsWith('.jsonl') || p.endsWith('.md') || p.endsWith('.json')), [`${A}.jsonl`, `${A}/artifacts/report.md`, `${A}/subagents/agent-x1.jsonl`, `${A}/subagents/agent-x1.meta.json`, `${B}.jsonl`]);

  // A refused artifact in a later session takes back a complete earlier one.
  const config2 = scratch(t);
  const bad = await runBin('tx-native', ['--install', '--config-dir', config2], ndjson([session(A), ...turn(1), session(B), ...turn(2, [art('../../escape')])]));
  t.equal(bad.status, 1);
  t.match(bad.stderr, 'artifact path "../../escape" leaves');
  t.same(tree(config2), [], 'the first session is not left behind');
});

/** Spawn a bin with stdin left open; resolves with its exit once it ends. */
function start(name: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [repo('build', 'bin', `${name}.js`), ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.resume();
  child.stdin.on('error', () => {});
  const ended = new Promise<{ status: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => child.on('close', (status, signal) => resolve({ status, signal, stderr })));
  return { child, ended };
}

async function until(what: string, test: () => boolean, ms = 20_000): Promise<void> {
  const stop = Date.now() + ms;
  while (!test()) {
    if (Date.now() > stop) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

t.test('SIGINT or SIGTERM in the middle of an install removes its temporary and folders and exits 130 or 143', async (t) => {
  for (const [signal, status] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    const config = scratch(t);
    mkdirSync(join(config, 'projects'));
    writeFileSync(join(config, 'settings.json'), '{}');
    const before = tree(config);
    const { child, ended } = start('tx-native', ['--install', '--config-dir', config]);
    // A whole first session, and the second one begun: the input is still coming.
    child.stdin.write(ndjson([session(A), ...turn(1, [art('a.txt')]), session(B), ...turn(2)]));
    await until('the second temporary', () => tree(config).filter((p) => p.endsWith('.tmp')).length >= 2);
    t.ok(tree(config).some((p) => p.endsWith('.tmp')), `${signal}: mid-install, temporaries exist`);
    child.kill(signal);
    const end = await ended;
    t.equal(end.status, status, `${signal}: exit ${status}`);
    t.same(tree(config), before, `${signal}: the config directory holds nothing new`);
  }
});

t.test('SIGINT or SIGTERM while tx-common holds a session in its spool leaves nothing in the temporary directory', { skip: existsSync('/proc/self/fd') ? false : 'needs /proc to see the spool open' }, async (t) => {
  // A session of ~6 MB of messages: more than the spool keeps in memory.
  const lines: string[] = [];
  let parent: string | null = null;
  for (let i = 0; i < 300; i++) {
    const uuid = `u-${i}`;
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const message = role === 'user' ? { role, content: `q${i} ` + 'x'.repeat(20_000) } : { id: `m${i}`, role, model: 'm', content: [{ type: 'text', text: 'y'.repeat(20_000) }] };
    lines.push(JSON.stringify({ type: role, uuid, parentUuid: parent, sessionId: A, cwd: CWD, timestamp: '2026-01-01T00:00:00.000Z', message }));
    parent = uuid;
  }
  const records = (await runTool(parseTool, [], [lines.join('\n') + '\n'])).stdout;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const temp = scratch(t);
    const { child, ended } = start('tx-common', ['--active'], { ...process.env, TMPDIR: temp });
    // All but the last record: the session is not over, so its messages wait in the spool.
    child.stdin.write(records.subarray(0, records.lastIndexOf('\n', records.length - 2) + 1));
    const spoolOpen = () => {
      try {
        return readdirSync(`/proc/${child.pid}/fd`).some((fd) => {
          try {
            const link = readlinkSync(`/proc/${child.pid}/fd/${fd}`);
            return link.startsWith(temp) && link.endsWith(' (deleted)');
          } catch {
            return false;
          }
        });
      } catch {
        return false;
      }
    };
    await until('the spool file, open and unlinked', spoolOpen);
    t.same(readdirSync(temp), [], `${signal}: the open spool has no name in ${temp}`);
    child.kill(signal);
    const end = await ended;
    t.ok(end.signal === signal || end.status === 128 + (signal === 'SIGINT' ? 2 : 15), `${signal}: ended by it`);
    t.same(readdirSync(temp), [], `${signal}: nothing left`);
  }
});
