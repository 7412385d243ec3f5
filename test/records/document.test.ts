// A session kept as one JSON document (Gemini CLI before 0.39: `JSON.stringify(chat,
// null, 2)`, no final newline) is read as the lines of its harness, and written back byte
// for byte: its head (the members before `messages`), each message, its tail (the members
// after it). Other layouts JSON.stringify writes (four spaces, a tab, CR LF, a BOM, a
// final newline) read the same way; a document that is not exactly what JSON.stringify
// writes, or that no harness reads, or that is larger than the limit, is read as its lines.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { repo } from '../helpers.js';

const bin = (name: string) => repo('build', 'bin', `${name}.js`);

function run(name: string, args: string[], input?: Buffer | string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [bin(name), ...args], { input, maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

const chat = {
  sessionId: '11111111-2222-4333-8444-555555555555',
  projectHash: 'a'.repeat(64),
  startTime: '2025-06-01T10:00:00.000Z',
  lastUpdated: '2025-06-01T10:05:00.000Z',
  messages: [
    { id: 'm1', timestamp: '2025-06-01T10:00:01.000Z', type: 'user', content: 'Read a.txt, please: "quoted" and ünïcode' },
    {
      id: 'm2',
      timestamp: '2025-06-01T10:00:02.000Z',
      type: 'gemini',
      content: '',
      thoughts: [{ subject: 'Plan', description: 'read it', timestamp: '2025-06-01T10:00:02.000Z' }],
      tokens: { input: 100, output: 10, cached: 0, thoughts: 5, tool: 0, total: 115 },
      model: 'gemini-2.5-pro',
      toolCalls: [{ id: 'read_file-1-0', name: 'read_file', args: { absolute_path: '/p/a.txt' }, result: [{ functionResponse: { id: 'read_file-1-0', name: 'read_file', response: { output: 'hello\n' } } }], status: 'success', timestamp: '2025-06-01T10:00:02.500Z' }],
    },
    { id: 'm3', timestamp: '2025-06-01T10:00:03.000Z', type: 'gemini', content: 'It says hello.', tokens: { input: 130, output: 5, cached: 100, thoughts: 0, tool: 0, total: 135 }, model: 'gemini-2.5-pro' },
  ],
  kind: 'main',
  summary: 'Reading a file',
};

function scratch(t: any): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'txcript-doc-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const records = (out: Buffer) =>
  out
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

t.test('an older Gemini CLI chat is read as its metadata line, one line per message, and a $set of what follows the list', async (t) => {
  const dir = scratch(t);
  const file = path.join(dir, 'session-2025-06-01T10-00-11111111.json');
  const bytes = Buffer.from(JSON.stringify(chat, null, 2));
  writeFileSync(file, bytes);
  const parsed = run('tx-parse', [file]);
  t.equal(parsed.status, 0, parsed.stderr);
  t.equal(parsed.stderr, '', 'nothing to report');
  const recs = records(parsed.stdout);
  t.same(
    recs.map((r) => [r.n, r.kind, r.doc]),
    [
      [1, 'meta', 'head'],
      [7, 'prompt', 'item'],
      [13, 'assistant', 'item'],
      [57, 'assistant', 'item'],
      [72, 'title', 'tail'],
    ],
    'each piece numbered by the line it starts on, classified as the chat line it stands for',
  );
  t.same(recs[0].layout, { key: 'messages', indent: '  ', eol: '\n' }, 'the head names the layout');
  t.same(recs[0].line, { sessionId: chat.sessionId, projectHash: chat.projectHash, startTime: chat.startTime, lastUpdated: chat.lastUpdated }, 'the head is the metadata line');
  t.same(recs[4].line, { $set: { kind: 'main', summary: 'Reading a file' } }, 'the tail is a $set of the members after the list');
  t.equal(recs[4].eol, false, 'no newline ended the document');
  t.same(recs[2].line, chat.messages[1], 'an item is the message record');
  const back = run('tx-native', [], parsed.stdout);
  t.ok(back.stdout.equals(bytes), 'tx-parse | tx-native gives back its bytes');
  const common = records(run('tx-common', [], parsed.stdout).stdout);
  t.same(
    common.map((l) => [l.type, l.role ?? l.title]),
    [
      ['session', 'Reading a file'],
      ['message', 'user'],
      ['message', 'assistant'],
      ['message', 'user'],
      ['message', 'assistant'],
    ],
    'tx-common reads it as a chat: the prompt, the call and its result, the answer',
  );
  const stats = JSON.parse(run('tx-stats', ['--ndjson', file]).stdout.toString());
  t.same([stats.api_messages, stats.tool_calls.total, stats.human_turns.typed], [2, 1, 1], 'tx-stats reads the file named directly');
});

t.test('each layout JSON.stringify writes reads as pieces and comes back byte for byte', async (t) => {
  const dir = scratch(t);
  const layouts: [string, Buffer][] = [
    ['four spaces', Buffer.from(JSON.stringify(chat, null, 4))],
    ['a tab', Buffer.from(JSON.stringify(chat, null, '\t'))],
    ['CR LF and a final newline', Buffer.from(JSON.stringify(chat, null, 2).replace(/\n/g, '\r\n') + '\r\n')],
    ['a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(chat, null, 2) + '\n')])],
    ['no messages', Buffer.from(JSON.stringify({ ...chat, messages: [] }, null, 2))],
  ];
  for (const [name, bytes] of layouts) {
    const file = path.join(dir, 'chat.json');
    writeFileSync(file, bytes);
    const parsed = run('tx-parse', [file]);
    const recs = records(parsed.stdout);
    t.equal(recs[0].doc, 'head', `${name}: read as a document`);
    t.equal(recs.length, name === 'no messages' ? 2 : 5, `${name}: head, items, tail`);
    t.ok(run('tx-native', [], parsed.stdout).stdout.equals(bytes), `${name}: written back byte for byte`);
  }
});

t.test('a document that is not exactly JSON.stringify’s, or no harness’s, or too large, is read as its lines, and still comes back', async (t) => {
  const dir = scratch(t);
  const cases: [string, Buffer, NodeJS.ProcessEnv][] = [
    ['a hand-edited line', Buffer.from(JSON.stringify(chat, null, 2).replace('"kind": "main"', '"kind":  "main"')), {}],
    ['an escape JSON.stringify does not write', Buffer.from(JSON.stringify(chat, null, 2).replace('ünïcode', '\\u00fcn\\u00efcode')), {}],
    ['an object no harness keeps sessions in', Buffer.from(JSON.stringify({ name: 'x', messages: [1, 2] }, null, 2)), {}],
    ['larger than the limit (TX_LONG_LINE)', Buffer.from(JSON.stringify(chat, null, 2)), { TX_LONG_LINE: '200' }],
  ];
  for (const [name, bytes, env] of cases) {
    const file = path.join(dir, 'doc.json');
    writeFileSync(file, bytes);
    const parsed = run('tx-parse', [file], undefined, env);
    const recs = records(parsed.stdout);
    t.notOk(
      recs.some((r) => r.doc !== undefined),
      `${name}: no piece of a document`,
    );
    t.equal(recs[0].kind, 'invalid', `${name}: the first line is kept as it is`);
    t.ok(run('tx-native', [], parsed.stdout).stdout.equals(bytes), `${name}: written back byte for byte`);
  }
});

t.test('filtered pieces still make a JSON document; pieces without their head are chat lines', async (t) => {
  const dir = scratch(t);
  const file = path.join(dir, 'chat.json');
  writeFileSync(file, JSON.stringify(chat, null, 2));
  const parsed = run('tx-parse', [file]).stdout;
  const without = (args: string[]) => run('tx-native', [], run('tx-filter', args, parsed).stdout).stdout.toString('utf8');
  const noPrompt = JSON.parse(without(['--kind', 'prompt', '--invert']));
  t.same(
    noPrompt.messages.map((m: any) => m.id),
    ['m2', 'm3'],
    'an item dropped: the others join with commas where they stand',
  );
  t.equal(noPrompt.summary, 'Reading a file', 'the tail is kept');
  const noTail = JSON.parse(without(['--kind', 'title', '--invert']));
  t.same([noTail.messages.length, noTail.summary], [3, undefined], 'a document whose tail was dropped is closed');
  const noHead = without(['--kind', 'meta', '--invert']).split('\n').filter(Boolean);
  t.same(
    noHead.map((l) => JSON.parse(l).id ?? Object.keys(JSON.parse(l))[0]),
    ['m1', 'm2', 'm3', '$set'],
    'without its head, each piece is written as its line',
  );
});

t.test('tx-grep and tx-filter find the text of a document’s messages, at the lines they start on', async (t) => {
  const dir = scratch(t);
  const file = path.join(dir, 'session-2025-06-01T10-00-11111111.json');
  writeFileSync(file, JSON.stringify(chat, null, 2));
  const hits = records(run('tx-grep', ['-i', 'hello', file, '--role', 'assistant,tool']).stdout);
  t.same(
    hits.map((h) => [h.n, h.role, h.session, h.title]),
    [
      [13, 'tool', chat.sessionId, 'Reading a file'],
      [57, 'assistant', chat.sessionId, 'Reading a file'],
    ],
    'tx-grep: the result and the answer',
  );
  const calls = records(run('tx-filter', ['--tool-calls', '--view', file]).stdout);
  t.same(
    calls.map((c) => [c.n, c.name]),
    [[13, 'read_file']],
    'tx-filter --tool-calls',
  );
});

t.test('tx-redact between tx-parse and tx-native: the document comes back in its layout with the secret replaced', async (t) => {
  const dir = scratch(t);
  const file = path.join(dir, 'chat.json');
  // A made-up token of GitHub's shape, assembled here so that no scanner takes this file for a leak.
  const token = ['ghp', 'u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d'].join('_');
  const secret = { ...chat, messages: [{ ...chat.messages[0], content: `My token is ${token} thanks` }, ...chat.messages.slice(1)] };
  const bytes = JSON.stringify(secret, null, 2);
  writeFileSync(file, bytes);
  const redacted = run('tx-native', [], run('tx-redact', [], run('tx-parse', [file]).stdout).stdout).stdout.toString('utf8');
  t.equal(redacted, bytes.replace(token, '[REDACTED:github]'), 'byte for byte but the token');
});
