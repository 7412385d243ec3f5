// Pairing calls with results: a call waits for the messages answering it, and only
// for those; every message comes out once, in order.
import t from 'tap';
import type { CommonMessage } from '../../lib/common.js';
import { TurnPairer, type Turn } from '../../lib/render/pairing.js';

const call = (id: string, ...ids: string[]): CommonMessage => ({ type: 'message', id, role: 'assistant', content: ids.map((c) => ({ type: 'tool_use', id: c, name: 'Bash', input: {} })) });
const results = (id: string, ...ids: string[]): CommonMessage => ({ type: 'message', id, role: 'user', content: ids.map((c) => ({ type: 'tool_result', tool_use_id: c, content: c })) });
const text = (id: string, role: 'user' | 'assistant'): CommonMessage => ({ type: 'message', id, role, content: [{ type: 'text', text: id }] });

async function pair(messages: CommonMessage[]): Promise<{ turns: Turn[]; log: string[] }> {
  const turns: Turn[] = [];
  const log: string[] = [];
  const p = new TurnPairer(async (turn) => {
    turns.push(turn);
    log.push(turn.message.id);
  });
  for (const m of messages) {
    await p.push(m);
    log.push(`<${m.id}`);
  }
  await p.flush();
  return { turns, log };
}

t.test('a call waits for its results, then both come out in order', async (t) => {
  const { turns, log } = await pair([text('u1', 'user'), call('a1', 'c1'), results('u2', 'c1'), text('a2', 'assistant')]);
  t.same(log, ['u1', '<u1', '<a1', 'a1', 'u2', '<u2', 'a2', '<a2']);
  t.same([...turns[1].results.keys()], ['c1'], 'the result is attached to its call');
  t.equal(turns[2].shownWithCall.size, 1, 'and marked as shown there');
  t.same(turns.map((x) => x.n), [1, 2, 3, 4], 'numbered in arrival order');
});

t.test('parallel calls answered in two messages wait for both', async (t) => {
  const { turns, log } = await pair([call('a1', 'c1', 'c2'), results('u1', 'c1'), results('u2', 'c2')]);
  t.same(log, ['<a1', '<u1', 'a1', 'u1', 'u2', '<u2']);
  t.same([...turns[0].results.keys()], ['c1', 'c2']);
});

t.test('a message that answers nothing releases the call without its results', async (t) => {
  const { turns } = await pair([call('a1', 'c1'), text('u1', 'user'), results('u2', 'c1')]);
  t.equal(turns[0].results.size, 0, 'the call has no result attached');
  t.equal(turns[2].shownWithCall.size, 0, 'the late result is shown in its own turn');
  t.same(turns.map((x) => x.message.id), ['a1', 'u1', 'u2']);
});

t.test('at most 32 messages wait behind a call', async (t) => {
  const many = Array.from({ length: 40 }, (_, i) => `c${i}`);
  const msgs = [call('a', ...many), ...many.map((c, i) => results(`u${i}`, c))];
  const { turns, log } = await pair(msgs);
  t.equal(turns.length, 41, 'every message comes out once');
  t.ok(log.indexOf('a') < log.indexOf('<u31') + 1 && log.indexOf('a') > 0, 'the call came out by the 31st answer');
  t.equal(turns[0].results.size, 31, 'with the results that had come');
});
