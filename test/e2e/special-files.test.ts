// Files a tool finds itself are read only when they are regular files: a FIFO, or a
// symbolic link to /dev/zero, under <session>/subagents/ (as a transcript or as its
// .meta.json) is named and skipped, never read (a FIFO hangs an open, /dev/zero never ends).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { repo } from '../helpers.js';

const ID = '00000000-0000-4000-8000-0000000000d1';
const scratch = mkdtempSync(join(tmpdir(), 'tx-special-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
const project = join(scratch, 'projects', '-w');
const from = join(repo('fixtures', 'recorded', 'subagent', 'projects'), readdirSync(repo('fixtures', 'recorded', 'subagent', 'projects'))[0]);
cpSync(join(from, `${ID}.jsonl`), join(project, `${ID}.jsonl`));
cpSync(join(from, ID), join(project, ID), { recursive: true });
const subagents = join(project, ID, 'subagents');
symlinkSync('/dev/zero', join(subagents, 'agent-zero.jsonl'));
symlinkSync('/dev/zero', join(subagents, 'agent-zmeta.meta.json'));
writeFileSync(join(subagents, 'agent-zmeta.jsonl'), '');
const fifo = spawnSync('mkfifo', [join(subagents, 'agent-fifo.jsonl'), join(subagents, 'agent-fmeta.meta.json')]);
const session = join(project, `${ID}.jsonl`);
const records = join(scratch, 'records.ndjson');
writeFileSync(records, spawnSync(process.execPath, [repo('build', 'bin', 'tx-parse.js'), session]).stdout);

const bin = (name: string, args: string[]) =>
  spawnSync(process.execPath, [repo('build', 'bin', `${name}.js`), ...args], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 });

t.test('tx-ls --subagents, tx-common --subagents and tx-filter --subagents finish, skipping FIFOs and devices', { skip: fifo.status === 0 ? false : 'mkfifo is not available' }, async (t) => {
  for (const [name, args] of [
    ['tx-ls', ['--subagents', session]],
    ['tx-ls', ['--root', join(scratch, 'projects'), '--deep']],
    ['tx-common', ['--subagents', records]],
    ['tx-filter', ['--subagents', '--view', records]],
  ] as [string, string[]][]) {
    const r = bin(name, args);
    t.equal(r.signal, null, `${name} ${args[0]}: finished by itself (not killed after 60 s)`);
    t.equal(r.status, 0, `${name} ${args[0]}: exit 0`);
    t.ok(r.stdout.length < 1 << 20, `${name} ${args[0]}: output stays small (${r.stdout.length} bytes)`);
    t.notMatch(r.stderr, /internal error/);
    if (name === 'tx-ls' && args[0] === '--subagents') t.match(r.stdout, /"agent_id":"aa415a71f1388ed60"[^\n]*"agent_type":"general-purpose"/, 'the real subagent is still listed with its meta');
    if (name === 'tx-common') {
      t.match(r.stderr, /agent-fifo\.jsonl: cannot read: a FIFO, not a regular file/, 'the FIFO is named');
      t.match(r.stderr, /agent-zero\.jsonl: cannot read: a device, not a regular file/, 'the link to /dev/zero is named');
      t.match(r.stdout, /"id":"agent-aa415a71f1388ed60"/, 'the real subagent is converted');
    }
  }
});
