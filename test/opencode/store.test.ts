// OpenCode's store as the tools see it: the client's database (`opencode.db` in
// $XDG_DATA_HOME/opencode), read through the SQLite this machine has. tx-ls lists its
// sessions (and export documents in a folder named); tx-native --install writes sessions
// into it in one transaction, never over one already there; tx-continue takes a session
// out of it to another client and into it from another; tx-grep searches it. The
// database is made with the client's tables (build.ts SCHEMA); the real client loads
// what is written in the conformance tests.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { sessionIdFor } from '../../lib/opencode/native-writer.js';
import { localEngine } from '../../lib/opencode/sqlite-engines.js';
import { repo } from '../helpers.js';
import { recordedExports, SCHEMA } from './build.js';

const bin = (name: string) => repo('build', 'bin', `${name}.js`);
const CLAUDE_TOOLS = repo('fixtures', 'recorded', 'tools');
const CLAUDE_ID = '00000000-0000-4000-8000-0000000000b1';

function run(name: string, args: string[], env: NodeJS.ProcessEnv, input?: string | Buffer) {
  const r = spawnSync(process.execPath, [bin(name), ...args], { input, env: { PATH: process.env.PATH, ...env } });
  const stdout = r.stdout.toString('utf8');
  return {
    status: r.status,
    stdout,
    stderr: r.stderr.toString('utf8'),
    /** The output's lines as JSON (for a tool that writes NDJSON). */
    get json(): any[] {
      return stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
    },
  };
}

