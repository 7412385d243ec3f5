// tx-ls on small stores built by each test: where the store is, what the walk
// skips, what it cannot read, titles, --current, --subagents, --plugins, and the
// tx-parse default when stdin is a terminal.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { projectSlug } from '../../lib/claude-code/slug.js';
import { lsTool } from '../../lib/commands/ls.js';
import { parseTool } from '../../lib/commands/parse.js';
import { assistantLine, line, runTool, userLine } from '../claude-code/store-helpers.js';

const ID = '11111111-1111-4111-8111-111111111111';

/** A session file with a prompt and an answer. */
function session(file: string, id = ID, prompt = 'hello'): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, userLine(id, prompt) + assistantLine(id, 'claude-test-1'));
}

t.test('the store is $CLAUDE_CONFIG_DIR/projects when that is set and non-empty', async (t) => {
  const dir = t.testdir({});
  session(path.join(dir, 'config', 'projects', '-w', `${ID}.jsonl`));
  session(path.join(dir, 'home', '.claude', 'projects', '-w', 'other.jsonl'), 'other');
  const r = await runTool(lsTool, [], { env: { CLAUDE_CONFIG_DIR: path.join(dir, 'config'), HOME: path.join(dir, 'home') } });
  t.equal(r.status, 0);
  t.same(
    r.json.map((e) => e.path),
    [path.join(dir, 'config', 'projects', '-w', `${ID}.jsonl`)],
  );
});

t.test('an empty or unset CLAUDE_CONFIG_DIR falls back to $HOME/.claude/projects', async (t) => {
  const dir = t.testdir({});
  const file = path.join(dir, 'home', '.claude', 'projects', '-w', `${ID}.jsonl`);
  session(file);
  for (const env of [{ CLAUDE_CONFIG_DIR: '', HOME: path.join(dir, 'home') }, { HOME: path.join(dir, 'home') }]) {
    const r = await runTool(lsTool, [], { env });
    t.same(
      r.json.map((e) => e.path),
      [file],
      `CLAUDE_CONFIG_DIR ${'CLAUDE_CONFIG_DIR' in env ? 'empty' : 'unset'}`,
    );
  }
});

t.test('--root overrides the environment', async (t) => {
  const dir = t.testdir({});
  session(path.join(dir, 'a', '-w', 'x.jsonl'), 'x');
  session(path.join(dir, 'config', 'projects', '-w', 'y.jsonl'), 'y');
  const r = await runTool(lsTool, ['--root', path.join(dir, 'a')], { env: { CLAUDE_CONFIG_DIR: path.join(dir, 'config') } });
  t.same(
    r.json.map((e) => e.id),
    ['x'],
  );
});

t.test('a missing root lists nothing and exits 0', async (t) => {
  const dir = t.testdir({});
  const r = await runTool(lsTool, [], { env: { HOME: path.join(dir, 'nobody') } });
  t.equal(r.status, 0);
  t.equal(r.stdout, '');
  t.equal(r.stderr, '');
});

