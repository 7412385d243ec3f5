// Buckets count each message at its own time in the time zone asked for: a session over
// midnight is in two days, a day is local, a week starts on Monday, and 5-hour blocks
// start at the UTC hour of the first message after the last block ended.
import t from 'tap';
import { runBin } from '../helpers.js';
import { Calendar } from '../../lib/usage/calendar.js';

const line = (ts: string, id: string, output: number) =>
  JSON.stringify({ type: 'assistant', sessionId: 's1', uuid: id, timestamp: ts, cwd: '/p', version: '2.1.0', message: { id, model: 'claude-sonnet-4-6', role: 'assistant', content: [], usage: { input_tokens: 10, output_tokens: output } } });

const byOf = async (by: string, tz: string, text: string, more: string[] = []) =>
  (await runBin('tx-stats', ['--by', by, '--tz', tz, ...more], text)).stdout
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

t.test('a session over midnight is counted in two days, by the local clock', async (t) => {
  const text = [line('2026-03-01T22:30:00Z', 'm1', 1), line('2026-03-01T23:30:00Z', 'm2', 2), line('2026-03-02T00:30:00Z', 'm3', 4)].join('\n') + '\n';
  const utc = await byOf('day', 'UTC', text);
  t.same(utc.map((b) => [b.key, b.sessions, b.messages, b.tokens.output_tokens]), [['2026-03-01', 1, 2, 3], ['2026-03-02', 1, 1, 4]]);
  const paris = await byOf('day', 'Europe/Paris', text);
  t.same(paris.map((b) => [b.key, b.tokens.output_tokens]), [['2026-03-01', 1], ['2026-03-02', 6]], 'UTC+1: 23:30 and 00:30 UTC are the next day');
  const since = await byOf('day', 'Europe/Paris', text, ['--since', '20260302']);
  t.same(since.map((b) => b.key), ['2026-03-02'], '--since drops the days before');
  const until = await byOf('day', 'Europe/Paris', text, ['--until', '2026-03-01']);
  t.same(until.map((b) => b.key), ['2026-03-01'], '--until drops the days after');
});

t.test('5-hour blocks: [start, start + 5 h) from the UTC hour of the first message', async (t) => {
  const text = [
    line('2026-03-01T10:05:00Z', 'a', 1),
    line('2026-03-01T14:59:59Z', 'b', 2), // still in the block of 10:00
    line('2026-03-01T15:00:00Z', 'c', 4), // 10:00 + 5 h: a new block, of 15:00
    line('2026-03-01T21:30:00Z', 'd', 8), // after a gap: the block of 21:00
  ].join('\n') + '\n';
  const blocks = await byOf('block', 'UTC', text);
  t.same(
    blocks.map((b) => [b.key, b.end, b.harness, b.tokens.output_tokens]),
    [
      ['2026-03-01T10:00:00+00:00', '2026-03-01T15:00:00+00:00', 'claude-code', 3],
      ['2026-03-01T15:00:00+00:00', '2026-03-01T20:00:00+00:00', 'claude-code', 4],
      ['2026-03-01T21:00:00+00:00', '2026-03-02T02:00:00+00:00', 'claude-code', 8],
    ],
  );
  const kathmandu = await byOf('block', 'Asia/Kathmandu', text);
  t.equal(kathmandu[0].key, '2026-03-01T15:45:00+05:45', 'a block starts on a UTC hour, written in the local time');
});

t.test('the calendar: local days, Monday weeks, months, offsets across a change of time', async (t) => {
  const ny = new Calendar('America/New_York');
  const ms = Date.parse('2026-03-08T06:59:00Z'); // 01:59 EST, a minute before clocks go forward
  t.equal(ny.iso(ms), '2026-03-08T01:59:00-05:00');
  t.equal(ny.iso(ms + 60_000), '2026-03-08T03:00:00-04:00', 'an hour skipped');
  t.equal(ny.day(Date.parse('2026-03-02T04:00:00Z')), '2026-03-01', '23:00 the day before');
  t.equal(ny.week(Date.parse('2026-03-08T12:00:00Z')), '2026-03-02', 'a Sunday is in the week of the Monday before');
  t.equal(ny.week(Date.parse('2026-03-09T12:00:00Z')), '2026-03-09', 'a Monday starts its week');
  t.equal(ny.month(Date.parse('2026-04-01T03:00:00Z')), '2026-03');
  t.throws(() => new Calendar('Mars/Olympus'), RangeError, 'an unknown zone');
});

t.test('usage errors: an unknown grouping, zone or date, and --since without --by', async (t) => {
  for (const [args, why] of [
    [['--by', 'year'], /--by must be one of/],
    [['--by', 'day', '--tz', 'Nowhere/Land'], /unknown time zone/],
    [['--by', 'day', '--since', '2026-02-30'], /--since takes a date/],
    [['--since', '2026-01-01'], /give --by too/],
    [['--prices', '/nonexistent/prices.json'], /--prices:/],
  ] as const) {
    const r = await runBin('tx-stats', [...args], '');
    t.equal(r.status, 2, `${args.join(' ')}: status 2`);
    t.match(r.stderr, why);
  }
});

t.test('--by day --subagents counts the subagent transcripts beside a session, as naming them does', async (t) => {
  const dir = 'fixtures/recorded/subagent/projects/-tmp-txcript-rec-subagent-work';
  const main = `${dir}/00000000-0000-4000-8000-0000000000d1.jsonl`;
  const agent = `${dir}/00000000-0000-4000-8000-0000000000d1/subagents/agent-aa415a71f1388ed60.jsonl`;
  const withFlag = (await runBin('tx-stats', ['--by', 'day', '--tz', 'UTC', '--subagents', main])).stdout.toString();
  const named = (await runBin('tx-stats', ['--by', 'day', '--tz', 'UTC', main, agent])).stdout.toString();
  const alone = (await runBin('tx-stats', ['--by', 'day', '--tz', 'UTC', main])).stdout.toString();
  t.equal(withFlag, named, 'the same buckets');
  t.ok(JSON.parse(withFlag).messages > JSON.parse(alone).messages, 'more messages than the session alone');
});
