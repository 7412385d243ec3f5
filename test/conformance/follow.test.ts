// tx-parse --follow while the real Claude Code CLI writes a session in its interactive
// UI (tmux, mock API): records come out while the session runs, and once the CLI is
// gone the output is tx-parse of the file it wrote.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { conformanceSkip, runInteractive, startMockApi } from '../harness/index.js';
import { repo, runBin } from '../helpers.js';

const skip = conformanceSkip() || (spawnSync('tmux', ['-V']).status !== 0 ? 'tmux is not installed: the interactive UI runs in it' : false);
const SESSION = '00000000-0000-4000-8000-00000000f0f0';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('tx-parse -f SESSION follows the session the interactive CLI writes; after SIGINT (status 0) its output is tx-parse of the file', { skip }, async (t) => {
  const root = mkdtempSync(path.join(tmpdir(), 'tx-follow-cli-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const home = path.join(root, 'home');
  const cwd = path.join(root, 'work');
  const config = path.join(home, '.claude');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(config, { recursive: true });
  writeFileSync(path.join(config, 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash'] } }));
  const mock = await startMockApi({
    main: [
      { content: [{ type: 'text', text: 'Running it.' }, { type: 'tool_use', id: 'toolu_01FollowEcho000000000001', name: 'Bash', input: { command: 'echo followed', description: 'Echo a word' } }] },
      { content: [{ type: 'text', text: 'It printed followed.' }] },
      { content: [{ type: 'text', text: 'A second answer, streamed slowly, piece by piece. '.repeat(3) }], delayMs: 300 },
    ],
  });
  t.teardown(() => mock.close());

  // The session file appears with the first prompt; follow it by id from then on.
  const projects = path.join(config, 'projects');
  const sessionFile = () => {
    if (!existsSync(projects)) return null;
    for (const dir of readdirSync(projects)) {
      const f = path.join(projects, dir, `${SESSION}.jsonl`);
      if (existsSync(f)) return f;
    }
    return null;
  };
  let follow: ReturnType<typeof spawn> | null = null;
  const out: Buffer[] = [];
  let err = '';
  let toolCallWhileRunning = false;
  const watcher = (async () => {
    while (sessionFile() === null) await sleep(100);
    follow = spawn(process.execPath, [repo('build', 'bin', 'tx-parse.js'), '-f', SESSION], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CLAUDE_CONFIG_DIR: config, CODEX_HOME: path.join(home, '.codex') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    follow.stdout!.on('data', (d: Buffer) => out.push(d));
    follow.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    // The tool call's record must come out before the CLI asks for its last answer.
    while (mock.messagesRequests('main').length < 3) {
      if (Buffer.concat(out).includes('toolu_01FollowEcho000000000001')) toolCallWhileRunning = true;
      await sleep(50);
    }
  })();

  await runInteractive({
    home,
    cwd,
    baseUrl: mock.url,
    sessionId: SESSION,
    prompts: [{ text: 'Echo a word for me' }, { text: 'And answer once more', afterMainRequests: 2, waitMs: 1500 }],
    expectMainRequests: 3,
    mock,
  });
  await watcher;
  t.ok(toolCallWhileRunning, 'the tool call came out while the session was still running');
  await sleep(1500);
  const closed = new Promise<number | null>((resolve) => follow!.on('close', resolve));
  follow!.kill('SIGINT');
  t.equal(await closed, 0, 'SIGINT: status 0');
  const file = sessionFile()!;
  const plain = await runBin('tx-parse', [file]);
  const followed = Buffer.concat(out);
  t.ok(followed.length > 0, `${followed.toString().split('\n').filter(Boolean).length} records followed`);
  t.ok(followed.equals(plain.stdout), 'the same bytes as tx-parse of the file the CLI wrote');
  t.equal(err, '', 'nothing on stderr');
});
