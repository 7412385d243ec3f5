// Project directory names. The expectations are what the real CLI wrote: directory
// names observed from Claude Code 2.1.328 run in such directories, and names that
// transcripts in the shared corpus mention for their own cwd.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { isProjectDirOf, projectSlug, slugVariants } from '../../lib/claude-code/slug.js';
import { corpusDir, fullFields } from './store-helpers.js';

t.test('projectSlug matches directory names Claude Code 2.1.328 wrote', async (t) => {
  const long = '/tmp/slugexp/' + 'x'.repeat(120) + '/' + 'y'.repeat(120);
  const seen: [string, string][] = [
    ['/tmp/slugexp/a_b c.d+e', '-tmp-slugexp-a-b-c-d-e'],
    ['/tmp/slugexp/ünï~x@y', '-tmp-slugexp--n--x-y'],
    ['/tmp/slugexp/A-B=C,D', '-tmp-slugexp-A-B-C-D'],
    ['/tmp/slugexp/e😀x', '-tmp-slugexp-e--x'],
    [long, '-tmp-slugexp-' + 'x'.repeat(120) + '-' + 'y'.repeat(66) + '-6ybycr'],
    ['/tmp/txcript-rec/plain/work', '-tmp-txcript-rec-plain-work'],
  ];
  for (const [cwd, dir] of seen) t.equal(projectSlug(cwd), dir, cwd.length > 60 ? 'a cwd whose slug exceeds 200 characters' : cwd);
});

t.test('every project directory a corpus transcript mentions is projectSlug of a cwd in the corpus', async (t) => {
  const dir = corpusDir();
  if (!dir) {
    t.comment('skipped: no shared corpus');
    return;
  }
  const cwds = new Set<string>();
  const mentioned = new Set<string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    const text = readFileSync(path.join(dir, name), 'utf8');
    for (const m of text.matchAll(/"cwd":"((?:[^"\\]|\\.)*)"/g)) cwds.add(JSON.parse(`"${m[1]}"`));
    for (const m of text.matchAll(/\.claude\/projects\/(-[A-Za-z0-9-]+)\//g)) mentioned.add(m[1]);
    const { cwd } = await fullFields(path.join(dir, name));
    if (cwd) cwds.add(cwd);
  }
  t.ok(mentioned.size > 0, `the corpus mentions project directories (${[...mentioned].join(', ')})`);
  const slugs = new Set([...cwds].map(projectSlug));
  for (const m of mentioned) t.ok(slugs.has(m), `${m} is the slug of a corpus cwd`);
  t.ok([...mentioned].some((m) => m.includes('--')), 'one of them shows a dot becoming a dash (a dot-directory: --)');
});

t.test('lookups accept all three written rules', async (t) => {
  const cwd = '/Users/a.b/my proj_1';
  t.same(slugVariants(cwd), ['-Users-a-b-my-proj-1', '-Users-a-b-my proj_1', '-Users-a.b-my proj_1']);
  for (const name of slugVariants(cwd)) t.ok(isProjectDirOf(name, cwd), name);
  t.notOk(isProjectDirOf('-Users-a-b-my-proj', cwd), 'a prefix is not a match');
  const long = '/' + 'z'.repeat(250);
  t.ok(isProjectDirOf(projectSlug(long), long), 'a long slug with our hash');
  t.ok(isProjectDirOf('-' + 'z'.repeat(199) + '-otherhash', long), 'a long slug with another hash: the cut prefix decides');
});
