// tx-grep: exact hits on named fixtures of both harnesses, the flags, JSON escapes in
// the bytes, a corpus sweep against a search that parses every line, and the same
// output for any --jobs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { detectHarness, loadAll } from '../../lib/codecs.js';
import { snippetOf } from '../../lib/commands/grep.js';
import { corpusFiles, repo, runBin } from '../helpers.js';

const FIX = repo('fixtures', 'grep');
const CLAUDE = join(FIX, 'claude', 'projects', '-home-dev-app', '00000000-0000-4000-8000-00000000e001.jsonl');
const CODEX = join(FIX, 'codex', 'sessions', '2026', '01', '02', 'rollout-2026-01-02T11-00-00-019c0000-0000-7000-8000-00000000e002.jsonl');

async function grep(args: string[], env?: NodeJS.ProcessEnv) {
  const r = await runBin('tx-grep', args, '', env);
  const hits = r.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  return { ...r, hits };
}

/** The [n, role, snippet] of each hit. */
const brief = (hits: any[]) => hits.map((h) => [h.n, h.role, h.snippet]);

t.test('exact hits in a Claude Code session: every field', async (t) => {
  const r = await grep(['-F', 'bug', CLAUDE]);
  t.equal(r.status, 0);
  t.same(r.hits, [
    { harness: 'claude-code', session: '00000000-0000-4000-8000-00000000e001', path: CLAUDE, n: 1, role: 'user', title: 'Fix the café bug', snippet: '…ease fix the "quoted" path C:\\temp\\new and the café — naïve ⟦bug⟧' },
    { harness: 'claude-code', session: '00000000-0000-4000-8000-00000000e001', path: CLAUDE, n: 5, role: 'assistant', title: 'Fix the café bug', snippet: 'Fixed the ⟦bug⟧.\nThe path is now C:\\temp\\new.' },
  ]);
});

t.test('exact hits in a Codex rollout: messages and reasoning once each (event lines repeat them), developer text left out', async (t) => {
  const r = await grep(['bug', CODEX]);
  t.same(r.hits.map((h) => [h.harness, h.session, h.title]), Array(3).fill(['codex', '019c0000-0000-7000-8000-00000000e002', null]));
  t.same(brief(r.hits), [
    [3, 'user', 'Find the Unicode ⟦bug⟧: naïve ≠ naive'],
    [5, 'assistant', '**Looking for the ⟦bug⟧** in the normaliser'],
    [8, 'assistant', 'The ⟦bug⟧ was in the normaliser; it now folds naïve to naive.'],
  ]);
  t.same(brief((await grep(['carefully', CODEX])).hits), [], 'the developer message is the harness, not a message');
});

t.test('roles: tool calls and their output only when asked', async (t) => {
  t.same(brief((await grep(['-F', 'café', CLAUDE])).hits).map((h) => h.slice(0, 2)), [[1, 'user'], [6, 'user']]);
  t.same(brief((await grep(['--role', 'tool', '-F', 'café', CLAUDE])).hits), [
    [3, 'tool', 'grep -rn ⟦café⟧ src/'],
    [4, 'tool', 'src/menu.txt:1:⟦café⟧ au lait\nsrc/menu.txt:2:bug here'],
  ]);
  t.same(brief((await grep(['--role', 'assistant', 'quoted', CLAUDE])).hits), [[2, 'assistant', 'The user wants the ⟦quoted⟧ path fixed']], 'thinking is assistant text');
  t.same((await grep(['--role', 'user,tool', 'naïve', CODEX])).hits.map((h) => [h.n, h.role]), [[3, 'user'], [6, 'tool'], [7, 'tool']]);
  t.same((await grep(['--role', 'user', '--role', 'assistant', 'naïve', CODEX])).hits.map((h) => h.n), [3, 8], 'repeated --role adds');
  const bad = await grep(['--role', 'system', 'x', CODEX]);
  t.equal(bad.status, 2);
  t.match(bad.stderr, /--role is user, assistant or tool/);
});

t.test('-i and -F, and a regular expression by default', async (t) => {
  t.same((await grep(['BUG', CLAUDE])).hits, [], 'case counts without -i');
  t.same((await grep(['-i', 'BUG', CLAUDE])).hits.map((h) => h.n), [1, 5]);
  t.same((await grep(['--ignore-case', 'FIXED THE', CLAUDE])).hits.map((h) => h.snippet), ['⟦Fixed the⟧ bug.\nThe path is now C:\\temp\\new.']);
  t.same((await grep(['fix(ed)? the', CLAUDE])).hits.map((h) => h.n), [1], 'a regular expression');
  t.same((await grep(['-F', 'fix(ed)? the', CLAUDE])).hits, [], '-F: the same text, as a plain string');
  t.same((await grep(['^Fixed', CLAUDE])).hits.map((h) => h.n), [5], 'anchors hold at the start of each text');
  t.same((await grep(['--regexp=-rn', '--role', 'tool', CLAUDE])).hits.map((h) => h.n), [3], '--regexp= for a pattern that starts with -');
  t.same((await grep(['--role', 'tool', '--', '-rn', CLAUDE])).hits.map((h) => h.n), [3], 'or -- before it');
  t.same((await grep(['-e', 'Fixed', CLAUDE])).hits.map((h) => h.n), [5], '-e PATTERN');
});

