// The model's Markdown made HTML (markdown-it): nothing from the text becomes markup
// that runs or loads, nesting of any depth is read without recursion running out, and
// hostile inputs (the pathological cases of the CommonMark reference implementation)
// take time in proportion to their length: eight times the text, well under the
// sixty-four times the time a quadratic parser would take.
import t from 'tap';
import { MARKDOWN_LIMIT, markdownHtml } from '../../lib/render/markdown-html.js';

t.test('raw HTML, script links and images from the text stay text', async (t) => {
  const html = markdownHtml('<img src=x onerror=alert(1)> <script>x</script>\n\n[a](javascript:alert(1)) [b](vbscript:x) [c](data:text/html,x) ![i](https://example.com/i.png)\n\n<div onclick="x">d</div>');
  t.notMatch(html, /<img|<script|<div onclick|href="(javascript|vbscript|data):/i);
  t.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
});

t.test('nesting 100,000 deep is read without running out of stack', async (t) => {
  for (const text of ['> '.repeat(100_000) + 'a', '- '.repeat(100_000) + 'a', '*'.repeat(100_000) + 'a' + '*'.repeat(100_000), '['.repeat(100_000) + 'a' + ']'.repeat(100_000)]) {
    t.doesNotThrow(() => markdownHtml(text), `${JSON.stringify(text.slice(0, 6))}…`);
  }
});

const HOSTILE: Record<string, (n: number) => string> = {
  'nested emphasis': (n) => '*a **a '.repeat(n) + 'b' + ' a** a*'.repeat(n),
  'emphasis closers alone': (n) => 'a_ '.repeat(n),
  'link openers alone': (n) => '[a'.repeat(n),
  'mismatched emphasis': (n) => '*a_ '.repeat(n),
  'links and emphasis': (n) => '[ a_'.repeat(n),
  'nested brackets': (n) => '['.repeat(n) + 'a' + ']'.repeat(n),
  'nested quotes': (n) => '> '.repeat(n) + 'a',
  'unclosed links': (n) => '[a](<b'.repeat(n),
  'unclosed comments': (n) => '</' + '<!--'.repeat(n),
  'table rows': (n) => '|a|b|\n|-|-|\n' + '|x\n'.repeat(n),
  'reference definitions': (n) => Array.from({ length: n }, (_, i) => `[${i}]: u\n`).join('') + '[0] '.repeat(n),
};

const time = (f: () => void) => {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    f();
    best = Math.min(best, performance.now() - start);
  }
  return best;
};

t.test('hostile Markdown takes time in proportion to its length', async (t) => {
  for (const [name, make] of Object.entries(HOSTILE)) {
    // Sized so the larger text is near the longest one parsed as Markdown.
    const unit = make(1).length;
    const n = Math.floor(MARKDOWN_LIMIT / 8 / unit);
    const small = make(n);
    const large = make(8 * n);
    const ts = time(() => markdownHtml(small));
    const tl = time(() => markdownHtml(large));
    t.ok(tl < 24 * Math.max(ts, 10), `${name}: ${small.length} characters in ${ts.toFixed(0)} ms, ${large.length} in ${tl.toFixed(0)} ms`);
  }
});
