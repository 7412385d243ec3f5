// The guides are part of the product: every `$ ` example of the README runs as written
// (the setup commands `npm ...` excepted: the tests run after them), every example of
// docs/ that reads shipped fixtures runs too, every link between the guides reaches a
// file and a heading that exist, and docs/README.md lists every guide.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import t, { type Test } from 'tap';
import { missingPrograms } from './examples.js';
import { guides, type Guide } from './guides.js';
import { repo } from './helpers.js';

/** The `$ ` lines of a guide's indented code blocks (a line ending in `|` goes on), prompt taken off. */
export function dollarExamples(text: string): string[] {
  const out: string[] = [];
  let going = false;
  for (const line of text.split('\n')) {
    const code = /^ {4}(.*)$/.exec(line)?.[1];
    if (code === undefined) {
      going = false;
      continue;
    }
    if (going) out[out.length - 1] += ' ' + code.trim();
    else if (code.startsWith('$ ')) out.push(code.slice(2));
    else continue;
    going = /\|\s*$/.test(code);
  }
  return out;
}

/** A shell variable set by an example (`s=FILE`), which the examples after it use. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S+$/;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (a repeated heading gets -1, -2, as on GitHub). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const base = anchorOf(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

t.test('a heading anchor is spelled as GitHub spells it', async (t) => {
  t.equal(anchorOf('tx-common: the conversation the model saw'), 'tx-common-the-conversation-the-model-saw');
  t.equal(anchorOf('tx-parse --follow: a live session'), 'tx-parse---follow-a-live-session', 'each space a hyphen, even beside one');
  t.equal(anchorOf("The main thread's share"), 'the-main-threads-share');
  t.equal(anchorOf('`--jobs` and worker threads'), '--jobs-and-worker-threads', 'code marks dropped');
});

t.test('a continued example is one command, and text outside code blocks is no example', async (t) => {
  const text = 'A $ in prose\n\n    $ tx-parse f |\n        tx-stats\n    output\n    $ tx-ls\n';
  t.same(dollarExamples(text), ['tx-parse f | tx-stats', 'tx-ls']);
});

const shims = mkdtempSync(join(tmpdir(), 'tx-guides-bin-'));
const home = mkdtempSync(join(tmpdir(), 'tx-guides-home-'));
t.teardown(() => {
  rmSync(shims, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});
const pkg = JSON.parse(readFileSync(repo('package.json'), 'utf8'));
for (const bin of Object.keys(pkg.bin)) symlinkSync(repo(pkg.bin[bin]), join(shims, bin));
const PATH = `${shims}:${process.env.PATH}`;

/** Run a guide's examples in a scratch folder that sees the fixtures and the build, as a user at the top of the checkout would. */
function runExamples(t: Test, commands: string[]): void {
  const work = mkdtempSync(join(tmpdir(), 'tx-guides-work-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));
  symlinkSync(repo('fixtures'), join(work, 'fixtures'));
  symlinkSync(repo('build'), join(work, 'build'));
  const prelude: string[] = [];
  for (const command of commands) {
    if (ASSIGNMENT.test(command)) {
      prelude.push(command);
      continue;
    }
    const missing = missingPrograms(command, PATH);
    if (missing.length > 0) {
      t.pass(`example: ${command}`, { skip: `needs ${missing.join(', ')}, not installed here` });
      continue;
    }
    const r = spawnSync('bash', ['-o', 'pipefail', '-c', [...prelude, command].join('\n')], { cwd: work, encoding: 'utf8', env: { PATH, HOME: home } });
    t.equal(r.status, 0, `example runs: ${command}${r.status ? `\n${r.stderr}` : ''}`);
  }
}

const all = guides();

t.test('every $ example of the README runs as written', async (t) => {
  const readme = all.find((g) => g.path === 'README.md')!;
  const commands = dollarExamples(readme.text).filter((c) => !/^npm\s/.test(c));
  t.ok(commands.length >= 12, `the README has its examples (${commands.length})`);
  t.ok(commands.some((c) => /tx-native --session-id new\b/.test(c)), 'among them tx-native --session-id new, spelled as the flag takes it');
  runExamples(t, commands);
});

t.test('every $ example of docs/ that reads shipped fixtures runs', async (t) => {
  for (const guide of all.filter((g) => g.path.startsWith('docs/'))) {
    const commands = dollarExamples(guide.text).filter((c) => ASSIGNMENT.test(c) || (/\bfixtures\//.test(c) && !/~|\/home\//.test(c)));
    if (commands.length === 0) continue;
    t.test(guide.path, async (t) => runExamples(t, commands));
  }
});

/** The relative links of a guide, outside code: [text](target). */
function links(guide: Guide): string[] {
  const prose = guide.text.replace(/```[\s\S]*?```/g, '').replace(/^ {4}.*$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((href) => !/^[a-z]+:/.test(href));
}

t.test('every link between the guides reaches a file, and a heading of it when it names one', async (t) => {
  for (const guide of all) {
    for (const href of links(guide)) {
      const [file, anchor] = href.split('#');
      const target = file === '' ? guide.path : normalize(join(dirname(guide.path), file));
      if (!t.ok(existsSync(repo(target)), `${guide.path}: ${href} exists`)) continue;
      if (anchor !== undefined) t.ok(anchors(readFileSync(repo(target), 'utf8')).has(anchor), `${guide.path}: ${href} names a heading of ${target}`);
    }
  }
});

t.test('docs/README.md lists every guide, and the README links to it', async (t) => {
  const index = all.find((g) => g.path === 'docs/README.md')!;
  const listed = new Set(links(index).map((href) => href.split('#')[0]));
  for (const guide of all.filter((g) => g.path.startsWith('docs/') && g.path !== 'docs/README.md')) t.ok(listed.has(guide.path.slice('docs/'.length)), `${guide.path} is listed`);
  t.ok(links(all[0]).includes('docs/README.md'), 'README.md links to docs/README.md');
});