t.test('characters JSON escapes: quotes, backslashes, newlines, non-ASCII written raw or as \\u escapes', async (t) => {
  t.same((await grep(['-F', '"quoted"', CLAUDE])).hits.map((h) => h.snippet), ['Please fix the ⟦"quoted"⟧ path C:\\temp\\new and the café — naïve bug']);
  t.same((await grep(['-F', 'C:\\temp\\new', CLAUDE])).hits.map((h) => h.n), [1, 5], 'a backslash');
  t.same((await grep(['C:\\\\temp', CLAUDE])).hits.map((h) => h.n), [1, 5], 'an escaped backslash in a regular expression');
  t.same((await grep(['-F', 'bug.\nThe path', CLAUDE])).hits.map((h) => h.snippet), ['Fixed the ⟦bug.\nThe path⟧ is now C:\\temp\\new.'], 'a newline inside the text');
  t.same((await grep(['bug\\.\\nThe', CLAUDE])).hits.map((h) => h.n), [5], 'a newline as \\n in a regular expression');
  t.ok(readFileSync(CLAUDE, 'utf8').includes('caf\\u00e9 works'), 'line 6 spells é as \\u00e9');
  t.same((await grep(['-F', 'café works', CLAUDE])).hits.map((h) => h.n), [6], 'found through the \\u escape');
  t.same((await grep(['-i', 'CAFÉ WORKS', CLAUDE])).hits.map((h) => h.n), [6], 'and case-insensitively');
  t.same((await grep(['≠', CODEX])).hits.map((h) => h.n), [3]);
});

t.test('the snippet: 60 characters each side, cut at code points, long matches cut in the middle', async (t) => {
  const text = 'x'.repeat(100) + 'MATCH' + 'y'.repeat(100);
  t.equal(snippetOf(text, 100, 5), '…' + 'x'.repeat(60) + '⟦MATCH⟧' + 'y'.repeat(60) + '…');
  const emoji = '😀'.repeat(40) + 'M' + '😀'.repeat(40);
  const s = snippetOf(emoji, 80, 1);
  t.notOk(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s), 'no lone surrogate');
  const long = snippetOf('a' + 'L'.repeat(1000) + 'b', 1, 1000);
  t.equal(long, 'a⟦' + 'L'.repeat(100) + '…' + 'L'.repeat(100) + '⟧b');
});

t.test('the stores: both by default, from the environment or --config-dir / --codex-home; exit 1 without a hit', async (t) => {
  const env = { ...process.env, CLAUDE_CONFIG_DIR: join(FIX, 'claude'), CODEX_HOME: join(FIX, 'codex') };
  const r = await grep(['-F', 'naïve'], env);
  t.equal(r.status, 0);
  t.same(r.hits.map((h) => [h.harness, h.n]), [['codex', 3], ['codex', 8], ['claude-code', 1]]);
  const flags = await grep(['-F', 'naïve', '--config-dir', join(FIX, 'claude'), '--codex-home', join(FIX, 'codex')], { ...process.env, HOME: '/nonexistent', CLAUDE_CONFIG_DIR: '', CODEX_HOME: '' });
  t.same(flags.hits, r.hits, 'the flags name the same stores');
  const none = await grep(['-F', 'no such text anywhere'], env);
  t.equal(none.status, 1);
  t.equal(none.stdout.length, 0);
  const missing = await grep(['x', join(FIX, 'nope.jsonl')]);
  t.equal(missing.status, 2);
  t.match(missing.stderr, /nope\.jsonl: cannot read/);
  t.equal((await grep([])).status, 2, 'no pattern');
  t.equal((await grep(['(', CLAUDE])).status, 2, 'a broken regular expression');
  // Standard input is never searched: `-` among the files says so, rather than "no such file".
  const dash = await grep(['hello', CLAUDE, '-']);
  t.equal(dash.status, 2, '- is a usage error');
  t.match(dash.stderr, /- \(standard input\) is not searched/, 'which says that standard input is not searched');
  t.equal(dash.stdout.length, 0, 'and nothing is searched');
});

/** Every hit by parsing every line: what tx-grep must find, without its pre-filter. */
const WHOLE = new Map((await loadAll('codec')).map((c) => [c.harness, c]));

