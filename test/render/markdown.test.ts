// tx-render --format md read back with marked's lexer: one turn heading per Common
// message, tool calls folded in <details>, file changes as diff code blocks, and no
// HTML or script link that came from the transcript.
import path from 'node:path';
import { marked, type Token, type Tokens } from 'marked';
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { commonTool } from '../../lib/commands/common.js';
import { parseTool } from '../../lib/commands/parse.js';
import { renderTool } from '../../lib/commands/render.js';
import { corpusFiles, repo, runBin, runTool } from '../helpers.js';
import { recordedSessionFiles } from '../harness/index.js';

/** Every token of a Markdown document, nested ones included (walked with a stack, not recursion). */
function allTokens(md: string): Token[] {
  const out: Token[] = [];
  const stack: Token[] = [...marked.lexer(md)].reverse();
  while (stack.length > 0) {
    const tok = stack.pop()!;
    out.push(tok);
    const children = [...(((tok as { tokens?: Token[] }).tokens ?? []) as Token[]), ...(((tok as { items?: Token[] }).items ?? []) as Token[])];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return out;
}

const TURN_HEADING = /^## <a id="(s\d+-)?m\d+"><\/a>\d+\. (User|Assistant|Context)\n*$/;
/** The only tags tx-render writes into Markdown. */
const OWN_TAG = /^(<\/?(details|summary|sub|code|b)>|<a id="[A-Za-z0-9_-]+">|<\/a>)$/;

const messages = (common: Buffer) => common.toString('utf8').split('\n').filter((l) => l.startsWith('{"type":"message"')).length;

/** Check a document's structure against the Common stream it came from. */
function checkStructure(t: Test, md: string, expected: number, what: string) {
  const tokens = allTokens(md);
  const turns = tokens.filter((x) => x.type === 'heading' && (x as Tokens.Heading).depth === 2 && TURN_HEADING.test(x.raw));
  // A message that only answers calls is shown inside them: its anchor stays, alone.
  const anchors = tokens.filter((x) => x.type === 'paragraph' && /^<a id="(s\d+-)?m\d+"><\/a>\n*$/.test(x.raw));
  t.equal(turns.length + anchors.length, expected, `${what}: ${expected} turn headings and lone anchors, as Common has messages`);
  const html = tokens
    .filter((x) => x.type === 'html')
    .map((x) => x.raw.trim())
    .filter((raw) => !(raw.match(/<[^>]*>/g) ?? []).every((tag) => OWN_TAG.test(tag)) || /<(?![/a-z])|^[^<]/.test(raw.replace(/<[^>]*>[^<]*/g, '')));
  t.same(html, [], `${what}: no HTML but tx-render's own`);
  const links = tokens.filter((x) => x.type === 'link').map((x) => (x as Tokens.Link).href).filter((href) => /^\s*(javascript|vbscript|data):/i.test(href));
  t.same(links, [], `${what}: no link to a script URL`);
  const blocks = tokens.filter((x) => x.type === 'html').map((x) => x.raw.trim());
  const opens = blocks.filter((raw) => raw.startsWith('<details>')).length;
  const closes = blocks.filter((raw) => raw === '</details>').length;
  t.equal(opens, closes, `${what}: every <details> is closed (${opens})`);
}

for (const file of recordedSessionFiles()) {
  const name = path.basename(file.split('/projects/')[0]);
  t.test(`recorded ${name}: Markdown parses back to one turn per message`, async (t) => {
    const flags = name === 'subagent' ? ['--subagents'] : [];
    const common = (await runBin('tx-common', flags, (await runBin('tx-parse', [file])).stdout)).stdout;
    const r = await runBin('tx-render', ['--format', 'md', ...flags, file]);
    t.equal(r.status, 0);
    t.equal(r.stderr, '');
    checkStructure(t, r.stdout.toString('utf8'), messages(common), name);
  });
}

t.test('tools: the Edit is a diff code block, the Bash call a folded block with its command and result', async (t) => {
  const file = recordedSessionFiles().find((f) => f.includes('/tools/'));
  if (!file) return void t.pass('skipped: no recorded tools fixture');
  const md = (await runBin('tx-render', ['--format', 'md', file])).stdout.toString('utf8');
  const codes = allTokens(md).filter((x) => x.type === 'code') as Tokens.Code[];
  const diffs = codes.filter((c) => c.lang === 'diff');
  t.ok(diffs.some((d) => d.text.includes('\n-second line\n+second line, edited')), 'the Edit as -old +new lines');
  t.ok(diffs.some((d) => d.text.includes('@@ -0,0 +1,2 @@\n+first line\n+second line')), 'the Write as added lines');
  t.ok(codes.some((c) => c.lang === 'sh' && c.text === 'echo hello from bash'), 'the Bash command in an sh block');
  t.ok(codes.some((c) => c.text === 'hello from bash'), 'its result in a block of its own');
  t.match(md, /<details>\n<summary><a id="t-toolu_01BashOk000000000000001"><\/a><b>Bash<\/b> <code>echo hello from bash<\/code> — Print a greeting<\/summary>/, 'the call folded under a summary naming it and what it is for');
});

t.test('hostile: markup in the transcript stays text in Markdown', async (t) => {
  const file = repo('fixtures', 'render', 'hostile.common.jsonl');
  const r = await runBin('tx-render', ['--format', 'md', file]);
  t.equal(r.status, 0);
  const md = r.stdout.toString('utf8');
  checkStructure(t, md, 5, 'hostile');
  const html = await marked.parse(md);
  t.notMatch(html, /<script/i, 'no <script> element when the Markdown is turned into HTML');
  t.notMatch(html, /<(img|svg)[^>]*\son\w+=/i, 'no element with an event handler');
  t.notMatch(html, /href="\s*javascript:/i, 'no javascript: link');
  t.match(html, /&lt;script&gt;window.__pwned=1/, 'the script shown as text');
});

t.test('a Markdown fence in a reply cannot swallow the turns after it', async (t) => {
  const lines = [
    { type: 'session', harness: 'claude-code', id: 's' },
    { type: 'message', id: '1', role: 'assistant', content: [{ type: 'text', text: 'open fence\n```js\nlet x = 1;' }] },
    { type: 'message', id: '2', role: 'user', content: [{ type: 'text', text: 'a ```` run and </details>' }] },
    { type: 'message', id: '3', role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'Bash', input: { command: 'printf "```\\n"' }, tool: { kind: 'bash', command: 'printf "```\\n"' } }] },
  ];
  const r = await runBin('tx-render', ['--format', 'md'], lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  checkStructure(t, r.stdout.toString('utf8'), 3, 'fences');
});

const corpus = corpusFiles('claude-code');
if (corpus.length === 0) t.comment('no corpus beside the checkout: corpus sweep skipped');
t.test('corpus: Markdown of every file parses back to one turn per message, with no stray HTML', async (t) => {
  for (const file of corpus) {
    const records = (await runTool(parseTool, [], [readFileSync(file)])).stdout;
    const common = (await runTool(commonTool, [], [records])).stdout;
    const r = await runTool(renderTool, ['--format', 'md'], [common]);
    t.equal(r.status, 0, `${path.basename(file)}: exit 0`);
    t.notMatch(r.stderr, /internal error/, `${path.basename(file)}: no internal error`);
    checkStructure(t, r.stdout.toString('utf8'), messages(common), path.basename(file));
  }
});
