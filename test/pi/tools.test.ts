// Every tool on pi session files, through the bins as a user runs them: tx-stats and
// tx-filter checked against counts a plain JSON.parse loop written here makes of every
// session file (recorded, hand-written, public), the cost of the public sessions against
// the cost pi itself recorded for each reply, tx-grep by role, tx-render, tx-redact and
// tx-parse --follow.
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { filterTool } from '../../lib/commands/filter.js';
import { parseTool } from '../../lib/commands/parse.js';
import { statsTool } from '../../lib/commands/stats.js';
import { pipeline, repo, ROOT, runBin, runTool } from '../helpers.js';
import { piFiles } from './lines.js';

/** The lines of a session file that are JSON objects. */
function objects(file: string): any[] {
  const out: any[] = [];
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    try {
      const v = JSON.parse(text);
      if (v && typeof v === 'object') out.push(v);
    } catch {
      // not JSON
    }
  }
  return out;
}

/** What a session file holds, counted here: every entry of every branch. */
function counted(file: string) {
  const messages = objects(file)
    .filter((l) => l.type === 'message')
    .map((l) => l.message);
  const replies = messages.filter((m) => m.role === 'assistant');
  const calls = replies.flatMap((m) => (Array.isArray(m.content) ? m.content : []).filter((b: any) => b.type === 'toolCall'));
  const firstText = (m: any) => (typeof m.content === 'string' ? m.content : (m.content ?? []).find((b: any) => b.type === 'text')?.text ?? '');
  return {
    replies: replies.length,
    // pi's own sum of a reply's four token counts (clients before about 0.10 wrote none: the four summed here).
    totalTokens: replies.reduce((a, m) => a + (m.usage?.totalTokens ?? ['input', 'output', 'cacheRead', 'cacheWrite'].reduce((s, k) => s + (m.usage?.[k] ?? 0), 0)), 0),
    clientCost: replies.reduce((a, m) => a + (m.usage?.cost?.total ?? 0), 0),
    calls: calls.length,
    bash: calls.filter((c: any) => c.name === 'bash').length,
    errors: messages.filter((m) => m.role === 'toolResult' && m.isError === true).length,
    typed: messages.filter((m) => m.role === 'user' && !firstText(m).startsWith('<skill name="')).length,
    thinking: replies.flatMap((m) => m.content ?? []).filter((b: any) => b.type === 'thinking').length,
    compactions: objects(file).filter((l) => l.type === 'compaction').length,
    modes: objects(file).filter((l) => l.type === 'model_change' || l.type === 'thinking_level_change').length,
  };
}

const files = piFiles();
const ndjson = (b: Buffer) =>
  b
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

t.test('tx-stats counts what every session file holds, and its tokens add up to pi\'s own totals', async (t) => {
  t.ok(files.length >= 18, `there are pi session files (${files.length})`);
  for (const file of files) {
    const want = counted(file);
    // In this process: the bins are the same tools (test/commands/ spawns them).
    const parsed = await runTool(parseTool, [file], []);
    const [s] = ndjson((await runTool(statsTool, ['--ndjson'], [parsed.stdout])).stdout);
    const name = path.basename(file);
    t.equal(s.harness, 'pi', `${name}: a pi summary`);
    t.equal(s.api_messages, want.replies, `${name}: one API message per reply`);
    const tk = s.tokens;
    t.equal(tk.input_tokens + tk.output_tokens + tk.cache_read_input_tokens + tk.cache_creation_input_tokens, want.totalTokens, `${name}: tokens equal the sum of pi's totalTokens`);
    t.same([s.tool_calls.total, s.tool_calls.by_name.bash ?? 0, s.tool_errors, s.human_turns.typed, s.compactions.total, s.mode_changes.model + s.mode_changes.thinking_level], [want.calls, want.bash, want.errors, want.typed, want.compactions, want.modes], `${name}: calls, errors, prompts, compactions, mode changes`);
    t.same(s.not_counted, ['subagents', 'hooks']);
  }
});

t.test('tx-stats --jobs 4 prints what --jobs 1 prints over every pi session file, and tx-filter too', async (t) => {
  for (const [tool, args] of [
    ['tx-stats', ['--ndjson']],
    ['tx-stats', ['--by', 'day', '--ndjson']],
    ['tx-filter', ['--kind', 'assistant']],
  ] as [string, string[]][]) {
    const one = await runBin(tool, ['--jobs', '1', ...args, ...files]);
    const many = await runBin(tool, ['--jobs', '4', ...args, ...files]);
    t.equal(one.status, 0, one.stderr);
    t.ok(one.stdout.length > 0, `${tool} ${args.join(' ')}: some output`);
    t.ok(many.stdout.equals(one.stdout), `${tool} ${args.join(' ')}: the same bytes with --jobs 4`);
  }
});

