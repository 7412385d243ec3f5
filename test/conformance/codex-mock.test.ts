/**
 * The mock Responses API speaks the wire the Codex CLI expects: Responses SSE events in
 * order (created, output items added and done with deltas between, completed with
 * usage), a compaction route for tool-less requests, 426 to a WebSocket upgrade, 404 to
 * anything else, and a record of every request.
 */
import t from 'tap';
import http from 'node:http';
import { startMockResponses, type MockResponsesApi } from '../harness/codex/index.js';

async function post(mock: MockResponsesApi, body: unknown): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(mock.url + '/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

function events(text: string): Array<Record<string, any>> {
  return text
    .split('\n\n')
    .filter((c) => c.trim())
    .map((c) => {
      const event = /^event: (.*)$/m.exec(c)![1]!;
      const data = JSON.parse(/^data: (.*)$/m.exec(c)![1]!) as Record<string, any>;
      if (data.type !== event) throw new Error(`event ${event} carries type ${data.type}`);
      return data;
    });
}

const tools = [{ type: 'function', name: 'exec_command' }];

t.test('a scripted response streams created, each item added / deltas / done, then completed with usage', async (t) => {
  const mock = await startMockResponses({
    main: [
      {
        output: [
          { type: 'reasoning', summary: ['thinking it over'], encrypted_content: 'ZW5j' },
          { type: 'message', text: 'Hello '.repeat(20) },
          { type: 'function_call', name: 'exec_command', call_id: 'call_1', arguments: JSON.stringify({ cmd: 'x'.repeat(200) }) },
          { type: 'custom_tool_call', name: 'apply_patch', call_id: 'call_2', input: '*** Begin Patch\n*** End Patch' },
        ],
      },
    ],
  });
  t.teardown(() => mock.close());
  const r = await post(mock, { model: 'gpt-5.5', stream: true, tools, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] });
  t.equal(r.status, 200);
  t.match(r.type, /text\/event-stream/);
  const ev = events(r.text);
  t.equal(ev[0]!.type, 'response.created');
  t.equal(ev.at(-1)!.type, 'response.completed');
  t.ok(ev.at(-1)!.response.usage.input_tokens > 0 && ev.at(-1)!.response.usage.output_tokens > 0, 'usage is reported');
  const done = ev.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
  t.same(done.map((i: any) => i.type), ['reasoning', 'message', 'function_call', 'custom_tool_call']);
  t.same(done[0].summary, [{ type: 'summary_text', text: 'thinking it over' }]);
  t.equal(done[0].encrypted_content, 'ZW5j');
  t.equal(ev.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join(''), 'Hello '.repeat(20), 'text deltas add up to the text');
  t.equal(ev.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.delta).join(''), done[2].arguments, 'argument deltas add up');
  t.equal(ev.filter((e) => e.type === 'response.reasoning_summary_text.delta').map((e) => e.delta).join(''), 'thinking it over');
  t.equal(ev.filter((e) => e.type === 'response.output_item.added').length, 4, 'each item is announced');
  t.equal(mock.requests.length, 1);
  t.equal(mock.requests[0]!.route, 'main');
});

t.test('a request without tools goes to the compact script; anything unscripted answers OK.', async (t) => {
  const mock = await startMockResponses({ compact: [{ output: [{ type: 'message', text: 'the summary' }] }] });
  t.teardown(() => mock.close());
  const c = events((await post(mock, { stream: true, input: [] })).text);
  t.equal(c.find((e) => e.type === 'response.output_item.done')!.item.content[0].text, 'the summary');
  const m = events((await post(mock, { stream: true, tools, input: [] })).text);
  t.equal(m.find((e) => e.type === 'response.output_item.done')!.item.content[0].text, 'OK.');
  t.same(mock.responsesRequests().map((r) => r.route), ['compact', 'main']);
});

t.test('a WebSocket upgrade is refused with 426 (the CLI then uses HTTP), other paths with 404; both are recorded', async (t) => {
  const mock = await startMockResponses({});
  t.teardown(() => mock.close());
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.get(mock.url + '/responses', { headers: { connection: 'Upgrade', upgrade: 'websocket' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  t.equal(status, 426);
  t.equal((await fetch(mock.url + '/models')).status, 404);
  t.same(mock.requests.map((r) => `${r.method} ${r.path}`), ['GET /v1/responses', 'GET /v1/models']);
});
