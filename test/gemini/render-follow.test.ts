// tx-render and tx-parse --follow over Gemini CLI chat files: the page shows each call
// under its tool (a replace and a write_file as diffs), and a chat followed as it grows
// gives each line's record as the line arrives.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { publicGeminiChats } from '../harness/gemini/index.js';
import { repo } from '../helpers.js';
import { scenarioFiles } from './recorded.js';

const bin = (name: string) => repo('build', 'bin', `${name}.js`);

t.test('tx-render --format md: the prompt, each call under its tool, edits as diffs, the answer', async (t) => {
  const tools = spawnSync(process.execPath, [bin('tx-render'), '--format', 'md', ...scenarioFiles('tools')], { encoding: 'utf8' });
  t.equal(tools.status, 0, tools.stderr);
  t.match(tools.stdout, 'Read notes.txt and missing.txt, then run two commands.');
  t.equal((tools.stdout.match(/<b>read_file<\/b>/g) ?? []).length, 2, 'both reads');
  t.equal((tools.stdout.match(/<b>run_shell_command<\/b>/g) ?? []).length, 2, 'both commands');
  t.match(tools.stdout, 'One read worked and one failed; one command worked and one failed.');
  const chat = publicGeminiChats().find((c) => c.name.endsWith('gemini.jsonl'));
  if (!chat) return t.fail('the public chat with edits');
  const page = spawnSync(process.execPath, [bin('tx-render'), '--format', 'md', chat.file], { encoding: 'utf8', maxBuffer: 1 << 26 });
  t.match(page.stdout, /<b>replace<\/b> <code>GEMINI\.md<\/code><\/summary>\n\n```diff\n--- GEMINI\.md\n\+\+\+ GEMINI\.md\n@@ -1,1 \+1,1 @@/, 'a replace as a diff');
  t.match(page.stdout, /<b>write_file<\/b> <code>GEMINI\.md<\/code><\/summary>\n\n`+diff\n--- GEMINI\.md/, 'a write_file as a diff');
});

t.test('tx-parse -f: a chat followed as it grows gives each new line’s record', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'txcript-gemini-follow-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const lines = readFileSync(scenarioFiles('plain')[0]!, 'utf8').split('\n').filter(Boolean);
  const file = path.join(dir, 'session-2026-01-01T00-00-aaaaaaaa.jsonl');
  writeFileSync(file, lines.slice(0, 3).map((l) => l + '\n').join(''));
  const child = spawn(process.execPath, [bin('tx-parse'), '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  const until = async (n: number) => {
    for (let i = 0; i < 100 && out.split('\n').filter(Boolean).length < n; i++) await new Promise((r) => setTimeout(r, 100));
  };
  await until(3);
  appendFileSync(file, lines.slice(3).map((l) => l + '\n').join(''));
  await until(lines.length);
  child.kill('SIGINT');
  await new Promise((r) => child.once('close', r));
  const records = out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  t.same(
    records.map((r) => [r.n, r.harness]),
    lines.map((_, i) => [i + 1, 'gemini']),
    'every line, in order, as it was appended',
  );
  t.same(
    records.map((r) => r.kind),
    ['meta', 'meta', 'prompt', 'meta', 'assistant', 'meta'],
    'each classified',
  );
});