t.test('the public sessions cost, priced per reply from the price database, what pi recorded for each reply', async (t) => {
  for (const file of files.filter((f) => f.includes('public-pi'))) {
    const want = counted(file);
    const r = await pipeline(readFileSync(file), [
      ['tx-parse', []],
      ['tx-stats', ['--ndjson']],
    ]);
    const [s] = ndjson(r.stdout);
    t.ok(want.clientCost > 1, `${path.basename(file)}: a real cost ($${want.clientCost.toFixed(2)})`);
    t.ok(Math.abs(s.cost_usd - want.clientCost) < 1e-6, `${path.basename(file)}: cost_usd ${s.cost_usd} = pi's ${want.clientCost}`);
    t.ok(Math.abs(s.client_cost_usd - want.clientCost) < 1e-6, 'client_cost_usd is pi\'s own sum');
    t.same(s.coverage.unpriced_models, {}, 'every model priced');
  }
});

t.test('tx-stats --by: each reply once, in its day and by its model', async (t) => {
  const file = files.find((f) => f.endsWith('before-compaction.jsonl'))!;
  const want = counted(file);
  const r = await pipeline(readFileSync(file), [
    ['tx-parse', []],
    ['tx-stats', ['--by', 'model', '--ndjson']],
  ]);
  const buckets = ndjson(r.stdout);
  t.same(
    buckets.map((b) => b.model ?? b.key),
    ['claude-opus-4-5'],
  );
  t.equal(buckets[0].messages, want.replies);
  t.ok(Math.abs(buckets[0].cost_usd - want.clientCost) < 1e-6, 'the bucket costs what pi recorded');
});

t.test('a model a provider serves under its own id is priced as that provider prices it', async (t) => {
  const line = (provider: string) =>
    [
      { type: 'session', version: 3, id: 'p1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w' },
      { type: 'message', id: 'aaaa0001', parentId: null, timestamp: '2026-01-01T00:00:01.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'x' }], provider, model: 'anthropic/claude-sonnet-4', usage: { input: 1000, output: 1000, cacheRead: 0, cacheWrite: 0, totalTokens: 2000 }, stopReason: 'stop' } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n';
  const stats = async (provider: string) => ndjson((await pipeline(line(provider), [['tx-parse', []], ['tx-stats', ['--ndjson']]])).stdout)[0];
  const routed = await stats('openrouter');
  t.ok(routed.cost_usd > 0, `openrouter's anthropic/claude-sonnet-4 has a price ($${routed.cost_usd})`);
  t.same(routed.coverage.unpriced_models, {});
  const unknown = await stats('nowhere');
  t.same(unknown.coverage.unpriced_models, { 'anthropic/claude-sonnet-4': 1 }, 'the id alone is not in the database: unpriced, and said');
});

t.test('tx-filter answers each question as the counts say', async (t) => {
  for (const file of files) {
    const want = counted(file);
    const parsed = (await runTool(parseTool, [file], [])).stdout;
    const views = async (...args: string[]) => {
      const r = await runTool(filterTool, [...args, '--view'], [parsed]);
      return { views: ndjson(r.stdout), stderr: r.stderr };
    };
    const name = path.basename(file);
    t.equal((await views('--human-prompts')).views.length, want.typed, `${name}: prompts`);
    t.equal((await views('--tool-calls')).views.length, want.calls, `${name}: calls`);
    t.equal((await views('--tool-calls', '--name', 'bash')).views.length, want.bash, `${name}: bash calls`);
    t.equal((await views('--tool-results', '--errors')).views.length, want.errors, `${name}: failed results`);
    t.equal((await views('--reasoning')).views.length, want.thinking, `${name}: thinking blocks`);
    t.equal((await views('--compactions')).views.length, want.compactions, `${name}: compactions`);
    t.equal((await views('--modes')).views.length, want.modes, `${name}: model and thinking-level changes`);
    const usage = (await views('--usage')).views;
    t.equal(usage.length, want.replies, `${name}: one usage view per reply`);
    t.equal(
      usage.reduce((a, u) => a + u.input_tokens + u.output_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens, 0),
      want.totalTokens,
      `${name}: usage views add up`,
    );
  }
});

t.test('tx-filter: a skill a person invoked, questions pi has no notion of, and --grep', async (t) => {
  const lines = [
    { type: 'session', version: 3, id: 's1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w' },
    { type: 'message', id: 'aaaa0001', parentId: null, timestamp: '2026-01-01T00:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: '<skill name="review" location="/s/review/SKILL.md">\nReferences are relative to /s/review.\n\nRead it all.\n</skill>\n\nsrc/ please' }] } },
    { type: 'message', id: 'aaaa0002', parentId: 'aaaa0001', timestamp: '2026-01-01T00:00:02.000Z', message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'ls src' } }], provider: 'p', model: 'm', stopReason: 'toolUse' } },
    { type: 'message', id: 'aaaa0003', parentId: 'aaaa0002', timestamp: '2026-01-01T00:00:03.000Z', message: { role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [{ type: 'text', text: 'needle.ts' }], isError: false } },
  ];
  const parsed = (await runBin('tx-parse', [], lines.map((l) => JSON.stringify(l)).join('\n') + '\n')).stdout;
  const skills = ndjson((await runBin('tx-filter', ['--skills', '--view'], parsed)).stdout);
  t.same(
    skills.map((v) => [v.n, v.source, v.skill, v.location, v.args]),
    [[2, 'invoked', 'review', '/s/review/SKILL.md', 'src/ please']],
  );
  const stats = ndjson((await runBin('tx-stats', ['--ndjson'], parsed)).stdout)[0];
  t.same([stats.skills, stats.human_turns.typed, stats.kinds.command], [{ review: 1 }, 0, 1], 'a skill is a command, not a typed prompt');
  for (const flag of ['--subagents', '--hooks']) {
    const r = await runBin('tx-filter', [flag], parsed);
    t.equal(r.stdout.length, 0, `${flag}: nothing matches`);
    t.match(r.stderr, /pi/, `${flag}: said once on stderr`);
  }
  const grep = ndjson((await runBin('tx-filter', ['--grep', 'needle'], parsed)).stdout);
  t.same(
    grep.map((r) => r.n),
    [4],
    'a tool result\'s text is searched',
  );
  t.same(ndjson((await runBin('tx-filter', ['--grep', '^aaaa000'], parsed)).stdout), [], 'entry ids are not text');
});