t.test('a root or config dir the user names must be a directory: missing or a file is a named error, exit 1', async (t) => {
  const dir = t.testdir({ file: 'not a folder', config: { projects: { '-home-u': 'a file where a project should be' } } });
  const file = path.join(dir, 'file');
  const cases: [string[], string][] = [
    [['--root', '/nonexistent'], '--root /nonexistent: no such file or directory'],
    [['--root', file], `--root ${file}: not a directory`],
    [['--config', file], `--config ${file}: not a directory`],
    [['--config', '/nonexistent'], '--config /nonexistent: no such directory'],
    [['--current', '--root', '/nonexistent'], '--root /nonexistent: no such file or directory'],
    [['--subagents', 'abc', '--root', '/nonexistent'], '--root /nonexistent: no such file or directory'],
    [['--plugins', '--config', file], `--config ${file}: not a directory`],
    [['--harness', 'codex', '--root', '/nonexistent'], '--root /nonexistent: no such file or directory'],
    [['--harness', 'codex', '--config', file], `--config ${file}: not a directory`],
    [['/nonexistent'], '/nonexistent: no such file or directory'],
    [[path.join(dir, 'config'), file], `${file}: not a directory`],
  ];
  for (const [args, said] of cases) {
    const r = await runTool(lsTool, args, { env: { HOME: dir } });
    t.same([r.status, r.stdout, r.stderr], [1, '', `tx-ls: ${said}\n`], args.join(' '));
  }
  const viaEnv = await runTool(lsTool, [], { env: { CLAUDE_CONFIG_DIR: file } });
  t.same([viaEnv.status, viaEnv.stderr], [1, `tx-ls: ${file}: not a directory\n`], 'CLAUDE_CONFIG_DIR naming a file');
  const current = await runTool(lsTool, ['--current', '--cwd', '/home/u'], { env: { CLAUDE_CONFIG_DIR: path.join(dir, 'config') } });
  t.equal(current.status, 1);
  t.match(current.stderr, `tx-ls: ${path.join(dir, 'config', 'projects', '-home-u')}: not a directory, where the project directory should be\n`, 'a file where the project directory should be is named');
});

t.test('no HOME and no CLAUDE_CONFIG_DIR is an error that says so', async (t) => {
  const r = await runTool(lsTool, [], { env: {} });
  t.equal(r.status, 1);
  t.match(r.stderr, /neither CLAUDE_CONFIG_DIR nor HOME/);
});

t.test('the walk skips subagents/ and tool-results/ and lists the session beside them', async (t) => {
  const root = t.testdir({});
  const file = path.join(root, '-w', `${ID}.jsonl`);
  session(file);
  session(path.join(root, '-w', ID, 'subagents', 'agent-a1.jsonl'), ID);
  session(path.join(root, '-w', ID, 'tool-results', 'x.jsonl'), ID);
  session(path.join(root, '-w', ID, 'workflows', 'w.jsonl'), 'w');
  const r = await runTool(lsTool, ['--root', root, '--sort', 'path']);
  t.same(
    r.json.map((e) => path.relative(root, e.path)),
    [`-w/${ID}.jsonl`, `-w/${ID}/workflows/w.jsonl`],
  );
  t.equal(r.json.find((e) => e.id === ID).subagents, 1, 'the subagent is counted, not listed');
});

t.test('a symlinked directory loop is not followed; a symlinked file is listed', async (t) => {
  const root = t.testdir({});
  session(path.join(root, '-w', 'real.jsonl'), 'real');
  symlinkSync(root, path.join(root, '-w', 'loop'));
  symlinkSync(path.join(root, '-w'), path.join(root, 'alias'));
  symlinkSync(path.join(root, '-w', 'real.jsonl'), path.join(root, '-w', 'link.jsonl'));
  const r = await runTool(lsTool, ['--root', root, '--sort', 'path']);
  t.equal(r.status, 0);
  t.same(
    r.json.map((e) => path.relative(root, e.path)),
    ['-w/link.jsonl', '-w/real.jsonl'],
  );
});

t.test('files that cannot be read are skipped with a note on stderr, and --strict makes that exit 1', async (t) => {
  const root = t.testdir({});
  session(path.join(root, '-w', 'good.jsonl'), 'good');
  symlinkSync(path.join(root, 'nowhere.jsonl'), path.join(root, '-w', 'dangling.jsonl'));
  execFileSync('mkfifo', [path.join(root, '-w', 'fifo.jsonl')]);
  // Tests run as root, where permissions do not stop a read: /proc/self/mem opens but fails to read (EIO).
  const eio = existsSync('/proc/self/mem');
  if (eio) symlinkSync('/proc/self/mem', path.join(root, '-w', 'eio.jsonl'));
  const r = await runTool(lsTool, ['--root', root]);
  t.equal(r.status, 0, 'exit 0 without --strict');
  t.same(
    r.json.map((e) => e.id),
    ['good'],
  );
  t.match(r.stderr, /dangling\.jsonl: cannot read: no such file/);
  t.match(r.stderr, /fifo\.jsonl: cannot read: not a regular file/);
  if (eio) t.match(r.stderr, /eio\.jsonl: cannot read: EIO/);
  const strict = await runTool(lsTool, ['--root', root, '--strict']);
  t.equal(strict.status, 1, 'exit 1 under --strict');
});

