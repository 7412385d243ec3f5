// Every tool on OpenCode sessions, through the bins: an `opencode export` document read
// through the one-document seam (tx-parse | tx-native gives back its bytes), tx-filter's
// questions, tx-stats' counts and tokens, tx-common | tx-native --harness opencode (a
// document `opencode import` takes), tx-grep, tx-render and tx-redact on the document.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { pipeline, runBin } from '../helpers.js';
import { recordedExports, recordedLines } from './build.js';

const docs = recordedExports();
/** The recorded document of a scenario (of the subagent scenario's two, the parent's: the last, by id). */
const file = (scenario: string) => docs.filter((d) => d.scenario === scenario).at(-1)!.file;
const json = (b: Buffer) =>
  b
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

t.test('tx-parse reads each recorded export as its info and messages, and tx-native writes back its bytes', async (t) => {
  t.ok(docs.length >= 13, 'the recorded documents');
  for (const { scenario, file: f } of docs) {
    const parsed = await runBin('tx-parse', [f]);
    t.equal(parsed.status, 0, parsed.stderr);
    const records = json(parsed.stdout);
    const lines = recordedLines(f);
    t.equal(records.length, lines.length, `${scenario}: one record per info or message (no tail: nothing follows the list)`);
    t.same(
      records.map((r) => [r.harness, r.doc]),
      lines.map((_, i) => ['opencode', i === 0 ? 'head' : 'item']),
      `${scenario}: every record OpenCode's, the info the head`,
    );
    t.same(
      records.map((r) => r.line),
      lines,
      `${scenario}: each record's line is the unit`,
    );
    const back = await runBin('tx-native', [], parsed.stdout);
    t.equal(back.status, 0, back.stderr);
    t.ok(back.stdout.equals(readFileSync(f)), `${scenario}: tx-parse | tx-native gives the file byte for byte`);
  }
});

t.test('a document with its first message dropped is still a document: the list closes itself', async (t) => {
  const f = file('tools');
  const r = await pipeline(readFileSync(f), [
    ['tx-parse', []],
    ['tx-filter', ['--kind', 'meta', '--kind', 'assistant']],
    ['tx-native', []],
  ]);
  t.equal(r.status, 0, r.stderrs.join(''));
  const doc = JSON.parse(r.stdout.toString('utf8'));
  const whole = JSON.parse(readFileSync(f, 'utf8'));
  t.same(doc.info, whole.info, 'the info');
  t.same(
    doc.messages,
    whole.messages.filter((m: any) => m.info.role === 'assistant'),
    'only the assistant messages',
  );
  t.equal(r.stdout.toString('utf8'), JSON.stringify(doc, null, 2) + '\n', 'in the client’s layout');
});

t.test('tx-filter answers each question from the parts, and says hooks are not recorded', async (t) => {
  const f = file('tools');
  const whole = JSON.parse(readFileSync(f, 'utf8'));
  const tools = whole.messages.flatMap((m: any) => m.parts.filter((p: any) => p.type === 'tool'));
  const r = await pipeline(readFileSync(f), [
    ['tx-parse', []],
    ['tx-filter', ['--view', '--tool-calls', '--tool-results', '--human-prompts', '--hooks']],
  ]);
  t.equal(r.status, 0);
  t.match(r.stderrs[1], /--hooks does not apply to opencode sessions/, 'hooks: a note, no views');
  const views = json(r.stdout);
  t.same(
    views.filter((v) => v.question === 'tool-calls').map((v) => [v.id, v.name, v.status]),
    tools.map((p: any) => [p.callID, p.tool, p.state.status]),
    'one call per tool part, in order',
  );
  const results = views.filter((v) => v.question === 'tool-results');
  t.same(
    results.map((v) => [v.tool_use_id, v.is_error, v.exit_code]),
    tools.map((p: any) => [p.callID, p.state.status === 'error' || (p.state.metadata?.exit ?? 0) !== 0, p.state.metadata?.exit ?? null]),
    'results: a failed command (exit ≠ 0, state completed) and a tool error are errors',
  );
  t.equal(results[2].content, tools[2].state.error, 'an error result’s content is its error text');
  const prompts = views.filter((v) => v.question === 'human-prompts');
  t.same(
    prompts.map((v) => v.text),
    [whole.messages[0].parts[0].text],
    'the typed prompt',
  );
  const errors = await pipeline(readFileSync(f), [
    ['tx-parse', []],
    ['tx-filter', ['--view', '--tool-results', '--errors']],
  ]);
  t.equal(json(errors.stdout).length, 2, '--errors: the two failures');
  const named = await pipeline(readFileSync(f), [
    ['tx-parse', []],
    ['tx-filter', ['--view', '--tool-calls', '--name', 'read']],
  ]);
  t.same(
    json(named.stdout).map((v) => v.name),
    ['read'],
    '--name picks the tool',
  );
});

