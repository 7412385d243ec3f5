// Files a tool finds itself are read only when they are regular files: a FIFO, or a
// symbolic link to /dev/zero, under <session>/subagents/ (as a transcript or as its
// .meta.json) is named and skipped, never read (a FIFO hangs an open, /dev/zero never ends).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
mkdirSync(join(subagents, 'agent-dir.jsonl'));
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

t.test('tx-ls --subagents lists regular transcripts only, and names once each transcript and .meta.json it cannot read', { skip: fifo.status === 0 ? false : 'mkfifo is not available' }, async (t) => {
  const r = bin('tx-ls', ['--subagents', session]);
  t.equal(r.status, 0);
  const ids = r.stdout.trim().split('\n').map((l) => JSON.parse(l).agent_id).sort();
  t.same(ids, ['aa415a71f1388ed60', 'fmeta', 'zmeta'], 'the FIFO, the link to a device and the directory named agent-*.jsonl are not listed');
  const said = (what: string) => r.stderr.split('\n').filter((l) => l.includes(what));
  t.same(said('agent-fifo.jsonl'), [`tx-ls: ${join(subagents, 'agent-fifo.jsonl')}: cannot read: a FIFO, not a regular file; not listed`]);
  t.same(said('agent-zero.jsonl'), [`tx-ls: ${join(subagents, 'agent-zero.jsonl')}: cannot read: a device, not a regular file; not listed`]);
  t.same(said('agent-dir.jsonl'), [`tx-ls: ${join(subagents, 'agent-dir.jsonl')}: cannot read: a directory, not a regular file; not listed`]);
  t.same(said('agent-fmeta.meta.json'), [`tx-ls: ${join(subagents, 'agent-fmeta.meta.json')}: cannot read: a FIFO, not a regular file`], 'a .meta.json that is a FIFO is named once');
  t.same(said('agent-zmeta.meta.json'), [`tx-ls: ${join(subagents, 'agent-zmeta.meta.json')}: cannot read: a device, not a regular file`], 'a .meta.json linked to /dev/zero is named once');
  const strict = bin('tx-ls', ['--subagents', '--strict', session]);
  t.equal(strict.status, 1, '--strict: what could not be read is an error');
  const listing = bin('tx-ls', ['--root', join(scratch, 'projects')]);
  t.equal(JSON.parse(listing.stdout.trim()).subagents, 2, 'the listing counts the regular transcripts only (the real one, and agent-zmeta.jsonl)');
});
