// Nothing recurses on data depth: lines whose values nest 100,000 deep (in tool inputs,
// tool results, attachments, progress data, unknown fields) go through every tool
// without "Maximum call stack size exceeded", and come back byte for byte.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { stringifyJson } from '../../lib/core/json/json-text.js';
import { runBin } from '../helpers.js';

const DEPTH = 100_000;
const deep = (leaf: string) => {
  let s = JSON.stringify(leaf);
  for (let i = 0; i < DEPTH; i++) s = i % 2 ? `[${s}]` : `{"k":${s}}`;
  return s;
};
const D = deep('<command-name>x</command-name> \u001b[31mred\u001b[0m');
const env = '"timestamp":"2026-03-01T10:00:00.000Z","sessionId":"s1","cwd":"/w","version":"2.1.100"';
const native = [
  `{"type":"user","uuid":"u1","parentUuid":null,${env},"message":{"role":"user","content":[{"type":"text","text":"hi","extra":${D}}]},"deepField":${D}}`,
  `{"type":"assistant","uuid":"a1","parentUuid":"u1",${env},"message":{"id":"m1","model":"m","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls","deep":${D}}},{"type":"tool_use","id":"t2","name":"Weird","input":${D}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
  `{"type":"user","uuid":"r1","parentUuid":"a1",${env},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"ok","deep":${D}}]},{"type":"tool_result","tool_use_id":"t2","content":${D},"is_error":true}]},"toolUseResult":${D}}`,
  `{"type":"attachment","uuid":"h1","parentUuid":"r1",${env},"attachment":{"type":"hook_success","hookName":"PreToolUse","deep":${D}}}`,
  `{"type":"progress","uuid":"p1","parentUuid":"h1",${env},"data":${D}}`,
  `{"type":"system","uuid":"y1","parentUuid":"p1",${env},"subtype":"local_command","content":${D}}`,
  `{"type":"weird","x":${D}}`,
  `{"type":"user","uuid":"u2","parentUuid":"y1",${env},"message":{"role":"user","content":${D}}}`,
].join('\n') + '\n';

const dir = mkdtempSync(join(tmpdir(), 'tx-deep-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 's1.jsonl');
writeFileSync(file, native);

t.test('stringifyJson writes a value too deep for JSON.stringify as it was read', async (t) => {
  const value = JSON.parse(D);
  const text = stringifyJson(value);
  t.equal(text, D, '100,000 deep, written back as read');
});

t.test('every tool takes lines nested 100,000 deep', async (t) => {
  const parsed = await runBin('tx-parse', [file]);
  t.equal(parsed.status, 0, 'tx-parse');
  const records = join(dir, 'records.ndjson');
  writeFileSync(records, parsed.stdout);
  const runs: [string, string[]][] = [
    ['tx-native', [records]],
    ['tx-stats', [records]],
    ['tx-common', [records]],
    ['tx-common', ['--active', records]],
    ['tx-escape', [records]],
    ['tx-escape', ['-d', '--strip-ansi', records]],
    ['tx-escape', ['--field', 'line.message.content[].input', records]],
    ['tx-escape', [file]],
    ['tx-ls', ['--deep', dir]],
  ];
  for (const q of ['--human-prompts', '--tool-calls', '--tool-results', '--hooks', '--usage']) runs.push(['tx-filter', [q, '--view', records]], ['tx-filter', [q, records]]);
  runs.push(['tx-filter', ['--grep', 'red', '--view', records]]);
  for (const [name, args] of runs) {
    const r = await runBin(name, args);
    t.equal(r.status, 0, `${name} ${args.slice(0, -1).join(' ')}: exit 0`);
    t.notMatch(r.stderr, /internal error|call stack|too deep/, `${name} ${args.slice(0, -1).join(' ')}: ${r.stderr.split('\n')[0]}`);
    if (name === 'tx-native') t.ok(r.stdout.equals(Buffer.from(native)), 'tx-native gives the file back byte for byte');
    if (name === 'tx-filter' && args[0] === '--grep') t.ok(r.stdout.length > 0, '--grep finds a string at the bottom');
  }
  const common = await runBin('tx-common', [records]);
  // The nesting makes the conversation about 200,000 tokens; the window is widened so the
  // conversation is written (what this test is about) rather than refused for its size.
  const back = await runBin('tx-native', ['--context-window', '1000000'], common.stdout);
  t.equal(back.status, 0, 'tx-common | tx-native');
  t.notMatch(back.stderr, /internal error|call stack/);
});
