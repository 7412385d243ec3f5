// tx-parse reads a line beyond ASCII from its Latin-1 text (parsePhysicalLine with
// headerOnly), which is cheaper to make than its UTF-8 text. That is only right if it
// gives the record the UTF-8 reading gives: these tests compare the two readings on
// lines made to tell them apart (Unicode whitespace where a kind hangs on whitespace,
// broken JSON, values that are not objects, glued objects), on random lines, and on
// every line of the real corpus.
import { readFileSync } from 'node:fs';
import t from 'tap';
import type { PhysicalLine } from '../../lib/core/input/lines.js';
import { parsePhysicalLine } from '../../lib/records/parse-line.js';
import { corpusFiles, prng } from '../helpers.js';

const line = (text: string | Buffer, n = 1): PhysicalLine => ({ n, bytes: Buffer.isBuffer(text) ? text : Buffer.from(text), crlf: false, eol: true, bom: false });

/** The records of a line both ways: as tx-parse reads it, and from its UTF-8 text (the value left out). */
function bothWays(l: PhysicalLine) {
  const fast = parsePhysicalLine(l, 'f', 'claude-code', true).map((r) => ({ header: r.header, bytes: r.lineBytes, problem: r.problem }));
  const full = parsePhysicalLine(l, 'f', 'claude-code', false).map((r) => ({ header: r.header, bytes: r.lineBytes, problem: r.problem }));
  return { fast, full };
}

const user = (content: unknown, extra = {}) => JSON.stringify({ type: 'user', uuid: 'u', sessionId: 's', message: { role: 'user', content }, ...extra });
const codex = (payload: unknown) => JSON.stringify({ timestamp: '2025-01-01T00:00:00Z', type: payload && (payload as any).type === 'user_message' ? 'event_msg' : 'response_item', payload });

// Each of these is classified differently if its text is read as Latin-1: the whitespace
// is U+00A0, U+3000 or U+2028, whose UTF-8 bytes are not whitespace as Latin-1.
const tricky: [string, string][] = [
  ['no-break space before a command envelope', user('\u00a0<command-name>/model</command-name>')],
  ['ideographic space after a command envelope', user('<command-name>/model</command-name>\u3000')],
  ['line separator between envelope elements', user('<command-name>/x</command-name>\u2028<command-args>a</command-args>')],
  ['a block text with a no-break space before the caveat', user([{ type: 'text', text: '\u00a0<local-command-caveat>c</local-command-caveat>' }])],
  ['a local command with Unicode space', JSON.stringify({ type: 'system', subtype: 'local_command', uuid: 'u', content: '\u3000<local-command-stdout>x</local-command-stdout>' })],
  ['a Codex user message led by a no-break space', codex({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '\u00a0<environment_context>x</environment_context>' }] })],
  ['a Codex user_message event that is one element after U+3000', codex({ type: 'user_message', message: '\u3000<foo>bar</foo>' })],
  ['a tool result with non-ASCII text', user([{ type: 'tool_result', tool_use_id: 't', content: 'é\u00a0<command-name>' }])],
  ['an assistant line with non-ASCII', JSON.stringify({ type: 'assistant', uuid: 'a', message: { role: 'assistant', content: [{ type: 'text', text: 'naïve — ok' }] } })],
  ['a key beyond ASCII', JSON.stringify({ typé: 'user', type: 'summary', summary: 'ü' })],
];

t.test('lines whose kind hangs on Unicode whitespace get the UTF-8 reading', async (t) => {
  for (const [name, text] of tricky) {
    const { fast, full } = bothWays(line(text));
    t.same(fast, full, name);
  }
  // The first case is a command under UTF-8 (U+00A0 is \s there): a Latin-1 reading alone would say prompt.
  t.equal(bothWays(line(tricky[0][1])).fast[0].header.kind, 'command', 'the no-break space case is a command, as under UTF-8');
});

t.test('broken and non-object lines beyond ASCII get the UTF-8 message and kind', async (t) => {
  const cases = ['{"type":"user","message":"é', '{"a":"é"} x', '"é"', '["é", 1]', '{"type":"summary","summary":"é"}{"type":"summary","summary":"ü"}', '{"a":"é",}', 'é'];
  for (const text of cases) {
    const { fast, full } = bothWays(line(text));
    t.same(fast, full, JSON.stringify(text));
  }
});

t.test('random lines beyond ASCII: the two readings agree', async (t) => {
  const rnd = prng(20261201);
  const pieces = ['é', '\u00a0', '\u3000', '\u2028', ' ', '<command-name>', '</command-name>', '<x>', '</x>', '<environment_context>', 'text', '😀', '\\u00e9', '"', '\\"', '\t'];
  const text = () => Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => pieces[Math.floor(rnd() * pieces.length)]).join('');
  let n = 0;
  for (let i = 0; i < 2000; i++) {
    const s = text();
    const shapes = [user(s), user([{ type: 'text', text: s }]), codex({ type: 'message', role: 'user', content: [{ type: 'input_text', text: s }] }), codex({ type: 'user_message', message: s }), JSON.stringify({ type: 'system', subtype: 'local_command', content: s })];
    for (const shape of shapes) {
      // Also cut short, to reach the broken-JSON path.
      for (const variant of [shape, shape.slice(0, Math.floor(rnd() * shape.length))]) {
        const { fast, full } = bothWays(line(variant));
        if (JSON.stringify(fast) !== JSON.stringify(full)) t.fail(`differs: ${variant}`);
        n++;
      }
    }
  }
  t.pass(`${n} random lines read alike`);
});

t.test('every line of the real corpus: the two readings agree', async (t) => {
  const files = [...corpusFiles('claude-code'), ...corpusFiles('codex')];
  if (files.length === 0) {
    t.comment('skipped: no corpus beside the repository (../shared/corpus)');
    return;
  }
  let lines = 0;
  let beyond = 0;
  for (const file of files) {
    const data = readFileSync(file);
    let start = 0;
    let n = 0;
    while (start < data.length) {
      let end = data.indexOf(0x0a, start);
      if (end < 0) end = data.length;
      const l = line(data.subarray(start, end), ++n);
      start = end + 1;
      if (!l.bytes.some((b) => b > 0x7f)) continue;
      beyond++;
      const { fast, full } = bothWays(l);
      if (JSON.stringify(fast) !== JSON.stringify(full)) t.fail(`${file}:${n} differs`);
      lines++;
    }
  }
  t.ok(beyond > 100, `${beyond} lines beyond ASCII in the corpus, compared`);
});

t.test('a line that is a record already is known as one, beyond ASCII or not', async (t) => {
  for (const text of ['{"harness":"claude-code","n":1,"kind":"prompt","line":{"type":"user","message":{"content":"hi"}}}', '{"harness":"claude-code","n":1,"kind":"prompt","line":{"type":"user","message":{"content":"héllo\u00a0"}}}']) {
    t.equal(parsePhysicalLine(line(text), 'f', 'claude-code', true)[0].isRecord, true, text);
  }
  t.notOk(parsePhysicalLine(line(user('héllo')), 'f', 'claude-code', true)[0].isRecord, 'a native line is not a record');
});
