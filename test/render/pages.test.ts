// What a page shows of a session, each a fix a reader asked for: a title from the first
// prompt typed, the client's context folded, a slash command's output with the command,
// one meaning of input tokens, no stub rows, long pastes folded, the model's Markdown
// rendered, a person's text kept from becoming Markdown, and text that reorders itself
// shown by name.
import { marked } from 'marked';
import t from 'tap';
import { recordedSessionFiles } from '../harness/index.js';
import { recordedCodexRollouts } from '../harness/codex/index.js';
import { repo, runBin } from '../helpers.js';

const render = async (args: string[], input?: string) => {
  const r = await runBin('tx-render', args, input);
  return { status: r.status, out: r.stdout.toString('utf8'), err: r.stderr };
};
const common = (...messages: object[]) => [{ type: 'session', harness: 'claude-code', id: 's' }, ...messages].map((l) => JSON.stringify(l)).join('\n') + '\n';
const msg = (role: 'user' | 'assistant', ...content: object[]) => ({ type: 'message', id: `${role}-${Math.random()}`, role, content });
const text = (s: string) => ({ type: 'text', text: s });

t.test('a Codex session is titled by the first prompt typed, its injected context folded under its name', async (t) => {
  const rollout = recordedCodexRollouts().find((r) => r.scenario === 'exec');
  if (!rollout) return void t.pass('skipped: no recorded Codex rollout');
  const html = (await render([rollout.file])).out;
  t.match(html, /<title>Run two commands please\.<\/title>/, 'the page title');
  t.match(html, /<h1>Run two commands please\.<\/h1>/, 'the session heading');
  t.notMatch(html, /Session 01a22f95/, 'not the session id');
  t.match(html, /<details class="context"><summary>environment context<\/summary>/, 'the environment context folded under its name');
  t.match(html, /<article class="turn user context"[^]*?<details class="context"><summary>skills instructions/, 'the developer message is a context turn');
  t.notMatch(html, /<p>&lt;environment_context&gt;/, 'the context is not shown as a prompt');
  const md = (await render(['--format', 'md', rollout.file])).out;
  t.match(md, /^# Run two commands please\.\n/, 'Markdown: the same title');
  t.match(md, /## <a id="m2"><\/a>2\. Context\n[^]*<summary>context: environment context<\/summary>/, 'Markdown: the context folded');
});

t.test('a Claude Code session without a title is titled by its first prompt; a slash command by the command typed', async (t) => {
  const tools = recordedSessionFiles().find((f) => f.includes('/commands/'));
  if (!tools) return void t.pass('skipped: no recorded commands fixture');
  const html = (await render([tools])).out;
  t.match(html, /<h1>\/greet Ada<\/h1>/, 'the command and its arguments');
  t.match(html, /<details class="context"><summary>prompt of \/greet<\/summary>/, 'the prompt the command expands to is folded as context');
});

t.test("a slash command's output is shown with the command, not as a result of its own", async (t) => {
  const file = recordedSessionFiles().find((f) => f.includes('/commands/'));
  if (!file) return void t.pass('skipped: no recorded commands fixture');
  const html = (await render([file])).out;
  const compact = /<details class="tool" id="t-[^"]+"><summary><span class="tool-name">\/compact<\/span>[^]*?<\/details>/.exec(html)?.[0] ?? '';
  t.match(compact, /Compacted \(ctrl\+o to see full summary\)/, 'the output inside the /compact call');
  t.notMatch(compact, /No result follows/, 'and the call does not say it has none');
  t.notMatch(html, /<span class="tool-name">result<\/span>/, 'no separate result block');
  const md = (await render(['--format', 'md', file])).out;
  t.notMatch(md, /<summary>result of /, 'Markdown: no separate result block either');
  t.match(md, /<b>\/compact<\/b>[^]*?Result:\n\n```\nCompacted/, 'Markdown: the output under the command');
});

t.test('a Codex page counts input tokens without cached input, as tx-stats does', async (t) => {
  const input = repo('fixtures', 'common', 'codex-messages', 'input.jsonl');
  const html = (await render([input])).out;
  t.match(html, /<span class="tokens">in 80 · out 7 · cache read 20<\/span>/, 'Codex reported 100 input with 20 cached: 80 uncached, 20 cache reads');
  const stats = JSON.parse((await runBin('tx-stats', [], (await runBin('tx-parse', [input])).stdout)).stdout.toString('utf8'));
  t.equal(stats.tokens.input_tokens, 80, 'tx-stats says the same');
});

t.test('results shown inside their calls leave no stub rows', async (t) => {
  const file = recordedSessionFiles().find((f) => f.includes('/tools/'));
  if (!file) return void t.pass('skipped: no recorded tools fixture');
  const html = (await render([file])).out;
  t.notMatch(html, /Result shown with/, 'no "Result shown with its call" rows');
  t.notMatch(html, /class="turn user results"/, 'no turns made only of results');
  t.match(html, /<span class="anchor-only" id="m3"><\/span>/, 'the message keeps its anchor');
  t.notMatch((await render(['--format', 'md', file])).out, /Result shown with|Tool results/, 'Markdown: none either');
});

t.test('a long pasted text is folded after a screen, in a monospace block', async (t) => {
  const trace = Array.from({ length: 200 }, (_, i) => `  File "app.py", line ${i}, in handler`).join('\n');
  const html = (await render([], common(msg('user', text(`Why does this fail?\n${trace}`))))).out;
  t.match(html, /<pre class="pasted">Why does this fail\?\n(  File &quot;app\.py&quot;, line \d+, in handler\n){29}<\/pre><details class="more"><summary>171 more lines/, 'thirty lines shown, the rest folded under a count');
  t.notMatch(html, /<p>Why does this fail/, 'not set as a paragraph');
  const md = (await render(['--format', 'md'], common(msg('user', text(`Why?\n${trace}`))))).out;
  t.match(md, /```text\nWhy\?\n[^]*```\n\n<details>\n<summary>171 more lines<\/summary>/, 'Markdown: a fenced first screen, the rest folded');
});

t.test("the model's text is rendered as Markdown; raw HTML in it stays text and script links stay text", async (t) => {
  const reply = '## Plan\n\n1. **Read** `a.py`\n2. Fix it\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>alert(1)</script> [x](javascript:alert(1)) ![i](https://example.com/i.png)';
  const html = (await render([], common(msg('assistant', text(reply))))).out;
  const body = html.slice(html.indexOf('<main>'), html.indexOf('<script>(function'));
  t.match(body, /<h2>Plan<\/h2>/, 'a heading');
  t.match(body, /<ol>\n<li><strong>Read<\/strong> <code>a\.py<\/code><\/li>/, 'a list with bold and code');
  t.match(body, /<table>/, 'a table');
  t.match(body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'raw HTML escaped');
  t.notMatch(body, /<script|href="javascript|<img/i, 'no script, no script link, no image loaded');
  t.match(body, /\[image i: https:\/\/example\.com\/i\.png, not loaded\]/, 'the image named with its address');
});

t.test('in Markdown a person\'s text reads as typed: no emphasis, mail links or headings it never had', async (t) => {
  const typed = '# not a heading\nedit __init__.py and python@3.12 with *care* [x](y) | a | b |\n1. not a list\n`code` stays code';
  const md = (await render(['--format', 'md'], common(msg('user', text(typed))))).out;
  const page = await marked.parse(md, { gfm: true });
  const title = /<h1>[^]*?<\/h1>/.exec(page)?.[0] ?? '';
  t.notMatch(title, /<strong>|<em>|mailto:|<a /, 'the title made of the prompt: no bold, italics or links');
  const html = page.slice(page.indexOf('1. User</h2>'), page.indexOf('<hr>'));
  t.notMatch(html, /<strong>|<em>|mailto:|<h1>|<ol>|<a href="y"|<table>/, 'the turn: no bold, italics, mail link, heading, list, link or table');
  t.match(html, /__init__\.py/, '__init__.py as typed');
  t.match(html, /python@3\.12/, 'python@3.12 as typed');
  t.match(html, /<code>code<\/code>/, 'backtick code is still code');
  t.equal((html.match(/<br>/g) ?? []).length, 3, 'each line break kept');
});

t.test('bidi controls are shown by name, never left to reorder the page', async (t) => {
  const html = (await render([], common(msg('user', text('evil\u202Etxt.exe')), msg('assistant', text('ok \u2067x\u2069'))))).out;
  t.notMatch(html, /[\u202A-\u202E\u2066-\u2069]/, 'no bidi control left in the page');
  t.match(html, /evil<span class="bidi"[^>]*>⟦U\+202E⟧<\/span>txt\.exe/, 'the override named where it was');
  t.match(html, /⟦U\+2067⟧x⟦U\+2069⟧/, 'isolates in the model\'s Markdown too');
  const md = (await render(['--format', 'md'], common(msg('user', text('a\u202Eb'))))).out;
  t.match(md, /a⟦U\+202E⟧b/, 'Markdown: named too');
});

t.test('a tool input nested 100,000 deep renders, as every other tool takes it', async (t) => {
  const deep = '['.repeat(100000) + ']'.repeat(100000);
  const input = `${JSON.stringify({ type: 'session', harness: 'claude-code', id: 's' })}\n{"type":"message","id":"a","role":"assistant","content":[{"type":"tool_use","id":"c1","name":"X","input":{"a":${deep}}}]}\n`;
  for (const format of ['html', 'md']) {
    const r = await render(['--format', format], input);
    t.equal(r.status, 0, `${format}: exit 0`);
    t.equal(r.err, '', `${format}: nothing on stderr (no internal error)`);
    t.match(r.out, format === 'html' ? /<\/html>\n$/ : /tool calls · duration/, `${format}: the whole document`);
    t.match(r.out, /the rest not shown \(a page shows 200,000 characters of one block/, `${format}: the JSON shown up to the cap, saying so`);
  }
  const native = `{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}\n{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2026-01-01T00:00:01Z","message":{"id":"m1","role":"assistant","model":"x","content":[{"type":"tool_use","id":"t1","name":"X","input":{"a":${deep}}}]}}\n`;
  const r = await render([], native);
  t.equal(r.status, 0, 'a native line too: exit 0');
  t.notMatch(r.err, /internal error/, 'no internal error');
});

t.test('a record whose src is not a string is named with its line and field, and skipped: the rest is written', async (t) => {
  const file = recordedSessionFiles().find((f) => f.includes('/plain/'));
  if (!file) return void t.pass('skipped: no recorded plain fixture');
  const lines = (await runBin('tx-parse', [file])).stdout.toString('utf8').trimEnd().split('\n');
  const bad = lines.map((l, i) => (i === 2 ? l.replace(/^\{/, '{"src":{"x":1},').replace(/"src":"[^"]*",/, '') : i === 3 ? l.replace(/"src":"[^"]*"/, '"src":42') : l));
  const r = await render(['--format', 'md', '--subagents'], bad.join('\n') + '\n');
  t.equal(r.status, 0, 'exit 0');
  t.match(r.err, 'tx-render: stdin:3: not a record ("src" is an object, not a file path), skipped');
  t.match(r.err, 'tx-render: stdin:4: not a record ("src" is the number 42, not a file path), skipped');
  t.notMatch(r.err, /internal error/);
  t.match(r.out, /What did I ask you before\?[^]*You asked who I am/, 'the rest of the conversation is written');
});

t.test('what readers of other transcript pages would miss: the prompts listed, every fold opened at once, what a command is for, a to-do list as a list', async (t) => {
  const todo = { type: 'tool_use', id: 'c2', name: 'TodoWrite', input: { todos: [{ content: 'read __init__.py', status: 'completed' }, { content: 'fix it', status: 'in_progress' }, { content: 'test', status: 'pending' }] } };
  const bash = { type: 'tool_use', id: 'c1', name: 'Bash', input: { command: 'ls', description: 'List the files' }, tool: { kind: 'bash', command: 'ls', description: 'List the files' } };
  const input = common(msg('user', text('First question')), msg('assistant', bash, todo), msg('user', text('Second question')), msg('assistant', text('done')));
  const html = (await render([], input)).out;
  t.match(html, /<nav class="prompts"><b>2 prompts<\/b><ol><li><a href="#m1">First question<\/a><span class="calls">2 tool calls<\/span><\/li><li><a href="#m3">Second question<\/a><\/li><\/ol><\/nav>/, 'the prompts, linked, with the calls each led to');
  t.match(html, /<button id="fold" type="button" disabled>Open all<\/button>/, 'a button to open every fold');
  t.match(html, /<span class="digest">ls<\/span><span class="purpose">List the files<\/span>/, "the command's description beside it");
  t.match(html, /<ul class="todos"><li class="completed"><span class="mark">☑<\/span>read __init__\.py<\/li><li class="in_progress">[^]*<li class="pending">/, 'the to-do list as a list');
  const md = (await render(['--format', 'md'], input)).out;
  t.match(md, /- \[x\] read \\_\\_init\\_\\_\.py\n- \[ \] \*\(under way\)\* fix it\n- \[ \] test\n/, 'Markdown: a task list');
  t.match(md, /<b>Bash<\/b> <code>ls<\/code> — List the files/, 'Markdown: the description');
});
