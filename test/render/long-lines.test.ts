// Lines too long to hold, shortened as they are read: the result is JSON whatever the
// cut points and the piece boundaries, strings are cut only between characters and
// escapes and say what they lost, a line that fits is kept byte for byte, and a line
// whose structure alone passes the limit is given up, not joined.
import t from 'tap';
import { LineShortener, renderLines } from '../../lib/render/long-lines.js';
import { jsonView } from '../../lib/render/json-view.js';

const shorten = (line: Buffer, keep: number, step: number, max = 1e7) => {
  const s = new LineShortener(keep, max);
  for (let i = 0; i < line.length; i += step) s.push(line.subarray(i, i + step));
  return s.end();
};

t.test('cut at any budget and fed in pieces of any size, a line stays JSON', async (t) => {
  const values = [
    { a: 'x'.repeat(50), b: 'short', c: 'é'.repeat(40), d: '\\"quoted\\" \u00e9 \n\t'.repeat(10), e: [1, 2, { f: 'y'.repeat(30) }] },
    { s: '\u{1F600}'.repeat(30), t: '\u0000\u001f\ud800'.repeat(9) },
  ];
  let bad = 0;
  let checked = 0;
  for (const v of values) {
    const line = Buffer.from(JSON.stringify(v));
    for (let keep = 0; keep < 40; keep++) {
      for (const step of [1, 2, 3, 5, 7, 64, 4096]) {
        const out = shorten(line, keep, step)!;
        checked++;
        try {
          JSON.parse(out.toString('utf8'));
        } catch {
          bad++;
        }
      }
    }
  }
  t.equal(bad, 0, `${checked} cuts, every one JSON`);
});

t.test('a cut string keeps its first bytes and says how many it left out', async (t) => {
  const out = JSON.parse(shorten(Buffer.from(JSON.stringify({ a: 'x'.repeat(100), b: 'kept' })), 10, 7)!.toString('utf8'));
  t.same(out, { a: 'x'.repeat(10) + '\n[90 more bytes of this text left out by tx-render]', b: 'kept' });
});

t.test('a line within the budget is kept byte for byte', async (t) => {
  const line = Buffer.from(JSON.stringify({ a: 'é\\"'.repeat(100), n: [1, { b: null }] }));
  t.ok(shorten(line, 1e6, 3)!.equals(line));
});

t.test('once half the limit is kept, strings keep 4 KiB each from there on', async (t) => {
  const line = Buffer.from(JSON.stringify({ texts: Array.from({ length: 8 }, () => 'z'.repeat(100_000)) }));
  const out = JSON.parse(shorten(line, 100_000, 65536, 400_000)!.toString('utf8'));
  const kept = out.texts.map((s: string) => s.replace(/\n\[.*\]$/, '').length);
  t.equal(kept[0], 100_000, 'the first string whole');
  t.ok(kept[1] > 4096 && kept[1] < 100_000, `the second cut where the line passed half the limit (${kept[1]})`);
  t.same(kept.slice(2), [4096, 4096, 4096, 4096, 4096, 4096], 'the others 4 KiB each');
});

t.test('a line whose structure alone passes the limit is given up', async (t) => {
  const line = Buffer.from(JSON.stringify({ n: Array.from({ length: 5000 }, (_, i) => i) }));
  t.equal(shorten(line, 10, 100, 1000), null);
});

t.test('renderLines: short lines whole, a long one shortened with its length', async (t) => {
  const long = JSON.stringify({ text: 'q'.repeat(5000) });
  const input = ['{"a":1}', long, '{"b":2}'].join('\n') + '\n';
  const buf = Buffer.from(input);
  const pieces = Array.from({ length: Math.ceil(buf.length / 777) }, (_, i) => buf.subarray(i * 777, (i + 1) * 777));
  const lines = [];
  for await (const l of renderLines((async function* () {
    yield* pieces;
  })(), 1000))
    lines.push(l);
  t.equal(lines.length, 3);
  t.equal(lines[0].bytes!.toString(), '{"a":1}');
  t.equal(lines[1].shortened, long.length, 'the long line says its length');
  t.match(JSON.parse(lines[1].bytes!.toString()).text, /^q{1000}\n\[4,000 more bytes/);
  t.equal(lines[2].bytes!.toString(), '{"b":2}');
});

t.test('jsonView: JSON.stringify with indent 2 where that can be written, any depth past it', async (t) => {
  for (const v of [null, 1, 'a"b', [], {}, [1, [2, [3]], { a: { b: [] } }], { k: 'v', n: [true, false, null], u: undefined }]) t.equal(jsonView(v).text, JSON.stringify(v, null, 2) ?? 'null');
  const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
  const view = jsonView(deep, 5000);
  t.ok(view.cut, 'a value nested 100,000 deep is cut at the budget');
  t.equal(view.text.length, 5000);
  t.ok(view.text.split('\n').every((l) => l.length <= 2 * 24 + 2), 'indentation stops growing');
});

t.test("an image's base64 is kept up to 2 MiB where text is cut at the budget", async (t) => {
  const data = 'iVBORw0KGgo'.repeat(60_000);
  const line = Buffer.from(JSON.stringify({ content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }, { type: 'text', text: 'data'.repeat(100_000) }, { image_url: `data:image/png;base64,${data}` }] }));
  const out = JSON.parse(shorten(line, 256 * 1024, 65536, 8 * 1024 * 1024)!.toString('utf8'));
  t.equal(out.content[0].source.data, data, 'the image data whole');
  t.match(out.content[1].text, /^(data){65536}\n\[/, 'the text cut (a string "data" is not a key)');
  t.equal(out.content[2].image_url.length, 'data:image/png;base64,'.length + data.length, "Codex's image_url whole");
});
