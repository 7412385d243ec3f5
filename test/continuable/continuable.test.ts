// lib/continuable/: what makes a Common conversation one a client can continue.
// Small named conversations for each rule, the size check and --from-compaction, and a
// property sweep: whatever comes in, what goes out is paired, user-first and non-empty,
// and making it continuable again changes nothing.
import t from 'tap';
import type { Block, CommonMessage, CommonSession } from '../../lib/common.js';
import { Continuable } from '../../lib/continuable/continuable.js';
import { datedSession } from '../../lib/continuable/placeholders.js';
import { PLACEHOLDER_OPENING, PLACEHOLDER_RESULT, type ContinueRules } from '../../lib/continuable/rules.js';
import { estimateTokens, IMAGE_TOKENS } from '../../lib/continuable/size.js';

const CLAUDE: ContinueRules = { contextWindow: 200_000, startsAtCompaction: true, objectInputs: true, results: 'next', userFirst: true, callsWithoutResults: [], dropsForeignReasoning: true };
const CODEX: ContinueRules = { contextWindow: 258_400, startsAtCompaction: false, objectInputs: false, results: 'later', userFirst: false, callsWithoutResults: ['web_search_call'], dropsForeignReasoning: false };

const session = (harness = 'claude-code', extra: Partial<CommonSession> = {}): CommonSession => ({ type: 'session', harness, id: 's1', ...extra });
const user = (id: string, ...content: Block[]): CommonMessage => ({ type: 'message', id, role: 'user', content });
const assistant = (id: string, ...content: Block[]): CommonMessage => ({ type: 'message', id, role: 'assistant', content });
const text = (s: string): Block => ({ type: 'text', text: s });
const call = (id: string, input: unknown = { command: 'ls' }): Block => ({ type: 'tool_use', id, name: 'Bash', input: input as Record<string, unknown> });
const result = (id: string, content = 'ok'): Block => ({ type: 'tool_result', tool_use_id: id, content });
const placeholder = (id: string): Block => ({ type: 'tool_result', tool_use_id: id, content: PLACEHOLDER_RESULT, is_error: true });

function run(messages: CommonMessage[], opts: { s?: CommonSession; target?: string; rules?: ContinueRules; fromCompaction?: boolean; contextWindow?: number } = {}) {
  const c = new Continuable(opts.s ?? session(), { harness: opts.target ?? 'claude-code', rules: opts.rules ?? CLAUDE }, { fromCompaction: opts.fromCompaction ?? false, contextWindow: opts.contextWindow });
  try {
    for (const [i, m] of messages.entries()) c.push(m, i + 1);
    const out = [...c.messages()].map((x) => x.message);
    return { out, summary: c.summary(), warnings: c.warnings };
  } finally {
    c.dispose();
  }
}

const shape = (ms: CommonMessage[]) => ms.map((m) => ({ role: m.role, content: m.content }));

t.test('a conversation that is already continuable goes through unchanged, and nothing is said', async (t) => {
  const given = [user('u1', text('hi')), assistant('a1', text('let me look'), call('t1')), user('u2', result('t1')), assistant('a2', text('done'))];
  const { out, summary } = run(given);
  t.same(out, given);
  t.equal(summary, null);
});

t.test('a call without a result gets a placeholder result in the next user message, after the results it holds', async (t) => {
  const { out, summary } = run([user('u1', text('hi')), assistant('a1', call('t1'), call('t2')), user('u2', result('t2'), text('and then?')), assistant('a2', text('done'))]);
  t.same(out[2].content, [result('t2'), placeholder('t1'), text('and then?')]);
  t.match(summary, '1 tool call without a result given a placeholder result');
});

t.test('a call answered in a later user message of the same turn needs no placeholder', async (t) => {
  const given = [user('u1', text('hi')), assistant('a1', call('t1'), call('t2')), user('u2', result('t1')), user('u3', result('t2')), assistant('a2', text('done'))];
  t.same(run(given).out, given);
});

t.test('a reply right after a reply with open calls: a user message of placeholder results goes between them', async (t) => {
  const { out } = run([user('u1', text('hi')), assistant('a1', call('t1')), assistant('a2', text('more'))]);
  t.same(shape(out), [
    { role: 'user', content: [text('hi')] },
    { role: 'assistant', content: [call('t1')] },
    { role: 'user', content: [placeholder('t1')] },
    { role: 'assistant', content: [text('more')] },
  ]);
});

t.test('calls left open at the end are answered by a last user message of placeholders, with the last timestamp', async (t) => {
  const { out } = run([user('u1', text('hi')), { ...assistant('a1', call('t1')), timestamp: '2026-01-01T00:00:00.000Z' }]);
  t.same(out.at(-1), { type: 'message', id: 's1:placeholder-results', role: 'user', timestamp: '2026-01-01T00:00:00.000Z', content: [placeholder('t1')] });
});

