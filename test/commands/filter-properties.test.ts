// Properties of tx-filter over the whole corpus: with no flag it passes every record
// byte for byte (tx-native rebuilds each file); a question and its --invert split the
// records between them; records of kinds a question cannot match are never parsed;
// --usage views and tx-stats agree on tokens.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'claude-code');
const bin = (name: string) => join(ROOT, 'build', 'bin', `${name}.js`);
const run = (name: string, args: string[], input?: Buffer | string) => spawnSync(process.execPath, [bin(name), ...args], { input, maxBuffer: 1 << 30 });
const QUESTIONS = ['human-prompts', 'tool-calls', 'tool-results', 'skills', 'subagents', 'hooks', 'compactions', 'usage', 'modes'];
const files = existsSync(CORPUS) ? readdirSync(CORPUS).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(CORPUS, f)) : [];
const noCorpus = files.length === 0 ? `no corpus at ${CORPUS}` : false;

t.test('with no flag every record passes unchanged: tx-parse | tx-filter | tx-native rebuilds every corpus file', { skip: noCorpus }, async (t) => {
  for (const f of files) {
    const records = run('tx-parse', [f]).stdout;
    const filtered = run('tx-filter', [], records);
    t.ok(filtered.stdout.equals(records), `${f.slice(f.lastIndexOf('/') + 1)}: records unchanged`);
    t.ok(run('tx-native', [], filtered.stdout).stdout.equals(readFileSync(f)), `${f.slice(f.lastIndexOf('/') + 1)}: the native file rebuilt`);
  }
});

t.test('each question and its --invert split the corpus records between them, in order', { skip: noCorpus }, async (t) => {
  const records = run('tx-parse', files).stdout;
  const all = records.toString('utf8').split('\n').filter((l) => l !== '');
  for (const q of QUESTIONS) {
    const yes = run('tx-filter', [`--${q}`], records).stdout.toString('utf8').split('\n').filter((l) => l !== '');
    const no = run('tx-filter', [`--${q}`, '--invert'], records).stdout.toString('utf8').split('\n').filter((l) => l !== '');
    t.equal(yes.length + no.length, all.length, `--${q}: ${yes.length} + ${no.length} records`);
    const yesSet = new Set(yes);
    let i = 0;
    let j = 0;
    const merged = all.map((r) => (yesSet.has(r) ? yes[i++] : no[j++]));
    t.same(merged, all, `--${q}: the two outputs interleave back into the input`);
    if (q !== 'modes' && q !== 'compactions' && q !== 'skills') t.ok(yes.length > 0, `--${q} finds something in the corpus`);
  }
});

t.test('records of kinds a question cannot match are not parsed', async (t) => {
  // A meta record whose line is not JSON: only a parse would notice.
  const broken = '{"harness":"claude-code","n":1,"kind":"meta","line":{not json}}\n';
  const prompt = '{"harness":"claude-code","n":2,"kind":"prompt","line":{"type":"user","message":{"role":"user","content":"hi"}}}\n';
  const skipped = run('tx-filter', ['--human-prompts'], broken + prompt);
  t.equal(skipped.stderr.toString(), '', 'no parse, no complaint');
  t.equal(skipped.stdout.toString(), prompt, 'the prompt record passes');
  const parsed = run('tx-filter', ['--type', 'user'], broken + prompt);
  t.match(parsed.stderr.toString(), /^tx-filter: stdin:1: the record's line is not JSON/, '--type must parse, and says so');
  t.equal(parsed.stdout.toString(), prompt);
});

t.test('--usage views and tx-stats count the same tokens over the corpus', { skip: noCorpus }, async (t) => {
  const records = run('tx-parse', files).stdout;
  const views = run('tx-filter', ['--usage', '--view'], records).stdout.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  const stats = run('tx-stats', [], records).stdout.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  for (const f of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens']) {
    t.equal(
      views.reduce((a, v) => a + v[f], 0),
      stats.reduce((a, s) => a + s.tokens[f], 0),
      f,
    );
  }
  t.equal(views.length, stats.reduce((a, s) => a + s.api_messages, 0), 'one view per API message');
});

t.test('a reader that goes away early ends tx-filter quietly with status 0', { skip: noCorpus }, async (t) => {
  const node = process.execPath;
  const script = `"${node}" "${bin('tx-parse')}" "$@" 2>/dev/null | "${node}" "${bin('tx-filter')}" --tool-calls --view 2>"$ERRFILE" | head -1 >/dev/null; echo "\${PIPESTATUS[1]}"`;
  const errFile = join(mkdtempSync(join(tmpdir(), 'tx-filter-epipe-')), 'stderr');
  const r = spawnSync('bash', ['-c', script, 'bash', ...files], { encoding: 'utf8', env: { ...process.env, ERRFILE: errFile } });
  t.equal(r.stdout.trim(), '0', 'exit status 0');
  t.equal(readFileSync(errFile, 'utf8'), '', 'nothing on stderr');
});

t.test('a record whose kind does not fit its line (written by another program) neither stops tx-filter nor tx-stats', async (t) => {
  const kinds = ['prompt', 'queued-prompt', 'assistant', 'tool-result', 'hook', 'progress', 'compact', 'meta'];
  const odd = kinds.flatMap((kind, i) => ['null', '[1]', '"text"', '{}'].map((line, j) => `{"harness":"claude-code","n":${i * 4 + j + 1},"kind":"${kind}","line":${line}}\n`)).join('');
  for (const q of QUESTIONS) {
    for (const mode of [[], ['--view']]) {
      const r = run('tx-filter', [`--${q}`, ...mode], odd);
      t.equal(r.status, 0, `--${q} ${mode.join(' ')}: exit 0`);
      t.equal(r.stderr.toString(), '', `--${q} ${mode.join(' ')}: no complaint`);
    }
  }
  const stats = run('tx-stats', [], odd);
  t.equal(stats.status, 0, 'tx-stats: exit 0');
  t.equal(stats.stderr.toString(), '', 'tx-stats: no complaint');
});