t.test('a file without read permission is skipped with a note (only when not running as root)', { skip: process.getuid?.() === 0 ? 'running as root: permissions do not stop a read (the EIO case above covers a failing read)' : false }, async (t) => {
  const root = t.testdir({});
  session(path.join(root, '-w', 'locked.jsonl'), 'locked');
  execFileSync('chmod', ['000', path.join(root, '-w', 'locked.jsonl')]);
  const r = await runTool(lsTool, ['--root', root]);
  t.equal(r.stdout, '');
  t.match(r.stderr, /locked\.jsonl: cannot read: permission denied/);
});

t.test('an empty sessionId falls back to a later one, and with none to the file name', async (t) => {
  const root = t.testdir({});
  mkdirSync(path.join(root, '-w'));
  writeFileSync(path.join(root, '-w', 'stem-a.jsonl'), userLine('', 'hi') + assistantLine('', 'm'));
  writeFileSync(path.join(root, '-w', 'stem-b.jsonl'), userLine('', 'hi') + assistantLine('from-line-2', 'm'));
  writeFileSync(path.join(root, '-w', 'stem-c.jsonl'), line({ type: 'summary', summary: 's', leafUuid: 'u' }));
  const r = await runTool(lsTool, ['--root', root, '--sort', 'path']);
  t.same(
    r.json.map((e) => e.id),
    ['stem-a', 'from-line-2', 'stem-c'],
  );
});

t.test('title: custom-title beats agent-name beats the first summary; the last custom-title and agent-name win', async (t) => {
  const root = t.testdir({});
  mkdirSync(path.join(root, 'p'));
  const base = userLine(ID, 'hi') + assistantLine(ID, 'm');
  const summary = (s: string) => line({ type: 'summary', summary: s, leafUuid: 'u' });
  const custom = (s: string) => line({ type: 'custom-title', customTitle: s, sessionId: ID });
  const agent = (s: string) => line({ type: 'agent-name', agentName: s, sessionId: ID });
  const ai = (s: string) => line({ type: 'ai-title', aiTitle: s, sessionId: ID });
  const cases: [string, string, string | null, string | null][] = [
    ['none', base, null, null],
    ['summaries', summary('first') + summary('second') + base, 'first', null],
    ['agent', summary('s') + base + agent('old agent') + agent('agent'), 'agent', null],
    ['custom', summary('s') + base + custom('old custom') + agent('agent') + custom('custom') + agent('later agent'), 'custom', null],
    ['ai-only', base + ai('guess 1') + ai('guess 2'), null, 'guess 2'],
  ];
  for (const [name, text] of cases) writeFileSync(path.join(root, 'p', `${name}.jsonl`), text);
  for (const mode of [[], ['--deep']]) {
    const r = await runTool(lsTool, ['--root', root, ...mode]);
    const byName = new Map(r.json.map((e) => [path.basename(e.path, '.jsonl'), e]));
    for (const [name, , title, aiTitle] of cases) {
      t.equal(byName.get(name).title, title, `${name}${mode.length ? ' --deep' : ''}: title`);
      t.equal(byName.get(name).ai_title, aiTitle, `${name}${mode.length ? ' --deep' : ''}: ai_title`);
    }
  }
});

