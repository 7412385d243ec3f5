import t from 'tap';
import { splitLines, type PhysicalLine } from '../../../lib/core/input/lines.js';

async function collect(chunks: Buffer[]): Promise<PhysicalLine[]> {
  const out: PhysicalLine[] = [];
  for await (const l of splitLines((async function* () { yield* chunks; })())) out.push(l);
  return out;
}

/** Rebuild the original bytes from the lines the reader reported. */
function rebuild(lines: PhysicalLine[]): Buffer {
  const parts: Buffer[] = [];
  for (const l of lines) {
    if (l.bom) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
    parts.push(l.bytes);
    if (l.eol) parts.push(Buffer.from(l.crlf ? '\r\n' : '\n'));
  }
  return Buffer.concat(parts);
}

t.test('an empty stream has no lines', async (t) => {
  t.same(await collect([]), []);
  t.same(await collect([Buffer.alloc(0)]), []);
});

t.test('a last line without newline is a line with eol false', async (t) => {
  const lines = await collect([Buffer.from('a\nb')]);
  t.same(lines.map((l) => [l.n, l.bytes.toString(), l.eol]), [[1, 'a', true], [2, 'b', false]]);
});

t.test('CR LF is removed from the bytes and reported per line', async (t) => {
  const lines = await collect([Buffer.from('a\r\nb\nc\r\n')]);
  t.same(lines.map((l) => [l.bytes.toString(), l.crlf]), [['a', true], ['b', false], ['c', true]]);
});

t.test('a CR without a following LF at the end stays in the bytes', async (t) => {
  const lines = await collect([Buffer.from('a\r')]);
  t.same(lines.map((l) => [l.bytes.toString(), l.crlf, l.eol]), [['a\r', false, false]]);
});

t.test('a BOM is removed from line 1 only', async (t) => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const lines = await collect([Buffer.concat([bom, Buffer.from('x\n'), bom, Buffer.from('y\n')])]);
  t.equal(lines[0].bom, true);
  t.equal(lines[0].bytes.toString(), 'x');
  t.equal(lines[1].bom, false);
  t.same(lines[1].bytes, Buffer.concat([bom, Buffer.from('y')]));
});

t.test('blank lines are lines', async (t) => {
  const lines = await collect([Buffer.from('\n\n \n')]);
  t.same(lines.map((l) => l.bytes.toString()), ['', '', ' ']);
});

t.test('the same lines whatever the chunking: split at every byte offset, and one byte at a time', async (t) => {
  const input = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\r\n\n{"b":"é\\n"}\nx\r\n\r\nlast')]);
  const whole = await collect([input]);
  t.same(rebuild(whole), input, 'the lines rebuild the input');
  for (let i = 0; i <= input.length; i++) {
    const parts = await collect([input.subarray(0, i), input.subarray(i)]);
    t.same(parts, whole, `split at ${i}`);
  }
  const bytes = await collect([...input].map((b) => Buffer.from([b])));
  t.same(bytes, whole, 'one byte per chunk');
});

t.test('random bytes in random chunks always rebuild the input', async (t) => {
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const alphabet = [0x0a, 0x0d, 0x7b, 0x7d, 0x22, 0x61, 0xef, 0xbb, 0xbf, 0xff, 0x00];
  for (let round = 0; round < 300; round++) {
    const input = Buffer.from(Array.from({ length: rnd(60) }, () => alphabet[rnd(alphabet.length)]));
    const chunks: Buffer[] = [];
    for (let i = 0; i < input.length; ) {
      const k = 1 + rnd(8);
      chunks.push(input.subarray(i, i + k));
      i += k;
    }
    const lines = await collect(chunks);
    t.same(rebuild(lines), input, `round ${round}`);
    t.same(lines.map((l) => l.n), lines.map((_, i) => i + 1), 'numbered 1..N');
  }
});

t.test('a 64 MB line arriving in 64 KB chunks comes out whole, in linear time', async (t) => {
  const size = 64 * 1024 * 1024;
  const line = Buffer.alloc(size, 0x61);
  const chunks: Buffer[] = [];
  for (let i = 0; i < size; i += 65536) chunks.push(line.subarray(i, i + 65536));
  chunks.push(Buffer.from('\nnext\n'));
  const started = Date.now();
  const lines = await collect(chunks);
  const ms = Date.now() - started;
  t.equal(lines.length, 2);
  t.equal(lines[0].bytes.length, size);
  t.ok(ms < 20000, `took ${ms} ms (a quadratic splitter takes minutes)`);
});
