// tx-common leaves unparsed the records of kinds its Claude Code conversion never reads
// (progress, session bookkeeping, hooks, attachments other than a queued prompt), and
// reads every line under --active, where each line with a uuid is a link of the chain.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { classifyClaudeLine } from '../../lib/claude-code/classify.js';
import { ClaudeToCommon, UNREAD_KINDS } from '../../lib/claude-code/to-common.js';
import { corpusFiles, runBin } from '../helpers.js';

/** The messages and facts a conversion of `lines` gives. */
function converted(lines: unknown[], sidechains: boolean): string {
  const out: string[] = [];
  const conv = new ClaudeToCommon({ sidechains, emit: (m, uuids) => out.push(JSON.stringify([m, uuids])) });
  lines.forEach((line, i) => conv.push(line, i + 1));
  conv.finish();
  return JSON.stringify([out, conv.facts]);
}

const base = { sessionId: 's1', timestamp: '2025-01-01T00:00:00Z', cwd: '/p', version: '2.1.0' };
// Lines that carry conversation-like fields, so that a kind wrongly called unread would
// change the conversion: a local command's caveat (kind system), a queued prompt
// (queued-prompt), a hook attachment and a progress line with prompts in them.
const made = [
  { ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'first' } },
  { ...base, type: 'system', subtype: 'local_command', uuid: 'c1', parentUuid: 'u1', content: '<local-command-caveat>Caveat: said by the user</local-command-caveat>' },
  { ...base, type: 'attachment', uuid: 'q1', parentUuid: 'c1', attachment: { type: 'queued_command', prompt: 'typed while busy' } },
  { ...base, type: 'attachment', uuid: 'h1', parentUuid: 'q1', attachment: { type: 'hook_success', prompt: 'not a prompt', content: 'x' } },
  { ...base, type: 'attachment', uuid: 'q2', parentUuid: 'h1', attachment: { type: 'queued_command', prompt: 'from a tool', origin: { kind: 'task-notification' } } },
  { ...base, type: 'progress', uuid: 'p1', parentUuid: 'q2', message: { role: 'user', content: 'not a prompt either' }, data: { type: 'hook_progress' } },
  { ...base, type: 'system', subtype: 'stop_hook_summary', uuid: 's2', parentUuid: 'p1', content: 'hooks ran' },
  { ...base, type: 'file-history-snapshot', messageId: 'u1', snapshot: { trackedFileBackups: {} }, summary: 'not a title' },
  { ...base, type: 'user', uuid: 'u2', parentUuid: 's2', message: { role: 'user', content: 'second' } },
  { type: 'summary', summary: 'the title', leafUuid: 'u2' },
];
// A caveat writes no message, but as a transcript's first conversational line it says
// whether the file is a subagent's (isSidechain): lines of kind system are read.
const opening = [
  { ...base, type: 'system', subtype: 'local_command', uuid: 'c0', parentUuid: null, isSidechain: true, content: '<local-command-caveat>Caveat</local-command-caveat>' },
  { ...base, type: 'user', uuid: 'u1', parentUuid: 'c0', message: { role: 'user', content: 'first' } },
];

t.test('removing the lines of every unread kind changes no conversion: made lines and every corpus file', async (t) => {
  const sets: [string, unknown[]][] = [
    ['made lines', made],
    ['a transcript opening on a caveat', opening],
  ];
  for (const file of corpusFiles('claude-code')) {
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((text) => {
        try {
          return [JSON.parse(text)];
        } catch {
          return [];
        }
      });
    sets.push([file.slice(file.lastIndexOf('/') + 1), lines]);
  }
  for (const [name, lines] of sets) {
    const read = lines.filter((line) => !UNREAD_KINDS.has(classifyClaudeLine(line)));
    for (const sidechains of [false, true]) t.equal(converted(read, sidechains), converted(lines, sidechains), `${name}${sidechains ? ', --sidechains' : ''}`);
  }
  // The made lines tell: removing those of any kind that is read changes a conversion.
  const kinds = new Set([...made, ...opening].map((line) => classifyClaudeLine(line)));
  t.ok([...kinds].some((kind) => UNREAD_KINDS.has(kind)), 'the made lines hold unread kinds');
  for (const kind of kinds) {
    if (UNREAD_KINDS.has(kind)) continue;
    const changes = [made, opening].some((lines) => converted(lines.filter((line) => classifyClaudeLine(line) !== kind), false) !== converted(lines, false));
    t.ok(changes, `the made lines of kind ${kind} are read`);
  }
});

/** tx-parse's records of `lines`, one a line. */
async function recordsOf(lines: unknown[]): Promise<string> {
  const r = await runBin('tx-parse', [], lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return r.stdout.toString();
}

t.test("tx-common does not parse an unread record's line; under --active it does", async (t) => {
  const records = await recordsOf(made.slice(0, 1));
  // A progress record whose line has a stray comma: only a parse of the line can tell.
  const broken = records + '{"harness":"claude-code","n":2,"kind":"progress","line":{"type":"progress",,"uuid":"p9"}}\n';
  const plain = await runBin('tx-common', [], broken);
  t.equal(plain.status, 0);
  t.notMatch(plain.stderr, /invalid line/, 'not parsed, so not found broken');
  const active = await runBin('tx-common', ['--active'], broken);
  t.match(active.stderr, /1 invalid line skipped/, 'read under --active, and found broken');
});

t.test('--active follows the chain through a progress line', async (t) => {
  const lines = [
    { ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'the question' } },
    { ...base, type: 'progress', uuid: 'p1', parentUuid: 'u1', data: { type: 'hook_progress' } },
    { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'p1', message: { id: 'm1', role: 'assistant', model: 'x', content: [{ type: 'text', text: 'the answer' }] } },
  ];
  const fromRecords = await runBin('tx-common', ['--active'], await recordsOf(lines));
  const fromNative = await runBin('tx-common', ['--active'], lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  t.match(fromRecords.stdout.toString(), /the question/, 'the message before the progress line is on the chain');
  t.ok(fromRecords.stdout.equals(fromNative.stdout), 'the same as from the native lines');
});