t.test('a result whose call is not in the conversation is kept as labelled text, its blocks after it', async (t) => {
  const image: Block = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } };
  const { out, summary } = run([user('u1', text('hi'), result('gone', 'old output')), assistant('a1', text('ok')), user('u2', { type: 'tool_result', tool_use_id: 'gone2', content: [image], is_error: true })]);
  t.same(out[0].content, [text('hi'), text('[result of tool call gone, whose call is not in this conversation]\nold output')]);
  t.same(out[2].content, [text('[result of tool call gone2, whose call is not in this conversation; an error]'), image]);
  t.match(summary, '2 results of calls not in the conversation kept as text');
});

t.test('a slash command on a user message is answered there or in a later user message, not an orphan; one without output needs none', async (t) => {
  const cmd: Block = { type: 'tool_use', id: 'c1', name: '/model', input: { args: 'opus' } };
  const given = [user('u1', cmd, result('c1', 'Set model to opus')), user('u2', text('hi')), assistant('a1', text('hello'))];
  t.same(run(given).out, given);
  const later = [user('u1', text('show the context')), user('u2', { ...cmd, id: 'c2', name: '/context' }), user('u3', result('c2', 'tokens')), user('u4', { ...cmd, id: 'c3', name: '/review' }), assistant('a1', text('reviewed'))];
  t.same(run(later).out, later);
});

t.test('empty and whitespace-only text blocks are left out, and a message left empty with them', async (t) => {
  const { out, summary } = run([user('u1', text('hi'), text('')), assistant('a1', text('  \n')), user('u2', text('again')), assistant('a2', text('yes'))]);
  t.same(shape(out), [
    { role: 'user', content: [text('hi')] },
    { role: 'user', content: [text('again')] },
    { role: 'assistant', content: [text('yes')] },
  ]);
  t.match(summary, '2 empty text blocks left out; 1 empty message left out');
});

t.test('a compaction mark on a message left out moves to the next message kept', async (t) => {
  const { out } = run([user('u1', text('old')), assistant('a1', text('old reply')), { ...user('u2', text(' ')), after_compaction: true }, user('u3', text('summary')), assistant('a2', text('new'))], { fromCompaction: true });
  t.same(shape(out), [
    { role: 'user', content: [text('summary')] },
    { role: 'assistant', content: [text('new')] },
  ]);
  t.equal(out[0].after_compaction, true);
});

t.test('a conversation that begins with a reply gets a placeholder user message before it', async (t) => {
  const { out, summary } = run([assistant('a1', text('I was saying')), user('u1', text('go on'))]);
  t.same(out[0], { type: 'message', id: 'a1:opening', role: 'user', content: [text(PLACEHOLDER_OPENING)] });
  t.equal(out[1].id, 'a1');
  t.match(summary, 'placeholder opening message');
  t.equal(run([assistant('a1', text('I was saying'))], { target: 'codex', rules: CODEX }).out[0].id, 'a1', 'not for a target whose API takes a reply first (Codex)');
});

t.test('tool inputs that are not objects are wrapped as {"input": value} for a target that takes objects only, kept for one that does not', async (t) => {
  const given = [user('u1', text('hi')), assistant('a1', call('t1', '*** Begin Patch'), call('t2', [1, 2])), user('u2', result('t1'), result('t2'))];
  const claude = run(given);
  t.same((claude.out[1].content[0] as any).input, { input: '*** Begin Patch' });
  t.same((claude.out[1].content[1] as any).input, { input: [1, 2] });
  t.match(claude.summary, '2 tool inputs that are not objects wrapped');
  t.same(run(given, { target: 'codex', rules: CODEX }).out, given);
});

t.test("reasoning of another harness is left out for a target whose API reads only its own; kept from the target's own sessions", async (t) => {
  const thinking: Block = { type: 'thinking', thinking: 'hmm', signature: 'ZW5j' };
  const redacted: Block = { type: 'redacted_thinking', data: 'enc', native_type: 'compaction' };
  const given = [user('u1', text('hi')), assistant('a1', thinking, redacted, text('hello'))];
  const fromCodex = run(given, { s: session('codex') });
  t.same(fromCodex.out[1].content, [text('hello')]);
  t.match(fromCodex.summary, '2 reasoning blocks of codex left out (claude-code cannot read them)');
  t.same(run(given).out, given, 'a Claude Code session keeps its thinking');
  t.same(run(given, { s: session('claude-code'), target: 'codex', rules: CODEX }).out, given, 'a target that keeps reasoning gets it (its writer decides)');
});