t.test('tx-grep finds a session\'s texts by role, and names it from its header', async (t) => {
  const file = files.find((f) => f.includes('session-commands'))!;
  const grep = async (...args: string[]) => ndjson((await runBin('tx-grep', [...args, file])).stdout);
  const prompt = await grep('-F', 'Give a first answer');
  t.same(
    prompt.map((h) => [h.harness, h.role, h.title]),
    [['pi', 'user', 'Named by a person']],
  );
  t.equal(prompt[0].session, objects(file)[0].id);
  t.same(
    (await grep('-F', 'First answer.')).map((h) => h.role),
    ['assistant'],
  );
  t.same(await grep('-F', 'hi from a shell command', '--role', 'assistant'), [], 'a shell command is not the model\'s');
  t.same(
    (await grep('-F', 'hi from a shell command', '--role', 'user,tool')).map((h) => h.role),
    ['user', 'tool'],
    'the command as the user typed it, its output as the tool\'s',
  );
});

t.test('tx-render: a pi session as a page and as Markdown, with its prompts, replies and calls', async (t) => {
  const file = files.find((f) => f.includes('/tools/'))!;
  const texts = objects(file)
    .filter((l) => l.type === 'message' && l.message.role === 'user')
    .map((l) => l.message.content[0].text as string);
  for (const format of ['html', 'md']) {
    const r = await runBin('tx-render', ['--format', format, file]);
    t.equal(r.status, 0, r.stderr);
    const page = r.stdout.toString('utf8');
    for (const text of texts) t.ok(page.includes(text), `${format}: the prompt ${JSON.stringify(text)}`);
    t.ok(page.includes('bash'), `${format}: the bash calls`);
  }
});

t.test('tx-redact: a secret in a pi line is replaced; the line stays pi\'s, and the rest byte for byte', async (t) => {
  const file = files.find((f) => f.includes('/plain/'))!;
  const key = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
  const original = readFileSync(file, 'utf8');
  const lines = original.split('\n');
  const prompt = lines.findIndex((l) => l.includes('"role":"user"'));
  lines[prompt] = lines[prompt]!.replace(/"text":"[^"]*"/, `"text":"my token is ${key}"`);
  const r = await runBin('tx-redact', [], lines.join('\n'));
  t.equal(r.status, 0, r.stderr);
  const out = r.stdout.toString('utf8').split('\n');
  t.notOk(out[prompt]!.includes(key), 'the token is gone');
  t.match(out[prompt]!, /\[REDACTED:/);
  out.forEach((l, i) => {
    if (i !== prompt) t.equal(l, lines[i], `line ${i + 1} untouched`);
  });
  const parsed = ndjson((await runBin('tx-parse', [], out.join('\n'))).stdout);
  t.ok(
    parsed.every((rec) => rec.harness === 'pi'),
    'every line still pi\'s',
  );
});

t.test('tx-parse --follow reads a pi session as pi writes it, entry by entry', async (t) => {
  const source = files.find((f) => f.includes('/tools/'))!;
  const lines = readFileSync(source, 'utf8').split('\n').filter(Boolean);
  const dir = t.testdir({});
  const file = path.join(dir, 's.jsonl');
  writeFileSync(file, lines[0] + '\n');
  const child = spawn(process.execPath, [repo('build', 'bin', 'tx-parse.js'), '-f', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => out.push(d));
  const closed = new Promise((resolve) => child.on('close', resolve));
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  for (const line of lines.slice(1)) {
    await sleep(20);
    appendFileSync(file, line + '\n');
  }
  for (let i = 0; i < 400 && Buffer.concat(out).toString('utf8').split('\n').filter(Boolean).length < lines.length; i++) await sleep(50);
  child.kill('SIGINT');
  await closed;
  const followed = ndjson(Buffer.concat(out));
  const whole = ndjson((await runBin('tx-parse', [file])).stdout);
  t.same(
    followed.map((r) => [r.harness, r.n, r.kind]),
    whole.map((r) => [r.harness, r.n, r.kind]),
    'the same records as tx-parse of the whole file',
  );
  t.ok(
    followed.every((r) => r.harness === 'pi'),
    'every line pi\'s',
  );
});
