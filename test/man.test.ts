// Man pages are part of the product: each executable has one, listed in package.json,
// that renders without a groff warning, names every flag of --help, and whose
// `$ ` examples run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { missingPrograms } from './examples.js';
import { repo } from './helpers.js';

const pkg = JSON.parse(readFileSync(repo('package.json'), 'utf8'));
const bins = Object.keys(pkg.bin) as string[];
const pages = (pkg.man as string[]).map((m) => repo(m));

/** The `$ ` command lines of a page's .EX blocks (a line ending in `|` goes on), with roff escapes undone. */
function examples(roff: string): string[] {
  const out: string[] = [];
  let inExample = false;
  let going = false;
  for (const line of roff.split('\n')) {
    if (line.startsWith('.EX')) inExample = true;
    else if (line.startsWith('.EE')) inExample = false;
    else if (inExample && (line.startsWith('$ ') || going)) {
      const text = line.startsWith('$ ') ? line.slice(2) : line;
      if (going) out[out.length - 1] += ' ' + unroff(text);
      else out.push(unroff(text));
      going = /\|\s*$/.test(text);
    }
  }
  return out;
}

function unroff(line: string): string {
  return line
    .replace(/\\-/g, '-')
    .replace(/\\\(aq/g, "'")
    .replace(/\\\(dq/g, '"')
    .replace(/\\&/g, '')
    .replace(/\\e/g, '\\');
}

t.test('every bin has a man page in package.json "man", and every listed page exists', async (t) => {
  for (const bin of bins) t.ok((pkg.man as string[]).includes(`./man/${bin}.1`), `${bin} is listed`);
  for (const page of pages) t.ok(existsSync(page), `${page} exists`);
});

t.test('an example whose program is not installed is found before it runs (it is skipped, not failed)', async (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'tx-man-path-'));
  t.teardown(() => rmSync(empty, { recursive: true, force: true }));
  const recipe = "find fixtures -name '*.jsonl' | parallel --will-cite 'tx-parse {} | tx-stats' > stats.ndjson";
  t.same(missingPrograms(recipe, empty).sort(), ['find', 'parallel'], "each stage's program; a quoted | is not a stage");
  t.same(missingPrograms('jq -r .path && echo $(cat x)', empty).sort(), ['cat', 'jq'], 'lists and substitutions too (echo is a builtin)');
});

const shims = mkdtempSync(join(tmpdir(), 'tx-man-bin-'));
t.teardown(() => rmSync(shims, { recursive: true, force: true }));
for (const bin of bins) symlinkSync(repo(pkg.bin[bin]), join(shims, bin));
const home = mkdtempSync(join(tmpdir(), 'tx-man-home-'));
t.teardown(() => rmSync(home, { recursive: true, force: true }));

for (const bin of bins) {
  const page = repo('man', `${bin}.1`);
  t.test(`${bin}(1)`, async (t) => {
    if (!existsSync(page)) {
      t.fail(`${page} is missing`);
      return;
    }
    const roff = readFileSync(page, 'utf8');
    const groff = spawnSync('groff', ['-man', '-ww', '-z', page], { encoding: 'utf8' });
    t.equal(groff.stderr, '', 'groff -man -ww -z prints no warning');
    const help = execFileSync(process.execPath, [repo(pkg.bin[bin]), '--help'], { encoding: 'utf8' });
    const flags = [...new Set(help.match(/--[a-z][a-z0-9-]*/g) ?? [])];
    for (const flag of flags) t.ok(roff.includes(flag.replace(/-/g, '\\-')), `documents ${flag}`);
    const commands = examples(roff);
    t.ok(commands.length > 0, 'has examples');
    // Examples run in a scratch folder that sees the repository's fixtures, so what they write stays out of the checkout.
    const work = mkdtempSync(join(tmpdir(), 'tx-man-work-'));
    t.teardown(() => rmSync(work, { recursive: true, force: true }));
    symlinkSync(repo('fixtures'), join(work, 'fixtures'));
    const unwritten: string[] = [];
    for (const command of commands) {
      const PATH = `${shims}:${process.env.PATH}`;
      const missing = missingPrograms(command, PATH);
      const needs = unwritten.filter((file) => command.includes(file));
      if (missing.length > 0 || needs.length > 0) {
        t.pass(`example: ${command}`, { skip: missing.length > 0 ? `needs ${missing.join(', ')}, not installed here` : `reads ${needs.join(', ')}, which a skipped example writes` });
        for (const m of command.matchAll(/>\s*([^\s|;&]+)/g)) unwritten.push(m[1]);
        continue;
      }
      const r = spawnSync('bash', ['-o', 'pipefail', '-c', command], {
        cwd: work,
        encoding: 'utf8',
        env: { PATH, HOME: home },
      });
      t.equal(r.status, 0, `example runs: ${command}${r.status ? `\n${r.stderr}` : ''}`);
    }
  });
}