t.test('malformed messages and blocks are reported as warnings, never thrown', async (t) => {
  const { out, warnings } = run([user('u1', text('hi'), { type: 'tool_use' } as Block), { type: 'message', id: 'x', role: 'narrator', content: [] } as unknown as CommonMessage, user('u2', { type: 'image' } as Block)]);
  t.same(shape(out), [{ role: 'user', content: [text('hi')] }]);
  t.same(warnings, ['a tool_use block without id or name, left out', 'a message whose role is "narrator", skipped', 'an image block without source, left out', 'a message with no usable block, skipped']);
});

t.test("a call the target's server answers itself (a Codex web search, for Codex) needs no result; for Claude Code it does", async (t) => {
  const search: Block = { type: 'tool_use', id: 'ws1', name: 'web_search', input: { query: 'x' }, native_type: 'web_search_call' };
  const given = [user('u1', text('find x')), assistant('a1', search, text('found nothing'))];
  t.same(run(given, { target: 'codex', rules: CODEX }).out, given);
  t.same(run(given).out.at(-1)?.content, [placeholder('ws1')]);
});

t.test('for a target that takes a result anywhere after its call (Codex), a later result is a result, and a call never answered gets its placeholder right after it', async (t) => {
  const codex = { target: 'codex', rules: CODEX };
  const late = [user('u1', text('hi')), assistant('a1', call('t1')), user('u2', text('meanwhile')), assistant('a2', text('waiting')), user('u3', result('t1'), result('t1', 'again'))];
  t.same(run(late, codex).out, late, 'answered two turns later, and a second output of the same call kept');
  const never = [user('u1', text('hi')), assistant('a1', call('t1')), user('u2', text('go on')), assistant('a2', call('t2'))];
  t.same(shape(run(never, codex).out), [
    { role: 'user', content: [text('hi')] },
    { role: 'assistant', content: [call('t1')] },
    { role: 'user', content: [placeholder('t1')] },
    { role: 'user', content: [text('go on')] },
    { role: 'assistant', content: [call('t2')] },
    { role: 'user', content: [placeholder('t2')] },
  ]);
  t.same(shape(run([user('u1', result('nope'))], codex).out), [{ role: 'user', content: [text('[result of tool call nope, whose call is not in this conversation]\nok')] }], 'an output of no call is an orphan');
});

t.test('sidechain messages are neither paired nor counted', async (t) => {
  const side = { ...assistant('s1', call('ts')), sidechain: true as const };
  const given = [user('u1', text('hi')), side, assistant('a1', text('hello'))];
  t.same(run(given).out, given);
});

t.test('size: JSON bytes less image data, per 4 bytes, plus a flat count per image', async (t) => {
  t.equal(estimateTokens({ bytes: 4000, images: 0 }), 1000);
  t.equal(estimateTokens({ bytes: 1, images: 2 }), 1 + 2 * IMAGE_TOKENS);
  const big = 'A'.repeat(400_000);
  const image: Block = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: big } };
  t.doesNotThrow(() => run([user('u1', image), assistant('a1', text('a picture'))], { contextWindow: 2000 }), 'a large image costs its flat count, not its bytes');
  t.doesNotThrow(() => run([user('u1', text('x'), result('r', 'y')), assistant('a', call('t')), user('u2', { type: 'tool_result', tool_use_id: 't', content: [image] })], { contextWindow: 2000 }), 'an image inside a tool result too');
});

t.test('size: a conversation larger than the window without a compaction is refused, saying so', async (t) => {
  const long = [user('u1', text('x'.repeat(8000))), assistant('a1', text('ok'))];
  t.throws(() => run(long, { contextWindow: 1000 }), /^session s1 is about 20\d\d tokens, more than the 1000-token context window of claude-code, and it has no compaction to start from: not written, no client could continue it$/);
  t.doesNotThrow(() => run(long, { contextWindow: 3000 }));
});

t.test('size: a target that loads from the latest compaction by itself needs only that part to fit', async (t) => {
  const c = [user('u1', text('x'.repeat(8000))), assistant('a1', text('ok')), { ...user('u2', text('summary')), after_compaction: true as const }, assistant('a2', text('on'))];
  const { out } = run(c, { contextWindow: 1000 });
  t.equal(out.length, 4, 'all of it is written; the client starts from the compaction');
  t.throws(() => run(c, { contextWindow: 1000, target: 'codex', rules: CODEX }), /about 2\d\d\d tokens, more than the 1000-token context window of codex: not written; --from-compaction starts it from its latest compaction \(about \d+ tokens\)/, 'one that loads it all is told about --from-compaction');
  const cut = run(c, { contextWindow: 1000, target: 'codex', rules: CODEX, fromCompaction: true });
  t.same(cut.out.map((m) => m.id), ['u2', 'a2'], '--from-compaction starts there');
  t.match(cut.summary, 'started from the latest compaction (2 messages before it left out)');
  const after = [...c, user('u3', text('y'.repeat(8000)))];
  t.throws(() => run(after, { contextWindow: 1000 }), /even from its latest compaction: not written/);
});