t.test('a custom-title anywhere counts, early or late in a large file, with or without --deep', async (t) => {
  const root = t.testdir({});
  mkdirSync(path.join(root, 'p'));
  const filler = userLine(ID, 'x'.repeat(1000)).repeat(400);
  const early = userLine(ID, 'hi') + assistantLine(ID, 'm') + line({ type: 'custom-title', customTitle: 'early', sessionId: ID }) + filler;
  const late = userLine(ID, 'hi') + assistantLine(ID, 'm') + filler + line({ type: 'custom-title', customTitle: 'late', sessionId: ID }) + filler.slice(0, 20000);
  writeFileSync(path.join(root, 'p', 'early.jsonl'), early);
  writeFileSync(path.join(root, 'p', 'late.jsonl'), late);
  const shallow = await runTool(lsTool, ['--root', root, '--sort', 'path']);
  t.same(
    shallow.json.map((e) => e.title),
    ['early', 'late'],
  );
  const deep = await runTool(lsTool, ['--root', root, '--sort', 'path', '--deep']);
  t.same(
    deep.json.map((e) => e.title),
    ['early', 'late'],
  );
});

t.test('--lines counts physical lines as tx-parse numbers them', async (t) => {
  const root = t.testdir({ p: { 'a.jsonl': userLine(ID, 'a') + 'not json\n\n' + assistantLine(ID, 'm').trimEnd(), 'empty.jsonl': '' } });
  const r = await runTool(lsTool, ['--root', root, '--lines', '--sort', 'path']);
  t.same(
    r.json.map((e) => e.lines),
    [4, 0],
  );
});

t.test('--sort mtime lists newest first', async (t) => {
  const root = t.testdir({});
  for (const [name, age] of [
    ['old', 300],
    ['new', 10],
    ['mid', 100],
  ] as const) {
    const f = path.join(root, 'p', `${name}.jsonl`);
    session(f, name);
    const when = Date.now() / 1000 - age;
    utimesSync(f, when, when);
  }
  const r = await runTool(lsTool, ['--root', root, '--sort', 'mtime']);
  t.same(
    r.json.map((e) => e.id),
    ['new', 'mid', 'old'],
  );
  const bad = await runTool(lsTool, ['--root', root, '--sort', 'size']);
  t.equal(bad.status, 2, 'an unknown sort key is a usage error');
});

t.test('--current picks the newest session of the cwd; one within --window is listed too with its first prompt', async (t) => {
  const dir = t.testdir({});
  const cwd = path.join(dir, 'my_proj.v2');
  const root = path.join(dir, 'config', 'projects');
  const now = Date.now() / 1000;
  const make = (name: string, prompt: string, age: number) => {
    const f = path.join(root, projectSlug(cwd), `${name}.jsonl`);
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, userLine(name, '<command-name>/clear</command-name>') + userLine(name, prompt) + assistantLine(name, 'm'));
    utimesSync(f, now - age, now - age);
  };
  make('newest', 'fix the parser', 60);
  make('close', 'write the docs', 60 + 180);
  make('old', 'start the project', 60 + 3600);
  // Another project's session, newer than all: never the current one.
  session(path.join(root, projectSlug(path.join(dir, 'other')), 'elsewhere.jsonl'), 'elsewhere');
  const env = { CLAUDE_CONFIG_DIR: path.join(dir, 'config') };
  const r = await runTool(lsTool, ['--current', '--cwd', cwd], { env });
  t.equal(r.status, 0);
  t.same(
    r.json.map((e) => [e.id, e.first_prompt]),
    [
      ['newest', 'fix the parser'],
      ['close', 'write the docs'],
    ],
  );
  t.match(r.stderr, /2 sessions were modified within 5 minutes/);
  const narrow = await runTool(lsTool, ['--current', '--cwd', cwd, '--window', '2'], { env });
  t.same(
    narrow.json.map((e) => e.id),
    ['newest'],
    '--window 2 leaves the 3-minute-older session out',
  );
  t.equal(narrow.stderr, '');
  const fromCwd = await runTool(lsTool, ['--current'], { env, cwd });
  t.equal(fromCwd.json[0].id, 'newest', 'without --cwd the process cwd is used');
  const none = await runTool(lsTool, ['--current', '--cwd', path.join(dir, 'nothing')], { env });
  t.equal(none.status, 1);
  t.match(none.stderr, /no session of/);
});

