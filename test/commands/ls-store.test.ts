// tx-ls over stores laid out from real files: the shared corpus (copied into a temp
// store at test time, under the project directory its cwd gives) and the sessions
// recorded from the real CLI. Expected values come from a full parse of every line.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { projectSlug } from '../../lib/claude-code/slug.js';
import { lsTool } from '../../lib/commands/ls.js';
import { corpusDir, fullFields, recordedSessions, REPO, runTool } from '../claude-code/store-helpers.js';

const corpus = corpusDir();

async function checkListing(t: Test, root: string, files: Map<string, string>, mode: string[]) {
  const r = await runTool(lsTool, ['--root', root, '--lines', ...mode]);
  t.equal(r.status, 0, 'exit 0');
  t.equal(r.stderr, '', 'nothing on stderr');
  t.equal(r.json.length, files.size, 'one object per session file');
  for (const entry of r.json) {
    const want = await fullFields(entry.path);
    const st = statSync(entry.path);
    const name = files.get(entry.path) ?? entry.path;
    t.same(
      { id: entry.id, cwd: entry.cwd, git_branch: entry.git_branch, version: entry.version, model: entry.model, title: entry.title, ai_title: entry.ai_title, started_at: entry.started_at, lines: entry.lines },
      want,
      `${name}: fields as a full parse finds them`,
    );
    t.equal(entry.bytes, st.size, `${name}: bytes is the file size`);
    t.equal(entry.modified_at, st.mtime.toISOString(), `${name}: modified_at is the mtime`);
    t.equal(entry.project, path.basename(path.dirname(entry.path)), `${name}: project is the directory name`);
  }
}

t.test('a store laid out from the shared corpus lists every file with the metadata a full parse finds', { skip: corpus ? false : 'no shared corpus beside the repository (../shared/corpus/claude-code)' }, async (t) => {
  const root = mkdtempSync(path.join(tmpdir(), 'tx-ls-corpus-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const files = new Map<string, string>();
  for (const name of readdirSync(corpus!).filter((n) => n.endsWith('.jsonl'))) {
    const src = path.join(corpus!, name);
    const { cwd } = await fullFields(src);
    const dir = path.join(root, cwd ? projectSlug(cwd) : 'no-cwd');
    mkdirSync(dir, { recursive: true });
    copyFileSync(src, path.join(dir, name));
    files.set(path.join(dir, name), name);
  }
  t.ok(files.size >= 30, `the corpus has its files (${files.size})`);
  await t.test('--deep: every field exact', (t) => checkListing(t, root, files, ['--deep']));
  await t.test('default (head, then a byte search for titles): every field exact', (t) => checkListing(t, root, files, []));
});

t.test('sessions recorded from the real CLI list with the metadata a full parse finds', async (t) => {
  const recorded = recordedSessions();
  if (recorded.length === 0) {
    t.comment('skipped: no fixtures/recorded yet');
    return;
  }
  const files = new Map(recorded.map((r) => [r.file, `${r.scenario}/${path.basename(r.file)}`]));
  await checkListing(t, path.join(REPO, 'fixtures', 'recorded'), files, []);
  for (const r of recorded) {
    const { cwd } = await fullFields(r.file);
    t.equal(projectSlug(cwd!), r.project, `${r.scenario}: the CLI's project directory is projectSlug(cwd)`);
  }
});
