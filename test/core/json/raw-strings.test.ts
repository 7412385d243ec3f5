// Long strings carried as bytes: a line parses to what JSON.parse gives, but for markers
// where the value passes through; written back, a message's JSON text is what
// JSON.stringify gives for the decoded message. Only strings whose bytes JSON.stringify
// would write alike are carried.
import t from 'tap';
import { RawStrings, type PassesThrough, type TextSink } from '../../../lib/core/json/raw-strings.js';
import { prng } from '../../helpers.js';

const passes: PassesThrough = (holder, key) => key === 'content' && holder.type === 'tool_result';

/** A sink gathering what is written, as one string. */
function sink(): TextSink & { text(): string } {
  const parts: Buffer[] = [];
  return { write: (d) => void parts.push(Buffer.from(d)), text: () => Buffer.concat(parts).toString('utf8') };
}

/** `raw.write` of `value`'s JSON text, as a string. */
function written(raw: RawStrings, value: unknown): string {
  const out = sink();
  raw.write(JSON.stringify(value), out);
  return out.text();
}

/** RawStrings.parse of a whole line: undefined when it carries nothing. */
const carried = (raw: RawStrings, line: Buffer, unread: string | null = null) => raw.parse(line, 0, line.length, null, unread, passes) as any;
/** A line as tx-common reads it: carried, else parsed as usual. */
const parsed = (raw: RawStrings, line: Buffer) => carried(raw, line) ?? JSON.parse(line.toString('utf8'));
const long = (c: string) => c.repeat(5000);

t.test('a long string that passes through is held as bytes; one that does not is decoded at once', async (t) => {
  const raw = new RawStrings();
  const text = { a: long('é'), b: { type: 'tool_result', content: long('x"y\n') }, toolUseResult: { file: long('z') }, n: 1 };
  const v = carried(raw, Buffer.from(JSON.stringify(text)), 'toolUseResult');
  t.equal(v.a, text.a, 'a value that does not pass through is the decoded string');
  t.equal(v.b.content.charCodeAt(0), 0, 'a value that passes through is a marker');
  t.not(v.b.content, text.b.content);
  t.equal(v.toolUseResult, null, 'the unread value is null');
  t.equal(v.n, 1);
  t.equal(raw.size, 1, 'one string held');
  t.equal(written(raw, { m: v.b }), JSON.stringify({ m: text.b }), 'written back from its bytes: the JSON text of the decoded value');
  t.equal(raw.size, 0, 'let go once written');
});

t.test('short lines and lines without a long string are left to JSON.parse', async (t) => {
  const raw = new RawStrings();
  t.equal(carried(raw, Buffer.from('{"type":"tool_result","content":"short"}')), undefined, 'a short line');
  t.equal(carried(raw, Buffer.from(JSON.stringify({ many: Array(2000).fill('ab') }))), undefined, 'a long line of short strings');
  t.equal(carried(raw, Buffer.from(JSON.stringify({ [long('k')]: 1 }))), undefined, 'a long key is not carried');
  t.equal(carried(raw, Buffer.from(JSON.stringify([{ type: 'tool_result', content: long('a') }]))), undefined, 'a line that is not an object');
});

t.test('the bytes between start and end are the line: a record is read in place', async (t) => {
  const raw = new RawStrings();
  const line = JSON.stringify({ type: 'tool_result', content: long('q') });
  const record = Buffer.from(`{"harness":"claude-code","kind":"tool-result","line":${line}}`);
  const start = record.indexOf('{"type"');
  const v = raw.parse(record, start, start + line.length, null, null, passes) as any;
  t.equal(written(raw, v), line);
});

/** Characters JSON text may hold, and the ways it may write them. */
const PIECES: [string, string[]][] = [
  ['a', ['a']],
  [' ', [' ']],
  ['"', ['\\"', '\\u0022']],
  ['\\', ['\\\\', '\\u005c', '\\u005C']],
  ['/', ['/', '\\/']],
  ['\n', ['\\n', '\\u000a', '\\u000A']],
  ['\b', ['\\b', '\\u0008']],
  ['\u001b', ['\\u001b', '\\u001B']],
  ['\u0000', ['\\u0000']],
  ['\u007f', ['\u007f', '\\u007f']],
  ['é', ['é', '\\u00e9']],
  ['\u2028', ['\u2028', '\\u2028']],
  ['😀', ['😀', '\\ud83d\\ude00', '\\uD83D\\uDE00']],
  ['\ud800', ['\\ud800', '\\uD800']],
];

t.test('property: any way of writing a long string parses and writes back as JSON.parse and JSON.stringify do; only the canonical ones are held', async (t) => {
  const rand = prng(13);
  for (let round = 0; round < 300; round++) {
    const canonical = rand() < 0.5;
    let text = '';
    let json = '';
    while (json.length < 4200) {
      const [ch, forms] = PIECES[Math.floor(rand() * PIECES.length)];
      text += ch;
      // A canonical string is written as JSON.stringify writes it; another may use any form.
      json += canonical ? JSON.stringify(ch).slice(1, -1) : forms[Math.floor(rand() * forms.length)];
    }
    const isCanonical = JSON.stringify(text) === `"${json}"`;
    const line = Buffer.from(`{"type":"tool_result","content":"${json}","other":"${json}","list":["${json}"]}`);
    const want = JSON.parse(line.toString('utf8'));
    const raw = new RawStrings();
    const v = parsed(raw, line);
    // A lone surrogate's escape is canonical too, but is left to JSON.parse (a rare case not worth the check).
    const lone = /\\ud[89a-f]/.test(json);
    t.equal(raw.size, isCanonical && !lone ? 1 : 0, `round ${round}: held only when written as JSON.stringify writes it`);
    t.equal(v.other, want.other, `round ${round}: not passing through, decoded`);
    t.same(v.list, want.list, `round ${round}: in an array, decoded`);
    t.equal(written(raw, v), JSON.stringify(want), `round ${round}: written back as JSON.stringify writes the decoded line`);
    t.equal(raw.size, 0);
  }
});