t.test('--current finds a project directory named by any of the three slug rules', async (t) => {
  const dir = t.testdir({});
  const cwd = '/home/a.b/c_d';
  for (const [i, slug] of ['-home-a-b-c-d', '-home-a-b-c_d', '-home-a.b-c_d'].entries()) {
    const root = path.join(dir, String(i));
    session(path.join(root, slug, 's.jsonl'), slug);
    const r = await runTool(lsTool, ['--current', '--cwd', cwd, '--root', root]);
    t.same(
      r.json.map((e) => e.id),
      [slug],
      slug,
    );
  }
});

t.test('--subagents lists each subagent with its .meta.json fields and the Agent call that spawned it', async (t) => {
  const root = t.testdir({});
  const parent = path.join(root, '-w', `${ID}.jsonl`);
  mkdirSync(path.join(root, '-w', ID, 'subagents'), { recursive: true });
  const agentCall = (id: string, description: string) =>
    line({ type: 'assistant', sessionId: ID, message: { role: 'assistant', model: 'm', content: [{ type: 'tool_use', id, name: 'Agent', input: { description, subagent_type: 'Explore', prompt: 'p'.repeat(400) } }] } });
  writeFileSync(parent, userLine(ID, 'go') + agentCall('toolu_A', 'first') + agentCall('toolu_B', 'second'));
  const sub = path.join(root, '-w', ID, 'subagents');
  writeFileSync(path.join(sub, 'agent-a1.jsonl'), userLine(ID, 'task', { isSidechain: true, agentId: 'a1', timestamp: '2026-01-02T00:00:00.000Z' }) + assistantLine(ID, 'claude-sub'));
  writeFileSync(path.join(sub, 'agent-a1.meta.json'), JSON.stringify({ agentType: 'Explore', description: 'first', toolUseId: 'toolu_A', spawnDepth: 1 }));
  writeFileSync(path.join(sub, 'agent-b2.jsonl'), userLine(ID, 'task'));
  writeFileSync(path.join(sub, 'agent-b2.meta.json'), JSON.stringify({ agentType: 'Explore', description: 'second', toolUseId: 'toolu_B', spawnDepth: 2, model: 'claude-meta' }));
  for (const name of [parent, ID, ID.slice(0, 8)]) {
    const r = await runTool(lsTool, ['--subagents', name, '--root', root]);
    t.equal(r.status, 0, `SESSION as ${name === parent ? 'a path' : name === ID ? 'an id' : 'an id prefix'}`);
    t.same(
      r.json.map((e) => [e.agent_id, e.agent_type, e.description, e.tool_use_id, e.spawn_depth, e.model, e.spawn?.description, e.spawn?.subagent_type, e.spawn?.prompt.length]),
      [
        ['a1', 'Explore', 'first', 'toolu_A', 1, 'claude-sub', 'first', 'Explore', 301],
        ['b2', 'Explore', 'second', 'toolu_B', 2, 'claude-meta', 'second', 'Explore', 301],
      ],
    );
    t.equal(r.json[0].started_at, '2026-01-02T00:00:00.000Z');
  }
  const missing = await runTool(lsTool, ['--subagents', 'nope', '--root', root]);
  t.equal(missing.status, 1);
  t.match(missing.stderr, /no session nope/);
});

t.test('--subagents of the session recorded from the real CLI matches its meta file and Agent call', async (t) => {
  const dir = path.join(new URL('../../..', import.meta.url).pathname, 'fixtures', 'recorded', 'subagent', 'projects');
  if (!existsSync(dir)) {
    t.comment('skipped: fixtures/recorded/subagent not recorded yet');
    return;
  }
  const r = await runTool(lsTool, ['--subagents', '00000000-0000-4000-8000-0000000000d1', '--root', dir]);
  t.equal(r.status, 0);
  t.equal(r.json.length, 1);
  const meta = JSON.parse(execFileSync('cat', [r.json[0].path.replace(/\.jsonl$/, '.meta.json')], { encoding: 'utf8' }));
  t.equal(r.json[0].tool_use_id, meta.toolUseId);
  t.equal(r.json[0].agent_type, meta.agentType);
  t.equal(r.json[0].spawn.name, 'Agent');
  t.equal(r.json[0].spawn.description, meta.description, 'the spawning call is the one the meta file names');
});

