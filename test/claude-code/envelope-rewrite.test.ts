// Rewriting envelope bodies element by element: the same split as parseEnvelope,
// tags and whitespace kept, and escape/unescape through it still exact inverses.
import t from 'tap';
import { prng } from '../helpers.js';
import { ENVELOPE_TAGS, parseEnvelope } from '../../lib/claude-code/envelope.js';
import { envelopeSlots, rewriteEnvelopeBody } from '../../lib/claude-code/envelope-rewrite.js';
import { escapeEnvelope, unescapeEnvelope } from '../../lib/claude-code/escape.js';


const TAGS = ['command-name', 'command-args', 'local-command-stdout'];
const FRAGMENTS = [' ', '\n', 'x', '<', '\\', '/', 'é', ...TAGS.flatMap((tag) => [`<${tag}>`, `</${tag}>`, `<\\/${tag}>`])];

/** A random string that often is, or almost is, a body of envelope elements. */
function randomBody(rand: () => number): string {
  let s = '';
  const n = Math.floor(rand() * 12);
  const elementsOnly = rand() < 0.5;
  for (let i = 0; i < n; i++) {
    if (elementsOnly) {
      const tag = TAGS[Math.floor(rand() * TAGS.length)];
      s += `${rand() < 0.3 ? '\n' : ''}<${tag}>${FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)]}${FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)]}</${tag}>`;
    } else if (rand() < 0.3) {
      const tag = TAGS[Math.floor(rand() * TAGS.length)];
      s += `<${tag}>${FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)]}</${tag}>`;
    } else s += FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)];
  }
  return s;
}

/** tx-escape's rewrite of a string at an envelope place, both ways. */
const escapeAt = (s: string) => rewriteEnvelopeBody(s, escapeEnvelope) ?? escapeEnvelope(s);
const unescapeAt = (s: string) => rewriteEnvelopeBody(s, unescapeEnvelope) ?? unescapeEnvelope(s);

t.test('accepts exactly the bodies parseEnvelope accepts, sees the same texts, rebuilds them byte for byte', async (t) => {
  const rand = prng(3);
  let bodies = 0;
  let failures = 0;
  for (let i = 0; i < 30000; i++) {
    const s = randomBody(rand);
    const parts = parseEnvelope(s);
    const seen: string[] = [];
    const rebuilt = rewriteEnvelopeBody(s, (text) => (seen.push(text), text));
    if (parts) bodies++;
    const ok = parts === null ? rebuilt === null : rebuilt === s && seen.join('\0') === parts.map((p) => p.text).join('\0');
    if (!ok && failures++ < 5) t.fail(JSON.stringify(s));
  }
  t.equal(failures, 0, 'no disagreement');
  t.ok(bodies > 3000, `enough real bodies were generated (${bodies})`);
});

t.test('escaping at an envelope place is undone by unescaping there, and is injective', async (t) => {
  const rand = prng(17);
  const seen = new Map<string, string>();
  let failures = 0;
  for (let i = 0; i < 30000; i++) {
    const s = randomBody(rand);
    const e = escapeAt(s);
    if (unescapeAt(e) !== s && failures++ < 5) t.fail(`${JSON.stringify(s)} -> ${JSON.stringify(e)}`);
    const before = seen.get(e);
    if (before !== undefined && before !== s && failures++ < 5) t.fail(`collision: ${JSON.stringify(before)} and ${JSON.stringify(s)}`);
    seen.set(e, s);
  }
  t.equal(failures, 0);
});

t.test('the payloads of an escaped body hold no closing tag; only the structural ones remain', async (t) => {
  const body = '<command-name>/x</command-name>\n<command-args>a </command-name> b</command-args>';
  const escaped = escapeAt(body);
  t.equal(escaped, '<command-name>/x</command-name>\n<command-args>a <\\/command-name> b</command-args>');
  t.same(
    parseEnvelope(escaped)!.map((p) => p.text),
    ['/x', 'a <\\/command-name> b'],
  );
  for (const p of parseEnvelope(escaped)!) t.notOk(ENVELOPE_TAGS.some((tag) => p.text.includes(`</${tag}>`)), p.tag);
});

t.test('a string that is not wholly envelope markup is not a body', async (t) => {
  for (const s of ['', '  ', 'text <command-name>/x</command-name>', '<command-name>/x</command-name> trailing', '<command-name>/x', '<other>x</other>']) {
    t.equal(rewriteEnvelopeBody(s, (x) => x), null, JSON.stringify(s));
  }
});

t.test('envelope places: system content, attachment prompt, user string content or first text block; nothing else', async (t) => {
  const system = { type: 'system', content: 'c' };
  t.same(envelopeSlots(system), [{ parent: system, key: 'content' }]);
  const queued = { type: 'attachment', attachment: { type: 'queued_command', prompt: 'p' } };
  t.same(envelopeSlots(queued), [{ parent: queued.attachment, key: 'prompt' }]);
  const user = { type: 'user', message: { content: 's' } };
  t.same(envelopeSlots(user), [{ parent: user.message, key: 'content' }]);
  const blocks = { type: 'user', message: { content: [{ type: 'text', text: 't' }, { type: 'text', text: 'u' }] } };
  t.same(envelopeSlots(blocks), [{ parent: blocks.message.content[0], key: 'text' }]);
  for (const other of [{ type: 'assistant', message: { content: 's' } }, { type: 'message', role: 'user', content: 's' }, { type: 'user', message: { content: [{ type: 'tool_result', content: 's' }] } }, null, 'str', []]) {
    t.same(envelopeSlots(other), [], JSON.stringify(other));
  }
});
