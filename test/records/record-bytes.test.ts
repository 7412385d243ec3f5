import t from 'tap';
import { lineEnd, type RecordHeader } from '../../lib/record.js';
import { decodeRecord, encodeRecord, nativeBytes, recordView } from '../../lib/records/record-bytes.js';

const header: RecordHeader = { harness: 'claude-code', n: 3, src: 'a "b".jsonl', kind: 'prompt' };

t.test('an encoded record decodes to the same header and the very same line bytes', async (t) => {
  const line = Buffer.from(' {"type":"user","x":"\\u00e9 é","n":1.50}  ');
  const rec = Buffer.concat(encodeRecord(header, line));
  t.equal(rec.subarray(-2).toString(), '}\n');
  const view = decodeRecord(rec.subarray(0, -1))!;
  t.same(view.header, header);
  t.same(view.lineBytes, line, 'spacing, escapes and number spelling survive');
  t.same(view.value(), { type: 'user', x: 'é é', n: 1.5 });
});

t.test('a record whose line is no longer the last key falls back to re-serialising it', async (t) => {
  const rec = Buffer.from('{"harness":"claude-code","n":1,"kind":"other","line":{"a":{}},"added":{}}');
  const view = decodeRecord(rec, true)!;
  t.same(view.lineBytes?.toString(), '{"a":{}}');
  t.same((view.header as any).added, {}, 'verified at once, the header has every key');
  const lazy = decodeRecord(rec)!;
  t.same(lazy.value(), { a: {} }, 'checked when parsed: the line, not the bytes after it');
  t.same(lazy.lineBytes?.toString(), '{"a":{}}', 'checked when its bytes are asked for');
  const lazyBytes = decodeRecord(rec)!;
  t.same(lazyBytes.lineBytes?.toString(), '{"a":{}}', 'bytes asked for before any parse');
});

t.test('a pretty-printed record still decodes', async (t) => {
  const rec = Buffer.from(JSON.stringify({ harness: 'claude-code', n: 1, kind: 'meta', line: { type: 'mode' } }, null, 1).replace(/\n/g, ' '));
  const view = decodeRecord(rec)!;
  t.same(view.value(), { type: 'mode' });
});

t.test('invalid records carry raw text or bytes instead of a line', async (t) => {
  const text = decodeRecord(Buffer.concat(encodeRecord({ harness: 'claude-code', n: 1, kind: 'invalid', raw: '{"a":', error: 'x' }, null)).subarray(0, -1))!;
  t.equal(text.lineBytes, null);
  t.same(nativeBytes(text), Buffer.from('{"a":'));
  const bin = decodeRecord(Buffer.from(JSON.stringify({ harness: 'claude-code', n: 1, kind: 'invalid', raw_base64: Buffer.from([0xff, 0x00]).toString('base64') })))!;
  t.same(nativeBytes(bin), Buffer.from([0xff, 0x00]));
});

t.test('things that are not records decode to null', async (t) => {
  for (const text of ['{"type":"user"}', '[1]', 'nope', '{"harness":"x","kind":"y"}']) t.equal(decodeRecord(Buffer.from(text)), null, text);
});

t.test('line ends: LF by default, CR LF, none', async (t) => {
  t.equal(lineEnd(header), '\n');
  t.equal(lineEnd({ ...header, crlf: true }), '\r\n');
  t.equal(lineEnd({ ...header, eol: false }), '');
});

t.test('value(unread): a cut record and a native view skip that key\'s value, and a later value() parses the line whole', async (t) => {
  const line = { type: 'user', message: { content: 'hi' }, toolUseResult: { file: { content: 'the whole file' } }, uuid: 'u1' };
  const lineBytes = Buffer.from(JSON.stringify(line));
  const cut = decodeRecord(Buffer.concat(encodeRecord(header, lineBytes)).subarray(0, -1))!;
  const native = recordView(header, lineBytes);
  for (const [name, view] of [['cut from a record', cut], ['a native line', native]] as const) {
    t.same(view.value('toolUseResult'), { ...line, toolUseResult: null }, `${name}: skipped`);
    t.same(view.value('toolUseResult'), { ...line, toolUseResult: null }, `${name}: asked again, the same`);
    t.same(view.value(), line, `${name}: whole when asked without`);
    t.same(view.value('toolUseResult'), line, `${name}: once whole, whole`);
    t.same(view.lineBytes, lineBytes, `${name}: the bytes untouched`);
  }
  const parsed = recordView(header, lineBytes, line);
  t.equal(parsed.value('toolUseResult'), line, 'a view made with its value gives that value');
});

t.test('a cut record asked for its bytes after value(unread) gives them verbatim, not re-serialised', async (t) => {
  const line = Buffer.from('{"type":"user", "n":1.50, "toolUseResult":{"x":"\\u00e9"}}');
  const view = decodeRecord(Buffer.concat(encodeRecord(header, line)).subarray(0, -1))!;
  t.same(view.value('toolUseResult'), { type: 'user', n: 1.5, toolUseResult: null });
  t.same(view.lineBytes, line, 'spacing, escapes and number spelling survive');
});

t.test('value(unread) on a record whose line is not its last key: the whole record is parsed, as value() does', async (t) => {
  const rec = Buffer.from('{"harness":"claude-code","n":1,"kind":"other","line":{"toolUseResult":{"a":1},"b":2},"added":{}}');
  t.same(decodeRecord(rec)!.value('toolUseResult'), { toolUseResult: { a: 1 }, b: 2 });
});