t.test('--plugins prints each installation of the registry, list (version 2) and object (version 1) forms', async (t) => {
  const dir = t.testdir({});
  const write = (v: unknown) => {
    mkdirSync(path.join(dir, 'plugins'), { recursive: true });
    writeFileSync(path.join(dir, 'plugins', 'installed_plugins.json'), JSON.stringify(v, null, 2));
  };
  const install = { installPath: '/c/plugins/cache/m/sp/1.0.0', version: '1.0.0', installedAt: '2026-01-01T00:00:00.000Z', lastUpdated: '2026-01-02T00:00:00.000Z', gitCommitSha: 'abc123', isLocal: false };
  write({ version: 2, plugins: { 'superpowers@market': [{ scope: 'user', ...install }, { scope: 'project', projectPath: '/p', ...install, version: '0.9.0' }] } });
  const env = { CLAUDE_CONFIG_DIR: dir };
  const v2 = await runTool(lsTool, ['--plugins'], { env });
  t.equal(v2.status, 0);
  t.same(v2.json, [
    { plugin: 'superpowers@market', name: 'superpowers', marketplace: 'market', scope: 'user', project_path: null, install_path: install.installPath, version: '1.0.0', installed_at: install.installedAt, last_updated: install.lastUpdated, git_commit_sha: 'abc123', is_local: false },
    { plugin: 'superpowers@market', name: 'superpowers', marketplace: 'market', scope: 'project', project_path: '/p', install_path: install.installPath, version: '0.9.0', installed_at: install.installedAt, last_updated: install.lastUpdated, git_commit_sha: 'abc123', is_local: false },
  ]);
  write({ version: 1, plugins: { 'a@m': install } });
  const v1 = await runTool(lsTool, ['--plugins', '--config', dir]);
  t.same(
    v1.json.map((p) => [p.plugin, p.version, p.scope]),
    [['a@m', '1.0.0', null]],
  );
  writeFileSync(path.join(dir, 'plugins', 'installed_plugins.json'), '{"version":2,"plugins":{"x@m":[');
  const broken = await runTool(lsTool, ['--plugins'], { env });
  t.equal(broken.status, 1);
  t.match(broken.stderr, /installed_plugins\.json: not a plugin registry/);
  const none = await runTool(lsTool, ['--plugins'], { env: { CLAUDE_CONFIG_DIR: path.join(dir, 'missing') } });
  t.same([none.status, none.stdout, none.stderr], [0, '', ''], 'no registry: nothing, exit 0');
});

t.test('tx-parse with no file and a terminal on stdin reads the current session and says so', async (t) => {
  const dir = t.testdir({});
  const cwd = path.join(dir, 'work');
  const file = path.join(dir, 'config', 'projects', projectSlug(cwd), `${ID}.jsonl`);
  session(file);
  const env = { CLAUDE_CONFIG_DIR: path.join(dir, 'config') };
  const r = await runTool(parseTool, [], { env, cwd, stdinTTY: true });
  t.equal(r.status, 0);
  t.equal(r.stderr, `tx-parse: reading the current session ${file} (stdin is a terminal)\n`);
  t.same(
    r.json.map((rec) => [rec.n, rec.kind, rec.src]),
    [
      [1, 'prompt', file],
      [2, 'assistant', file],
    ],
  );
  const none = await runTool(parseTool, [], { env, cwd: path.join(dir, 'elsewhere'), stdinTTY: true });
  t.equal(none.status, 2, 'no session there: a usage error');
  t.match(none.stderr, /stdin is a terminal and .* has no session/);
  const piped = await runTool(parseTool, [], { env, cwd });
  t.same([piped.status, piped.stdout, piped.stderr], [0, '', ''], 'stdin not a terminal: stdin is read as before');
});