t.test('size: a subagent transcript is not resumed by itself, so it is not refused', async (t) => {
  t.doesNotThrow(() => run([user('u1', text('x'.repeat(8000)))], { s: session('claude-code', { parent: { session: 'p' } }), contextWindow: 10 }));
});

t.test('--from-compaction: calls open before the compaction get no placeholder after it; results after it of calls before it are orphans', async (t) => {
  const { out } = run([user('u1', text('hi')), assistant('a1', call('t1')), { ...user('u2', text('summary')), after_compaction: true }, user('u3', result('t1')), assistant('a2', text('on'))], { fromCompaction: true });
  t.same(shape(out), [
    { role: 'user', content: [text('summary')] },
    { role: 'user', content: [text('[result of tool call t1, whose call is not in this conversation]\nok')] },
    { role: 'assistant', content: [text('on')] },
  ]);
});

/** A seeded generator of messy conversations: calls without results, stray results, empty blocks, replies first, compactions anywhere. */
function messy(seed: number): CommonMessage[] {
  let s = seed;
  const rnd = (n: number) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return (s >>> 16) % n;
  };
  const ids: string[] = [];
  const out: CommonMessage[] = [];
  for (let i = 0, n = 1 + rnd(14); i < n; i++) {
    const content: Block[] = [];
    const role = rnd(2) ? 'user' : 'assistant';
    for (let k = 0, m = rnd(4); k < m; k++) {
      const r = rnd(6);
      if (r === 0) content.push(text(rnd(2) ? '' : ' '));
      else if (r === 1) content.push(text(`t${seed}-${i}-${k}`));
      else if (r === 2 && role === 'assistant') {
        const id = `c${seed}-${i}-${k}`;
        ids.push(id);
        content.push(call(id, rnd(3) === 0 ? 'raw' : { n: k }));
      } else if (role === 'user' && ids.length > 0) content.push(result(ids[rnd(ids.length)]));
      else content.push(text(`x${k}`));
    }
    const m: CommonMessage = { type: 'message', id: `m${seed}-${i}`, role, content };
    if (rnd(8) === 0) m.after_compaction = true;
    out.push(m);
  }
  return out;
}

/** What must hold of a continuable conversation (in API terms: consecutive user messages are one). */
function invariants(t: any, ms: CommonMessage[], label: string) {
  if (ms.length === 0) return;
  t.equal(ms[0].role, 'user', `${label}: the user's message first`);
  let open = new Set<string>();
  for (const [i, m] of ms.entries()) {
    t.ok(m.content.length > 0, `${label}: message ${i} is not empty`);
    for (const b of m.content) if (b.type === 'text') t.not((b as any).text.trim(), '', `${label}: no empty text`);
    if (m.role === 'assistant') {
      t.same([...open], [], `${label}: every call before message ${i} answered`);
      open = new Set(m.content.filter((b) => b.type === 'tool_use').map((b: any) => b.id));
      for (const b of m.content) if (b.type === 'tool_use') t.ok((b as any).input && typeof (b as any).input === 'object' && !Array.isArray((b as any).input), `${label}: an object input`);
    } else {
      for (const b of m.content) {
        if (b.type !== 'tool_result') continue;
        t.ok(open.has((b as any).tool_use_id), `${label}: result ${(b as any).tool_use_id} answers an open call`);
        open.delete((b as any).tool_use_id);
      }
    }
  }
  t.same([...open], [], `${label}: every call answered at the end`);
}

t.test('property: whatever comes in, what goes out is continuable, and doing it again changes nothing', async (t) => {
  for (let seed = 1; seed <= 300; seed++) {
    const given = messy(seed);
    for (const fromCompaction of [false, true]) {
      const label = `seed ${seed}${fromCompaction ? ' --from-compaction' : ''}`;
      const { out } = run(structuredClone(given), { fromCompaction });
      invariants(t, out, label);
      t.same(run(structuredClone(out), { fromCompaction }).out, out, `${label}: idempotent`);
    }
  }
});

t.test('a timestamp that is not a date is left out, so the writer dates the message like the one before', async (t) => {
  const { out, summary } = run([{ ...user('u1', text('hi')), timestamp: '[trimmed for fixture]' }, { ...assistant('a1', text('ok')), timestamp: '2026-01-01T00:00:00.000Z' }]);
  t.equal(out[0].timestamp, undefined);
  t.equal(out[1].timestamp, '2026-01-01T00:00:00.000Z');
  t.match(summary, '1 timestamp that is not a date left out');
  t.same(datedSession(session('codex', { started_at: 'never' })), session('codex'));
  t.same(datedSession(session('codex', { started_at: '2026-01-01T00:00:00Z' })), session('codex', { started_at: '2026-01-01T00:00:00Z' }));
});