function oracle(files: string[], pattern: RegExp, roles: Set<string>): any[] {
  const hits: any[] = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((text, i) => {
      let line: any;
      try {
        line = JSON.parse(text.replace(/^\ufeff/, ''));
      } catch {
        return;
      }
      if (!line || typeof line !== 'object') return;
      const codec = WHOLE.get(detectHarness(line))!;
      for (const piece of codec.texts(line)) {
        if (!roles.has(piece.role)) continue;
        const m = pattern.exec(piece.text);
        if (m) hits.push([codec.harness, file, i + 1, piece.role, snippetOf(piece.text, m.index, m[0].length)]);
      }
    });
  }
  return hits;
}

t.test('corpus sweep: tx-grep finds exactly what a search that parses every line finds', async (t) => {
  const files = [...corpusFiles('claude-code'), ...corpusFiles('codex')];
  if (files.length === 0) {
    t.plan(0, 'no corpus beside this checkout');
    return;
  }
  const all = new Set(['user', 'assistant', 'tool']);
  const cases: [string[], RegExp, Set<string>][] = [
    [['-F', 'README'], /README/, new Set(['user', 'assistant'])],
    [['-i', 'error'], /error/i, all],
    [['fix(ed|es)? '], /fix(ed|es)? /, all],
    [['-F', '"'], /"/, all],
    [['-F', '\\'], /\\/, all],
    [['-F', '—'], /—/, all],
    [['-F', '\n\n'], /\n\n/, new Set(['assistant'])],
    [['-i', 'é'], /é/i, all],
    [['\\d{4}-\\d\\d'], /\d{4}-\d\d/, all],
    [['-i', 'readme|claude\\.md|TODO'], /readme|claude\.md|TODO/i, all],
    [['error|(a|b)c'], /error|(a|b)c/, new Set(['user'])],
  ];
  for (const [args, regex, roles] of cases) {
    const r = await grep([...args, '--role', [...roles].join(','), '--jobs', '1', ...files]);
    const want = oracle(files, regex, roles);
    t.same(r.hits.map((h) => [h.harness, h.path, h.n, h.role, h.snippet]), want, `${JSON.stringify(args)}: ${want.length} hits`);
    t.equal(r.status, want.length > 0 ? 0 : 1);
  }
});

t.test('--jobs 1 and --jobs 4 write the same bytes', async (t) => {
  const files = [...corpusFiles('claude-code'), ...corpusFiles('codex'), CLAUDE, CODEX];
  const one = await runBin('tx-grep', ['-i', '--role', 'user,assistant,tool', 'the', '--jobs', '1', ...files]);
  const four = await runBin('tx-grep', ['-i', '--role', 'user,assistant,tool', 'the', '--jobs', '4', ...files]);
  t.equal(one.status, 0);
  t.equal(four.status, 0);
  t.ok(one.stdout.length > 1000, `${one.stdout.length} bytes of hits`);
  t.ok(one.stdout.equals(four.stdout), 'the same output');
  const none = await runBin('tx-grep', ['no such text at all', '--jobs', '4', ...files]);
  t.equal(none.status, 1, 'no hit on workers: status 1');
});

t.test('a Codex rollout kept as .jsonl.zst is searched in its decompressed lines', async (t) => {
  const { spawnSync } = await import('node:child_process');
  if (spawnSync('zstd', ['--version']).status !== 0) {
    t.plan(0, 'zstd is not installed: the .zst rollout cannot be made');
    return;
  }
  const dir = t.testdir({ sessions: {} });
  const zst = join(dir, 'sessions', 'rollout-2026-01-02T11-00-00-019c0000-0000-7000-8000-00000000e002.jsonl.zst');
  t.equal(spawnSync('zstd', ['-q', CODEX, '-o', zst]).status, 0);
  const plain = await grep(['bug', CODEX]);
  const packed = await grep(['bug', '--codex-home', dir, '--config-dir', join(dir, 'none')]);
  t.same(packed.hits.map((h) => [h.path, h.session, h.n, h.snippet]), plain.hits.map((h) => [zst, h.session, h.n, h.snippet]));
});

t.test('a closed pipe ends it quietly with status 0, on one thread or several', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const files = [...corpusFiles('claude-code'), CLAUDE, CODEX];
  for (const jobs of ['1', '2']) {
    const r = spawnSync('bash', ['-o', 'pipefail', '-c', `node ${repo('build', 'bin', 'tx-grep.js')} -i --role user,assistant,tool e --jobs ${jobs} "$@" | head -1 >/dev/null`, 'sh', ...files], { encoding: 'utf8' });
    t.equal(r.status, 0, `--jobs ${jobs}: status 0`);
    t.equal(r.stderr, '', `--jobs ${jobs}: nothing on stderr`);
  }
});

t.test('a line longer than the long-line limit is not searched, and said on stderr with its place', async (t) => {
  const r = await grep(['--role', 'tool', '-F', 'café', CLAUDE], { ...process.env, TX_LONG_LINE: '400' });
  t.same(r.hits.map((h) => h.n), [4], 'line 4 (385 bytes) is searched; line 3 (492 bytes) is not');
  t.match(r.stderr, new RegExp(`${CLAUDE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: line longer than 400 bytes, not searched`));
});