t.test('progress goes to stderr only when it is a terminal and the scan is slow', async (t) => {
  const root = t.testdir({});
  session(path.join(root, 'p', 'a.jsonl'), 'a');
  const r = await runTool(lsTool, ['--root', root], { stderrTTY: true });
  t.equal(r.stderr, '', 'a fast scan shows no progress even on a terminal');
  for (let i = 0; i < 6; i++) session(path.join(root, 'p', `s${i}.jsonl`), `s${i}`);
  // A slow scan, by a clock that moves 400 ms each time it is read.
  const realNow = Date.now;
  let fake = realNow();
  Date.now = () => (fake += 400);
  try {
    const slow = await runTool(lsTool, ['--root', root], { stderrTTY: true });
    t.match(slow.stderr, /^\rtx-ls: \d+ sessions, [\d.]+ MB read/, 'a slow scan shows progress on a terminal');
    t.match(slow.stderr, /\r\x1b\[K$/, 'and clears it at the end');
    t.equal(slow.json.length, 7, 'the listing is complete');
    const piped = await runTool(lsTool, ['--root', root], { stderrTTY: false });
    t.equal(piped.stderr, '', 'a slow scan shows no progress when stderr is not a terminal');
  } finally {
    Date.now = realNow;
  }
});

t.test('the bin: a reader that stops early (head -1) ends tx-ls quietly with status 0', async (t) => {
  const root = t.testdir({});
  const text = userLine(ID, 'hi') + assistantLine(ID, 'm');
  for (let p = 0; p < 20; p++) {
    mkdirSync(path.join(root, `-p${p}`));
    for (let i = 0; i < 100; i++) writeFileSync(path.join(root, `-p${p}`, `s${i}.jsonl`), text);
  }
  const bin = new URL('../../bin/tx-ls.js', import.meta.url).pathname;
  const out = execFileSync('bash', ['-c', `node "${bin}" --root "${root}" 2>&1 | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
  t.equal(out, '0\n', 'exit status 0 and nothing on stderr');
  const help = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  t.match(help, /^usage: tx-ls/);
});

t.test('--harness all lists every store found, each entry naming its harness, and refuses what lists one store', async (t) => {
  const dir = t.testdir({});
  session(path.join(dir, 'claude', 'projects', '-w', `${ID}.jsonl`));
  const rollout = path.join(dir, 'codex', 'sessions', '2025', '09', '01', 'rollout-2025-09-01T08-00-00-22222222-2222-4222-8222-222222222222.jsonl');
  mkdirSync(path.dirname(rollout), { recursive: true });
  writeFileSync(rollout, JSON.stringify({ timestamp: '2025-09-01T08:00:00.000Z', type: 'session_meta', payload: { id: '22222222-2222-4222-8222-222222222222', cwd: '/w', timestamp: '2025-09-01T08:00:00.000Z' } }) + '\n');
  const env = { CLAUDE_CONFIG_DIR: path.join(dir, 'claude'), CODEX_HOME: path.join(dir, 'codex') };
  const r = await runTool(lsTool, ['--harness', 'all'], { env });
  t.equal(r.status, 0, r.stderr);
  t.same(r.json.map((e) => [e.harness, e.id]), [['claude-code', ID], ['codex', '22222222-2222-4222-8222-222222222222']], 'both stores, in harness order');
  const flagged = await runTool(lsTool, ['--harness', 'all', '--codex-home', path.join(dir, 'claude')], { env });
  t.same(flagged.json.map((e) => e.harness), ['claude-code'], "a store's own flag names its config dir");
  const unused = await runTool(lsTool, ['--harness', 'all'], { env: { HOME: path.join(dir, 'nobody') } });
  t.equal(unused.status, 0, 'stores never used list nothing');
  t.equal(unused.stdout.length, 0);
  for (const flag of ['--current', '--plugins', '--subagents']) {
    const refused = await runTool(lsTool, ['--harness', 'all', flag], { env });
    t.equal(refused.status, 2, flag);
    t.match(refused.stderr, `${flag} lists one store`);
  }
});
