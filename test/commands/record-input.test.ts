// Each tool takes what the other end of the pipe is likely to give it: record tools read
// native session lines as tx-parse would, and tx-parse does not wrap records again.
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { corpusFiles, repo, runBin } from '../helpers.js';

const lines = [
  { type: 'user', message: { role: 'user', content: 'first prompt' }, sessionId: 's1', uuid: 'u1', timestamp: '2025-01-01T00:00:00Z' },
  { type: 'assistant', message: { id: 'm1', role: 'assistant', model: 'x', content: [{ type: 'text', text: 'hi' }] }, sessionId: 's1', uuid: 'a1', parentUuid: 'u1', timestamp: '2025-01-01T00:00:01Z' },
  { type: 'user', message: { role: 'user', content: 'second prompt' }, sessionId: 's1', uuid: 'u2', parentUuid: 'a1', timestamp: '2025-01-01T00:00:02Z' },
];
const native = Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n') + '\nnot json\n');

t.test('record tools fed native lines: one note, then the same answer as through tx-parse', async (t) => {
  const records = await runBin('tx-parse', [], native);
  for (const [tool, args] of [['tx-filter', ['--human-prompts']], ['tx-stats', []], ['tx-common', []], ['tx-native', []]] as [string, string[]][]) {
    const direct = await runBin(tool, args, native);
    const viaParse = await runBin(tool, args, records.stdout);
    t.ok(direct.stdout.equals(viaParse.stdout), `${tool}: same output as after tx-parse`);
    const notes = direct.stderr.split('\n').filter((l) => l.includes('native session lines'));
    t.equal(notes.length, 1, `${tool}: one note for the input, not one per line: ${direct.stderr}`);
    t.notMatch(direct.stderr, /not a record/, `${tool}: no line is called "not a record"`);
  }
});

t.test('tx-parse fed records passes them through unchanged, after one note', async (t) => {
  const once = await runBin('tx-parse', [], native);
  const twice = await runBin('tx-parse', [], once.stdout);
  t.equal(twice.status, 0);
  t.ok(twice.stdout.equals(once.stdout), 'records come out as they went in (not wrapped again)');
  t.equal(twice.stderr, 'tx-parse: stdin: these are records already (tx-parse output): passed through unchanged\n');
});

const corpus = [...corpusFiles('claude-code'), ...corpusFiles('codex')];

t.test('every corpus file: tx-filter FILE, which writes each native line\'s record as it is selected, gives what tx-parse FILE gives', { skip: corpus.length === 0 ? 'no corpus beside the project' : false }, async (t) => {
  const run = (name: string, args: string[]) => spawnSync(process.execPath, [repo('build', 'bin', `${name}.js`), ...args], { maxBuffer: 1 << 30 });
  for (const file of corpus) {
    const parsed = run('tx-parse', [file]).stdout;
    const filtered = run('tx-filter', [file]).stdout;
    t.ok(filtered.equals(parsed), file.slice(file.lastIndexOf('/') + 1));
  }
});

t.test('every corpus file: tx-stats and tx-common give the same from tx-parse\'s records (toolUseResult skipped, not parsed) as from the file (every line parsed whole)', { skip: corpus.length === 0 ? 'no corpus beside the project' : false }, async (t) => {
  const run = (name: string, args: string[], input?: Buffer) => spawnSync(process.execPath, [repo('build', 'bin', `${name}.js`), ...args], { input, maxBuffer: 1 << 30 });
  for (const file of corpus) {
    const records = run('tx-parse', [file]).stdout;
    for (const tool of ['tx-stats', 'tx-common']) {
      const direct = run(tool, [file]).stdout;
      const viaRecords = run(tool, [], records).stdout;
      t.ok(direct.length > 0 && viaRecords.equals(direct), `${tool} ${file.slice(file.lastIndexOf('/') + 1)}`);
    }
  }
});