t.test('tx-filter: reasoning, compactions, subagents, usage per API step, and the agent as the mode', async (t) => {
  const view = async (scenario: string, flag: string) => json((await pipeline(readFileSync(file(scenario)), [['tx-parse', []], ['tx-filter', ['--view', flag]]])).stdout);
  const plain = JSON.parse(readFileSync(file('plain'), 'utf8'));
  const thought = plain.messages[1].parts.find((p: any) => p.type === 'reasoning').text;
  t.same(
    (await view('plain', '--reasoning')).map((v) => v.text),
    [thought],
    'the reasoning part',
  );
  const compactions = await view('compaction', '--compactions');
  t.same(
    compactions.map((v) => v.subtype),
    ['compaction', 'summary'],
    'the compaction asked for, then its summary',
  );
  t.ok(compactions[1].summary.length > 0, 'with the summary’s text');
  const sub = await view('subagent', '--subagents');
  t.equal(sub.length, 1, 'the task call');
  t.equal(sub[0].subagent_type, 'general');
  const usage = await view('tools', '--usage');
  const whole = JSON.parse(readFileSync(file('tools'), 'utf8'));
  const steps = whole.messages.flatMap((m: any) => m.parts.filter((p: any) => p.type === 'step-finish'));
  t.same(
    usage.map((v) => [v.input_tokens, v.output_tokens, v.cache_read_input_tokens]),
    steps.map((p: any) => [p.tokens.input, p.tokens.output + p.tokens.reasoning, p.tokens.cache.read]),
    'one view per step-finish, its tokens',
  );
  t.same(
    (await view('tools', '--modes')).map((v) => [v.value, v.previous]),
    [['build', null]],
    'the agent, once (it does not change)',
  );
});

t.test('tx-stats counts an OpenCode session: tool calls, errors, API steps and tokens from the step-finish parts', async (t) => {
  const f = file('cached-usage');
  const r = await pipeline(readFileSync(f), [
    ['tx-parse', []],
    ['tx-stats', []],
  ]);
  t.equal(r.status, 0, r.stderrs.join(''));
  const [s] = json(r.stdout);
  const whole = JSON.parse(readFileSync(f, 'utf8'));
  const steps = whole.messages.flatMap((m: any) => m.parts.filter((p: any) => p.type === 'step-finish'));
  const sum = (pick: (p: any) => number) => steps.reduce((a: number, p: any) => a + pick(p), 0);
  t.equal(s.harness, 'opencode');
  t.equal(s.session, whole.info.id);
  t.equal(s.api_messages, steps.length, 'one API message per step');
  t.same(
    [s.tokens.input_tokens, s.tokens.cache_read_input_tokens, s.tokens.cache_creation_input_tokens],
    [sum((p) => p.tokens.input), sum((p) => p.tokens.cache.read), sum((p) => p.tokens.cache.write)],
    'input (already without cache), cache reads and writes as the client stored them',
  );
  t.same([s.tokens.input_tokens, s.tokens.cache_read_input_tokens, s.tokens.cache_creation_input_tokens], [20, 100, 50], 'the scripted usage of the recording');
  t.same(s.not_counted, ['hooks']);
  const tools = json((await pipeline(readFileSync(file('tools')), [['tx-parse', []], ['tx-stats', []]])).stdout)[0];
  t.same(tools.tool_calls, { total: 3, by_name: { bash: 2, read: 1 } }, 'tool calls by name');
  t.equal(tools.tool_errors, 2, 'the failed command and the missing file');
  t.same(tools.human_turns.typed, 1);
});