/** A scratch HOME with an empty OpenCode database in its data folder; null when this machine has no SQLite. */
function store(t: any): { home: string; data: string; db: string } | null {
  const home = mkdtempSync(path.join(tmpdir(), 'txcript-opencode-store-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const data = path.join(home, '.local', 'share');
  mkdirSync(path.join(data, 'opencode'), { recursive: true });
  const db = path.join(data, 'opencode', 'opencode.db');
  const engine = localEngine(db);
  if (!engine?.run) return null;
  engine.run(SCHEMA);
  return { home, data, db };
}

const noSqlite = 'no SQLite on this machine (node:sqlite or the sqlite3 command)';
const tools = recordedExports().find((d) => d.scenario === 'tools')!.file;

/** The Common of a recorded export. */
function commonOf(file: string): string {
  const parsed = run('tx-parse', [file], {});
  return run('tx-common', [], {}, parsed.stdout).stdout;
}

t.test('tx-native --install writes sessions into the database, and tx-ls lists them', async (t) => {
  const s = store(t);
  if (!s) return t.pass(noSqlite);
  const cwd = path.join(s.home, 'project');
  mkdirSync(cwd);
  const env = { HOME: s.home };
  const common = commonOf(tools) + commonOf(recordedExports().find((d) => d.scenario === 'plain')!.file);
  const installed = run('tx-native', ['--harness', 'opencode', '--install', '--cwd', cwd], env, common);
  t.equal(installed.status, 0, installed.stderr);
  const ids = [...installed.stderr.matchAll(/installed session (ses_\w+) in /g)].map((m) => m[1]);
  t.equal(ids.length, 2, 'two sessions installed');
  t.match(installed.stderr, `continue it with: cd ${cwd} && opencode --session ${ids[0]}`, 'and the command that resumes each');
  const engine = localEngine(s.db, { readonly: true })!;
  t.same(
    engine.query('SELECT id, directory, project_id FROM session ORDER BY id').map((r) => [r.id, r.directory, r.project_id]),
    ids.sort().map((id) => [id, cwd, 'global']),
    'placed in the folder they resume in, in the global project',
  );

  const ls = run('tx-ls', ['--harness', 'opencode', '--lines'], env);
  t.equal(ls.status, 0, ls.stderr);
  t.same(ls.json.map((e) => e.id).sort(), ids, 'tx-ls lists both, from $HOME/.local/share/opencode');
  const one = ls.json.find((e) => e.title === 'Recorded session' && e.lines === 6)!;
  t.ok(one, 'the tools session: its info and five messages');
  t.equal(one.path, `${s.db}#${one.id}`, 'named by the database and its id');
  t.equal(one.cwd, cwd);
  t.equal(one.model, 'claude-mock', 'the first answer’s model');
  t.equal(one.harness, 'opencode');

  // HOME names a folder that is not there: the variable alone says where the store is.
  const byVar = run('tx-ls', ['--harness', 'opencode'], { HOME: path.join(s.home, 'no-home'), XDG_DATA_HOME: s.data });
  t.same(byVar.json.map((e) => e.id).sort(), ids, '$XDG_DATA_HOME names the data folder');
  const all = run('tx-ls', ['--harness', 'all'], env);
  t.same(all.json.filter((e) => e.harness === 'opencode').map((e) => e.id).sort(), ids, 'tx-ls --harness all lists them');

  const current = run('tx-ls', ['--harness', 'opencode', '--current', '--cwd', cwd, '--window', '100000000'], env);
  t.equal(current.status, 0, current.stderr);
  t.equal(current.json.length, 2, '--current: the sessions of the folder');
  t.ok(current.json.some((e) => e.first_prompt === 'Run a command, list a missing folder, then read missing.txt.'), 'with their first prompts');

  const again = run('tx-native', ['--harness', 'opencode', '--install', '--cwd', cwd], env, commonOf(tools));
  t.equal(again.status, 1, 'the same session again is refused');
  t.match(again.stderr, /already in .*: not overwritten; .*--session-id new/);
  t.equal(engine.query('SELECT count(*) AS n FROM session')[0]!.n, 2, 'and nothing was written');
  const fresh = run('tx-native', ['--harness', 'opencode', '--install', '--cwd', cwd, '--session-id', 'new'], env, commonOf(tools));
  t.equal(fresh.status, 0, fresh.stderr);
  t.equal(engine.query('SELECT count(*) AS n FROM session')[0]!.n, 3, '--session-id new: a copy beside it');
});

t.test('all the sessions of a run are written, or none', async (t) => {
  const s = store(t);
  if (!s) return t.pass(noSqlite);
  const env = { HOME: s.home };
  const first = run('tx-native', ['--harness', 'opencode', '--install', '--cwd', s.home], env, commonOf(tools));
  t.equal(first.status, 0, first.stderr);
  // A new session, then the one already there: the second fails, and the first is not kept.
  const plain = commonOf(recordedExports().find((d) => d.scenario === 'plain')!.file);
  const r = run('tx-native', ['--harness', 'opencode', '--install', '--cwd', s.home], env, plain + commonOf(tools));
  t.equal(r.status, 1, 'refused');
  const engine = localEngine(s.db, { readonly: true })!;
  t.equal(engine.query('SELECT count(*) AS n FROM session')[0]!.n, 1, 'the new session was not written either');
});

t.test('an install needs the client’s database: none is made', async (t) => {
  const home = mkdtempSync(path.join(tmpdir(), 'txcript-opencode-nodb-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const r = run('tx-native', ['--harness', 'opencode', '--install', '--cwd', home], { HOME: home }, commonOf(tools));
  t.equal(r.status, 1);
  t.match(r.stderr, /no OpenCode database \(start opencode once to make it\)/);
});

t.test('tx-continue takes a Claude Code session into the database, and an OpenCode session out of it', async (t) => {
  const s = store(t);
  if (!s) return t.pass(noSqlite);
  const env = { HOME: s.home };
  const into = run('tx-continue', [CLAUDE_ID, '--with', 'opencode', '--config-dir', CLAUDE_TOOLS, '--opencode-home', s.data], env);
  t.equal(into.status, 0, into.stderr);
  const id = sessionIdFor(CLAUDE_ID);
  t.equal(into.stdout, `cd /tmp/txcript-rec/tools/work && XDG_DATA_HOME=${s.data} opencode --session ${id}\n`, 'the command names the id the session got');
  const again = run('tx-continue', [CLAUDE_ID, '--with', 'opencode', '--config-dir', CLAUDE_TOOLS, '--opencode-home', s.data], env);
  t.equal(again.status, 1, 'a second time: already there');
  t.match(again.stderr, `opencode already has session`);

  const claude = path.join(s.home, '.claude');
  const out = run('tx-continue', [id.slice(0, 12), '--with', 'claude-code', '--opencode-home', s.data, '--config-dir', claude], env);
  t.equal(out.status, 0, out.stderr);
  const m = /^cd (\S+) && CLAUDE_CONFIG_DIR=\S+ claude --resume (\S+)\n$/.exec(out.stdout);
  t.ok(m, `the command: ${out.stdout}`);
  const file = path.join(claude, 'projects', '-tmp-txcript-rec-tools-work', `${m![2]}.jsonl`);
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const uses = lines.flatMap((l) => (Array.isArray(l.message?.content) ? l.message.content : [])).filter((b: any) => b.type === 'tool_use');
  const source = readFileSync(path.join(CLAUDE_TOOLS, 'projects', '-tmp-txcript-rec-tools-work', `${CLAUDE_ID}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const sourceUses = source.flatMap((l) => (Array.isArray(l.message?.content) ? l.message.content : [])).filter((b: any) => b.type === 'tool_use');
  t.same(
    uses.map((b: any) => [b.id, b.name]),
    sourceUses.map((b: any) => [b.id, b.name]),
    'back in Claude Code: the same calls, through OpenCode’s store',
  );
});

t.test('tx-grep searches the sessions of the database', async (t) => {
  const s = store(t);
  if (!s) return t.pass(noSqlite);
  const env = { HOME: s.home };
  t.equal(run('tx-native', ['--harness', 'opencode', '--install', '--cwd', s.home], env, commonOf(tools)).status, 0);
  const r = run('tx-grep', ['--role', 'tool', 'hello from bash', '--jobs', '1'], env);
  t.equal(r.status, 0, r.stderr);
  t.same(
    r.json.map((h) => [h.harness, h.role]),
    [
      ['opencode', 'tool'],
      ['opencode', 'tool'],
    ],
    'the call and its output',
  );
  t.match(r.json[0].path, `${s.db}#ses_`);
  t.equal(r.json[0].title, 'Recorded session', 'with the session’s title');
  const workers = run('tx-grep', ['--role', 'tool', 'hello from bash', '--jobs', '2', path.join(s.data, 'opencode'), repo('fixtures', 'recorded-opencode', 'plain')], env);
  t.same(
    workers.json.filter((h) => h.path.includes('#')).map((h) => h.title),
    ['Recorded session', 'Recorded session'],
    'on a worker thread too (its listing asked for there)',
  );
});

t.test('tx-ls DIR lists the export documents under it (and nothing else)', async (t) => {
  const r = run('tx-ls', ['--harness', 'opencode', repo('fixtures', 'recorded-opencode')], {});
  t.equal(r.status, 0, r.stderr);
  t.same(
    r.json.map((e) => e.path).sort(),
    recordedExports()
      .map((d) => d.file)
      .sort(),
    'each recorded document',
  );
  const sub = r.json.find((e) => e.title === 'Recorded session' && e.path.includes('/tools/'))!;
  t.equal(sub.id, JSON.parse(readFileSync(tools, 'utf8')).info.id, 'its id from its info');
  t.equal(sub.subagents, null, 'a document keeps no children');
});

t.test('every tool reads a session of the database by the name tx-ls gives it (DB#ID)', async (t) => {
  const s = store(t);
  if (!s) return t.pass(noSqlite);
  const env = { HOME: s.home };
  t.equal(run('tx-native', ['--harness', 'opencode', '--install', '--cwd', s.home], env, commonOf(tools)).status, 0);
  const [entry] = run('tx-ls', ['--harness', 'opencode'], env).json;
  const parsed = run('tx-parse', [entry.path], env);
  t.equal(parsed.status, 0, parsed.stderr);
  t.same(
    parsed.json.map((r) => [r.harness, r.kind, r.src === entry.path]),
    [['opencode', 'meta', true], ['opencode', 'prompt', true], ...Array(4).fill(['opencode', 'assistant', true])],
    'tx-parse: the session’s info and messages, named by their source',
  );
  const doc = JSON.parse(run('tx-native', [], env, parsed.stdout).stdout);
  t.equal(doc.info.id, entry.id, 'tx-native writes it back as the document opencode export prints');
  const stats = run('tx-stats', [entry.path], env);
  t.equal(stats.status, 0, stats.stderr);
  t.same([stats.json[0].session, stats.json[0].tool_calls.total], [entry.id, 3], 'tx-stats counts it');
  const missing = run('tx-parse', [`${s.db}#ses_nosuchsession`], env);
  t.equal(missing.status, 1, 'a session the database does not hold');
  t.match(missing.stderr, /cannot read: no session ses_nosuchsession in /, 'cannot be read, and says why');
  const all = run('tx-ls', ['--harness', 'all'], env);
  const paths = all.json.map((e) => e.path);
  const together = run('tx-stats', ['--jobs', '2', ...paths], env);
  t.equal(together.status, 0, together.stderr);
  t.ok(together.json.some((x) => x.harness === 'opencode'), 'tx-ls --harness all | xargs tx-stats reads it among the others');
});

t.test('with no SQLite on the machine, the database is skipped with a message, and nothing is installed', async (t) => {
  const s = store(t);
  if (!s) return t.pass(noSqlite);
  const hasNodeSqlite = (() => {
    try {
      return (process as any).getBuiltinModule?.('node:sqlite') !== undefined;
    } catch {
      return false;
    }
  })();
  if (hasNodeSqlite) return t.pass('this Node has node:sqlite: there is always a SQLite');
  // No sqlite3 command on the PATH (node itself is run by its full path).
  const env = { HOME: s.home, PATH: path.join(s.home, 'no-bin') };
  const r = spawnSync(process.execPath, [bin('tx-ls'), '--harness', 'opencode'], { env, encoding: 'utf8' });
  t.equal(r.status, 0, 'the listing goes on');
  t.equal(r.stdout, '', 'without the database’s sessions');
  t.match(r.stderr, `${s.db}: no SQLite on this machine (node:sqlite, Node 22.5 and later, or the sqlite3 command): its sessions are not listed`);
  const installed = spawnSync(process.execPath, [bin('tx-native'), '--harness', 'opencode', '--install', '--cwd', s.home], { env, input: commonOf(tools), encoding: 'utf8' });
  t.equal(installed.status, 1);
  t.match(installed.stderr, /no SQLite on this machine .*opencode import FILE/);
});
