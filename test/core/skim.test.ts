import t from 'tap';
import { parseSkimmed, skimPaths, type SkimSpec } from '../../lib/core/skim.js';
import { prng } from '../helpers.js';

const skim = (text: string, spec: SkimSpec) => {
  const buf = Buffer.from(text);
  return parseSkimmed(buf, 0, buf.length, skimPaths(spec));
};

/** A case as ASCII, so that a test name never holds a line separator. */
const show = (text: string) => JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** JSON.parse's value with the strings at the spec's paths emptied, written here the plain way. */
function expected(value: unknown, spec: SkimSpec): unknown {
  if (spec === 'keep') return value;
  if (typeof value === 'string') return spec === 'all' || spec.self ? '' : value;
  if (Array.isArray(value)) return value.map((v) => expected(v, spec === 'all' ? 'all' : (spec.item ?? 'keep')));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = expected(v, spec === 'all' ? 'all' : (spec.keys?.[k] ?? spec.anyKey ?? 'keep'));
    return out;
  }
  return value;
}

const SPEC: SkimSpec = {
  keys: {
    big: 'all',
    message: { keys: { content: { self: true, item: { keys: { text: 'all', input: { anyKey: 'all', keys: { skill: 'keep' } } } } } } },
  },
};

t.test('the strings at the named paths become "" and nothing else changes', async (t) => {
  const line = {
    type: 'user',
    big: { stdout: 'lots\n"of"\\ output \u00e9\u{1f600}', n: 3, nested: [{ s: 'x' }, 'y', null] },
    message: {
      content: [
        { type: 'text', text: 'hello', other: 'kept' },
        { type: 'tool_use', name: 'Skill', input: { skill: 'review', args: 'long args', deep: { a: 'b' } } },
      ],
    },
    text: 'top-level text is not under a named path',
  };
  const text = JSON.stringify(line);
  t.same(skim(text, SPEC), expected(line, SPEC));
  t.equal(skim(text, SPEC).message.content[1].input.skill, 'review', 'a kept key under a skipped key stays');
  t.equal(skim(text, SPEC).big.n, 3, 'numbers under a skipped path stay');
  const asString = { type: 'user', message: { content: 'a prompt as a string' } };
  t.same(skim(JSON.stringify(asString), SPEC), { type: 'user', message: { content: '' } }, 'self: the string at the path itself');
});

t.test('keys spelled with escapes are matched by what they say', async (t) => {
  t.same(skim('{"\\u0062ig":"gone","b\\"":"kept"}', SPEC), { big: '', 'b"': 'kept' });
});

t.test('whitespace anywhere JSON allows it', async (t) => {
  const text = ' {\n "big" : [ "a" , { "k" : "v" } ] ,\r\n\t"message":{"content" : "x"} } ';
  t.same(skim(text, SPEC), { big: ['', { k: '' }], message: { content: '' } });
});

t.test('throws exactly when JSON.parse throws, whatever a skipped string holds', async (t) => {
  const bad = [
    '{"big":"raw \u0001 control"}',
    '{"big":"bad escape \\x"}',
    '{"big":"short unicode \\u12"}',
    '{"big":"no end}',
    '{"big":"ok",}',
    '{"big":"ok" "message":1}',
    '{"big":["a",]}',
    '{"big":"ok"}}',
    '{"big":"ok"} trailing',
    '{"big":tru"e"}',
    '{"big":["a"}',
    '',
    '{"big"',
    '{"\\x":"a"}',
  ];
  for (const text of bad) {
    t.throws(() => JSON.parse(text), show(text));
    t.throws(() => skim(text, SPEC), show(text));
  }
  const good = ['{"big":"\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r"}', '"just a string"', '[1,-2.5e3,true,false,null]', '{}', '[]', '{"big":[]}', '{"big":{}}'];
  for (const text of good) t.same(skim(text, SPEC), expected(JSON.parse(text), SPEC), text);
});

t.test('random values and random damage: the value, or a throw, as JSON.parse gives', async (t) => {
  const rand = prng(13);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
  const strings = ['', 'a', 'é', '\u{1f600}', '"', '\\', '\n', 'text', 'big', 'message', 'content', 'input', 'skill', '\u2028'];
  const value = (depth: number): unknown => {
    const r = rand();
    if (depth > 4 || r < 0.3) return pick<unknown>([pick(strings), 1, -0.5, true, null, pick(strings) + pick(strings)]);
    if (r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(rand() * 5); i > 0; i--) o[pick(strings)] = value(depth + 1);
    return o;
  };
  const damage = ['"', '\\', '{', '}', '[', ']', ',', ':', '\u0001', 'x', ' '];
  let throws = 0;
  for (let i = 0; i < 3000; i++) {
    let text = JSON.stringify({ big: value(0), message: { content: value(0) }, other: value(0) });
    if (i % 2 === 1) {
      const at = Math.floor(rand() * text.length);
      text = text.slice(0, at) + (rand() < 0.5 ? pick(damage) : '') + text.slice(at + (rand() < 0.5 ? 1 : 0));
      // A cut through a surrogate pair is not UTF-8: compare with what its bytes decode to.
      text = Buffer.from(text).toString('utf8');
    }
    let want: unknown;
    try {
      want = expected(JSON.parse(text), SPEC);
    } catch {
      throws++;
      t.throws(() => skim(text, SPEC), `throws like JSON.parse: ${show(text)}`);
      continue;
    }
    const got = skim(text, SPEC);
    if (JSON.stringify(got) !== JSON.stringify(want)) t.same(got, want, show(text));
  }
  t.ok(throws > 100, `damaged inputs were tried (${throws} not JSON)`);
});

t.test('depth is walked without recursion', async (t) => {
  const text = '{"big":' + '['.repeat(100000) + '"x"' + ']'.repeat(100000) + '}';
  const v = skim(text, SPEC);
  t.ok(Array.isArray(v.big));
});