t.test('tx-common | tx-native --harness opencode writes the export document, which reads back and round-trips', async (t) => {
  for (const scenario of ['tools', 'parallel', 'compaction']) {
    const r = await pipeline(readFileSync(file(scenario)), [
      ['tx-parse', []],
      ['tx-common', []],
      ['tx-native', ['--harness', 'opencode', '--session-id', '00000000-0000-4000-8000-00000000c0de']],
    ]);
    t.equal(r.status, 0, r.stderrs.join(''));
    const text = r.stdout.toString('utf8');
    const doc = JSON.parse(text);
    t.equal(text, JSON.stringify(doc, null, 2) + '\n', `${scenario}: one document, in the client’s layout (what opencode import reads)`);
    t.match(doc.info.id, /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/, `${scenario}: a session id of the client’s shape`);
    t.ok(
      doc.messages.every((m: any) => m.info.sessionID === doc.info.id && m.parts.every((p: any) => p.sessionID === doc.info.id && p.messageID === m.info.id)),
      `${scenario}: every message and part names it`,
    );
    const again = await pipeline(r.stdout, [
      ['tx-parse', []],
      ['tx-native', []],
    ]);
    t.ok(again.stdout.equals(r.stdout), `${scenario}: tx-parse | tx-native gives it back byte for byte`);
    const common1 = await pipeline(readFileSync(file(scenario)), [
      ['tx-parse', []],
      ['tx-common', []],
    ]);
    const common2 = await pipeline(r.stdout, [
      ['tx-parse', []],
      ['tx-common', []],
    ]);
    const texts = (b: Buffer) =>
      json(b)
        .filter((l) => l.type === 'message')
        .map((m) => [m.role, m.content.map((c: any) => c.type + ':' + (c.text ?? c.id ?? c.tool_use_id ?? ''))]);
    t.same(texts(common2.stdout), texts(common1.stdout), `${scenario}: the same conversation in Common`);
  }
  const same = await Promise.all(
    [0, 1].map(() =>
      pipeline(readFileSync(file('tools')), [
        ['tx-parse', []],
        ['tx-common', []],
        ['tx-native', ['--harness', 'opencode', '--session-id', '00000000-0000-4000-8000-00000000c0de']],
      ]),
    ),
  );
  t.ok(same[0].stdout.equals(same[1].stdout), 'deterministic: the same UUID, the same document');
});

t.test('tx-grep finds text in an export document by role, at the line its message starts on', async (t) => {
  const f = file('tools');
  const r = await runBin('tx-grep', ['--role', 'tool', 'hello from bash', f]);
  t.equal(r.status, 0, r.stderr);
  const hits = json(r.stdout);
  t.same(
    hits.map((h) => [h.harness, h.role, h.n]),
    [
      ['opencode', 'tool', 81],
      ['opencode', 'tool', 81],
    ],
    'the command and its output, in the message that starts on line 81',
  );
  t.equal(hits[0].session, JSON.parse(readFileSync(f, 'utf8')).info.id);
  t.equal((await runBin('tx-grep', ['hello from bash', f])).status, 1, 'not in user or assistant text');
});

t.test('tx-render shows the calls and results of an OpenCode session', async (t) => {
  const r = await pipeline(readFileSync(file('tools')), [
    ['tx-parse', []],
    ['tx-render', ['--format', 'md']],
  ]);
  t.equal(r.status, 0, r.stderrs.join(''));
  const md = r.stdout.toString('utf8');
  t.match(md, /Run a command, list a missing folder/, 'the prompt');
  t.match(md, /echo hello from bash/, 'the call');
  t.match(md, /File not found/, 'the failed result');
});

t.test('tx-redact between tx-parse and tx-native keeps the document and its layout, the secret replaced', async (t) => {
  const whole = JSON.parse(readFileSync(file('plain'), 'utf8'));
  const secret = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
  whole.messages[0].parts[0].text = `my token is ${secret}`;
  const doc = JSON.stringify(whole, null, 2) + '\n';
  const r = await pipeline(doc, [
    ['tx-parse', []],
    ['tx-redact', []],
    ['tx-native', []],
  ]);
  t.equal(r.status, 0, r.stderrs.join(''));
  const out = r.stdout.toString('utf8');
  t.notMatch(out, secret, 'the secret is gone');
  const back = JSON.parse(out);
  t.match(back.messages[0].parts[0].text, /\[REDACTED:/, 'replaced by its marker');
  t.equal(out, JSON.stringify(back, null, 2) + '\n', 'still one document in the client’s layout');
  t.same(back.messages.slice(1), whole.messages.slice(1), 'the rest unchanged');
});

t.test('a document in another indent is read as pieces; one not exactly JSON.stringify’s as its lines; both come back byte for byte', async (t) => {
  const text = readFileSync(file('plain'), 'utf8');
  for (const [name, doc, pieces] of [
    ['indented by four', JSON.stringify(JSON.parse(text), null, 4) + '\n', true],
    ['without its final newline', text.slice(0, -1), false],
    ['with a space JSON.stringify does not write', text.replace('"title": ', '"title":  '), false],
  ] as const) {
    const parsed = await runBin('tx-parse', [], doc);
    const records = json(parsed.stdout);
    if (pieces) t.same(records.map((r) => r.doc), ['head', 'item', 'item'], `${name}: its info and messages`);
    else t.equal(records.length, doc.split('\n').length - (doc.endsWith('\n') ? 1 : 0), `${name}: one record per physical line`);
    const back = await runBin('tx-native', [], parsed.stdout);
    t.equal(back.stdout.toString('utf8'), doc, `${name}: the same bytes`);
  }
});
