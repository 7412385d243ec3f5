// tx-render as a tool: what it reads (Common, records, session files), what it writes
// by default, how it reports lines it cannot use, and how it stops.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import t from 'tap';
import { renderTool } from '../../lib/commands/render.js';
import { run } from '../../lib/core/run.js';
import { recordedSessionFiles } from '../harness/index.js';
import { repo, runBin, runTool } from '../helpers.js';

const tools = () => recordedSessionFiles().find((f) => f.includes('/tools/'))!;
/** Turns on a page, with the anchors left of messages that only answer calls (shown inside them). */
const turns = (html: Buffer) => (html.toString('utf8').match(/<article class="turn|<span class="anchor-only"/g) ?? []).length;

t.test('a session file, its records and its Common stream make the same page', async (t) => {
  const file = tools();
  const records = (await runBin('tx-parse', [file])).stdout;
  const common = (await runBin('tx-common', [], records)).stdout;
  const fromFile = (await runBin('tx-render', [file])).stdout;
  const fromRecords = (await runBin('tx-render', [], records)).stdout;
  const fromCommon = (await runBin('tx-render', [], common)).stdout;
  t.ok(fromFile.equals(fromRecords), 'records give the page the file gives');
  t.ok(fromFile.equals(fromCommon), 'Common gives the page the file gives');
  t.equal(turns(fromFile), 14, 'fourteen messages: turns and anchors');
});

t.test('a page starts with its CSP and ends with its script', async (t) => {
  const html = (await runBin('tx-render', [tools()])).stdout.toString('utf8');
  t.match(html, /^<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[A-Za-z0-9+/=]+&#39;; script-src &#39;sha256-/);
  t.match(html, /<script>\(function\(\)\{[^]*<\/script>\n<\/body>\n<\/html>\n$/);
  t.notMatch(html, /\son[a-z]+=/, 'no inline event handler anywhere');
  t.notMatch(html, /style="/, 'no inline style attribute (the CSP would refuse it)');
});

/** Run the tool in process with a stdout that says whether it is a terminal. */
async function runWithTerminal(isTTY: boolean, args: string[], input: Buffer): Promise<string> {
  const out: Buffer[] = [];
  const stdout = Object.assign(
    new Writable({
      write(chunk, _e, cb) {
        out.push(Buffer.from(chunk));
        cb();
      },
    }),
    { isTTY },
  );
  const stderr = new Writable({ write: (_c, _e, cb) => cb() });
  await run(renderTool, { argv: ['node', 'tx-render', ...args], env: {}, stdin: Readable.from([input]), stdout, stderr, cwd: () => repo() } as any);
  return Buffer.concat(out).toString('utf8');
}

t.test('on a terminal the default is Markdown, elsewhere HTML; --format decides', async (t) => {
  const common = readFileSync(repo('fixtures', 'render', 'hostile.common.jsonl'));
  t.match(await runWithTerminal(true, [], common), /^# Hostile/, 'terminal: Markdown');
  t.match(await runWithTerminal(false, [], common), /^<!DOCTYPE html>/, 'pipe or file: HTML');
  t.match(await runWithTerminal(true, ['--format', 'html'], common), /^<!DOCTYPE html>/, '--format html on a terminal');
});

t.test('an unknown --format is a usage error', async (t) => {
  const r = await runTool(renderTool, ['--format', 'pdf'], ['']);
  t.equal(r.status, 2);
  t.match(r.stderr, /^tx-render: --format must be html or md, not "pdf" \(see tx-render --help\)/);
});

t.test('lines it cannot use are reported with their place and left out; --strict makes that exit 1', async (t) => {
  const input = [
    JSON.stringify({ type: 'session', harness: 'claude-code', id: 's' }),
    JSON.stringify({ type: 'message', id: 'x', role: 'system', content: [] }),
    JSON.stringify({ type: 'message', id: 'y', role: 'user', content: 'not a list' }),
    JSON.stringify({ type: 'message', id: 'z', role: 'user', content: [{ type: 'text', text: 'kept' }] }),
  ].join('\n');
  const r = await runTool(renderTool, ['--format', 'md'], [input]);
  t.equal(r.status, 0);
  t.match(r.stderr, 'tx-render: stdin:2: a message whose role is "system", skipped');
  t.match(r.stderr, 'tx-render: stdin:3: a message whose content is not a block list, skipped');
  t.equal((r.stdout.toString('utf8').match(/^## /gm) ?? []).length, 1, 'one turn: the good message');
  t.equal((await runTool(renderTool, ['--strict', '--format', 'md'], [input])).status, 1);
});

t.test('empty input still makes a whole page that says so', async (t) => {
  const r = await runTool(renderTool, [], ['']);
  t.equal(r.status, 0);
  t.match(r.stdout.toString('utf8'), /The input held no session\.[^]*<\/html>\n$/);
});

t.test('input split at every byte gives the same page', async (t) => {
  const common = readFileSync(repo('fixtures', 'render', 'hostile.common.jsonl'));
  const whole = (await runTool(renderTool, [], [common])).stdout;
  const bytes = [...common].map((b) => Buffer.from([b]));
  t.ok((await runTool(renderTool, [], bytes)).stdout.equals(whole));
});

t.test('a reader that goes away early ends it quietly (EPIPE): exit 0, nothing on stderr', async (t) => {
  const r = spawnSync('bash', ['-o', 'pipefail', '-c', `node build/bin/tx-render.js "${tools()}" | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`], { cwd: repo(), encoding: 'utf8' });
  t.equal(r.stdout.trim(), '0');
  t.equal(r.stderr, '');
});