t.test('bytes that are not UTF-8 are decoded, as JSON.parse of the text does', async (t) => {
  const raw = new RawStrings();
  const line = Buffer.concat([Buffer.from('{"type":"tool_result","content":"'), Buffer.from(long('a')), Buffer.from([0xff, 0xc3]), Buffer.from('"}')]);
  const v = parsed(raw, line);
  t.equal(raw.size, 0, 'not held');
  t.equal(written(raw, v), JSON.stringify(JSON.parse(line.toString('utf8'))));
});

t.test('a control byte in a long string makes the line fail as JSON.parse fails', async (t) => {
  const raw = new RawStrings();
  const line = Buffer.from(`{"type":"tool_result","content":"${long('a')}\t${long('b')}"}`);
  t.throws(() => parsed(raw, line), SyntaxError);
  t.equal(raw.size, 0, 'nothing held from a line that failed');
});

t.test('a key named __proto__ stays data when its long string is decoded', async (t) => {
  const raw = new RawStrings();
  const line = Buffer.from(`{"__proto__":"${long('p')}","x":{"__proto__":"${long('q')}"}}`);
  const v = parsed(raw, line);
  t.equal(Object.getPrototypeOf(v), Object.prototype, 'the prototype is untouched');
  t.equal(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, long('p'), 'an own property');
  t.equal(Object.getOwnPropertyDescriptor(v.x, '__proto__')?.value, long('q'));
});

t.test('a marker joined to other text is written with it', async (t) => {
  const raw = new RawStrings();
  const v = parsed(raw, Buffer.from(JSON.stringify({ type: 'tool_result', content: long('x\ty') })));
  t.equal(written(raw, { joined: `<${v.content}>` }), JSON.stringify({ joined: `<${long('x\ty')}>` }));
});

t.test('a marker written twice is an error, not a wrong output', async (t) => {
  const raw = new RawStrings();
  const v = parsed(raw, Buffer.from(JSON.stringify({ type: 'tool_result', content: long('x') })));
  parsed(raw, Buffer.from(JSON.stringify({ type: 'tool_result', content: long('w') })));
  written(raw, v);
  t.throws(() => written(raw, v), /written twice/, 'while other strings are held, a marker already written is noticed');
});

t.test('held bytes have a limit; the strings of lines taken and never written are let go of', async (t) => {
  const raw = new RawStrings(4096, 64 * 1024);
  const line = () => Buffer.from(JSON.stringify({ type: 'tool_result', content: long('y'.repeat(8)) }));
  const values: object[] = [];
  for (let i = 0; i < 8; i++) {
    const v = carried(raw, line());
    if (v !== undefined) values.push(v);
  }
  // Each line is its own buffer of about 40 KB: the second goes past 64 KB.
  t.equal(values.length, 2, 'lines past the limit are left to JSON.parse');
  raw.forgetTaken();
  t.equal(raw.size, 2, 'nothing was taken: nothing is let go of');
  raw.taken(values[1]);
  raw.forgetTaken();
  t.equal(raw.size, 0, 'a line taken stands for every line parsed before it');
  const a = carried(raw, line());
  t.not(a, undefined, 'carried again');
  carried(raw, line());
  raw.taken(a);
  raw.forgetTaken();
  t.equal(raw.size, 1, 'a line parsed after the last one taken keeps its string');
  raw.taken({});
  raw.forgetTaken();
  t.equal(raw.size, 1, 'a value parse did not give changes nothing');
  raw.clear();
  t.equal(raw.size, 0);
});

t.test("with a key to scan, only that value's long strings are carried; the rest is parsed whole", async (t) => {
  const raw = new RawStrings();
  const text = { type: 'user', message: { content: [{ type: 'tool_result', content: long('r') }] }, other: { type: 'tool_result', content: long('s') } };
  const line = Buffer.from(JSON.stringify(text));
  const v = raw.parse(line, 0, line.length, 'message', null, passes) as any;
  t.equal(raw.size, 1, "only the message's string is held");
  t.equal(v.other.content, text.other.content, 'a value outside it is decoded by JSON.parse');
  t.equal(written(raw, v), JSON.stringify(text));
  const bad = Buffer.from(`{"message":{"content":[{"type":"tool_result","content":"${long('r')}"}]},"other":{"a":[1,]}}`);
  t.throws(() => raw.parse(bad, 0, bad.length, 'message', null, passes), SyntaxError, 'bytes that are not JSON outside it fail');
  t.equal(raw.size, 0, 'nothing held from a line that failed');
  t.not(raw.parse(bad, 0, bad.length, 'message', 'other', passes), undefined, 'an unread value is skipped unchecked (the trade records make)');
  raw.clear();
  const none = Buffer.from(JSON.stringify({ type: 'user', content: [{ type: 'tool_result', content: long('q') }] }));
  t.equal(raw.parse(none, 0, none.length, 'message', null, passes), undefined, 'a line without the key is parsed as usual');
});
