/**
 * The mock Messages API speaks the wire the CLI expects: SSE events in order
 * when asked to stream, a JSON message otherwise, count_tokens, a harmless
 * answer to anything else, routing by request, and a record of every request.
 */
import t from 'tap';
import { startMockApi, type MockApi } from '../harness/index.js';

async function post(mock: MockApi, path: string, body: unknown): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(mock.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

function sseEvents(text: string): Array<{ event: string; data: Record<string, any> }> {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim())
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)![1]!;
      const data = JSON.parse(/^data: (.*)$/m.exec(chunk)![1]!) as Record<string, any>;
      return { event, data };
    });
}

const tools = [{ name: 'Bash' }];
const user = (text: string) => [{ role: 'user', content: text }];

t.test('a streamed turn is sent as message_start, content blocks with text/thinking/signature/input_json deltas, message_delta, message_stop', async (t) => {
  const input = { command: 'echo ' + 'x'.repeat(600) };
  const mock = await startMockApi({
    main: [{ content: [{ type: 'thinking', thinking: 'pondering', signature: 'c2ln' }, { type: 'text', text: 'Hello '.repeat(30) }, { type: 'tool_use', id: 'toolu_1', name: 'Bash', input }] }],
  });
  t.teardown(() => mock.close());
  const r = await post(mock, '/v1/messages', { model: 'm', stream: true, tools, messages: user('hi') });
  t.equal(r.status, 200);
  t.match(r.type, /text\/event-stream/);
  const events = sseEvents(r.text);
  t.equal(events[0]!.event, 'message_start');
  t.equal(events.at(-2)!.event, 'message_delta');
  t.equal(events.at(-2)!.data.delta.stop_reason, 'tool_use', 'stop_reason defaults to tool_use when a tool is called');
  t.equal(events.at(-1)!.event, 'message_stop');
  const blocks: any[] = [];
  for (const { event, data } of events) {
    if (event === 'content_block_start') blocks[data.index] = { ...data.content_block, json: '' };
    if (event === 'content_block_delta') {
      const b = blocks[data.index];
      if (data.delta.type === 'text_delta') b.text += data.delta.text;
      if (data.delta.type === 'thinking_delta') b.thinking += data.delta.thinking;
      if (data.delta.type === 'signature_delta') b.signature = data.delta.signature;
      if (data.delta.type === 'input_json_delta') b.json += data.delta.partial_json;
    }
  }
  t.same(blocks[0], { type: 'thinking', thinking: 'pondering', signature: 'c2ln', json: '' });
  t.equal(blocks[1].text, 'Hello '.repeat(30), 'text arrives whole over several deltas');
  t.same(JSON.parse(blocks[2].json), input, 'tool input arrives whole over several input_json deltas');
  t.equal(blocks[2].id, 'toolu_1');
});

t.test('a request without stream:true gets one JSON message', async (t) => {
  const mock = await startMockApi({ main: [{ content: [{ type: 'text', text: 'plain' }] }] });
  t.teardown(() => mock.close());
  const r = await post(mock, '/v1/messages', { model: 'm', tools, messages: user('hi') });
  t.match(r.type, /application\/json/);
  t.match(JSON.parse(r.text), { type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'plain' }], stop_reason: 'end_turn' });
});

t.test('count_tokens answers input_tokens, and any other path answers 200 {}', async (t) => {
  const mock = await startMockApi();
  t.teardown(() => mock.close());
  const c = await post(mock, '/v1/messages/count_tokens', { messages: user('hi') });
  t.type(JSON.parse(c.text).input_tokens, 'number');
  const o = await post(mock, '/v1/something/else', {});
  t.equal(o.status, 200);
  t.equal(o.text, '{}');
});

t.test('unscripted requests answer "OK.", and every request is recorded with its route and body', async (t) => {
  const mock = await startMockApi();
  t.teardown(() => mock.close());
  const r = await post(mock, '/v1/messages', { model: 'm', tools, messages: user('hi') });
  t.equal(JSON.parse(r.text).content[0].text, 'OK.');
  await post(mock, '/v1/messages', { model: 'm', messages: user('no tools here') });
  t.same(mock.messagesRequests().map((q) => q.route), ['main', 'side']);
  t.same((mock.messagesRequests('main')[0]!.body!.messages as unknown[]).length, 1);
});

t.test('a request carrying the prompt of an Agent call the mock answered goes to the subagent script', async (t) => {
  const mock = await startMockApi({
    main: [{ content: [{ type: 'tool_use', id: 'toolu_a', name: 'Agent', input: { description: 'd', prompt: 'SUB TASK 42' } }] }],
    subagent: [{ content: [{ type: 'text', text: 'from the subagent' }] }],
  });
  t.teardown(() => mock.close());
  await post(mock, '/v1/messages', { model: 'm', tools, messages: user('delegate') });
  const r = await post(mock, '/v1/messages', { model: 'm', tools, messages: [{ role: 'user', content: [{ type: 'text', text: 'SUB TASK 42' }] }] });
  t.equal(JSON.parse(r.text).content[0].text, 'from the subagent');
  t.same(mock.messagesRequests().map((q) => q.route), ['main', 'subagent']);
});

t.test('a compaction request (asks for a detailed summary) goes to the compact script', async (t) => {
  const mock = await startMockApi({ compact: [{ content: [{ type: 'text', text: '<summary>s</summary>' }] }] });
  t.teardown(() => mock.close());
  const r = await post(mock, '/v1/messages', { model: 'm', tools, messages: user('Your task is to create a detailed summary of the conversation so far') });
  t.equal(JSON.parse(r.text).content[0].text, '<summary>s</summary>');
  t.equal(mock.requests[0]!.route, 'compact');
});

t.test('a request whose system billing header says cc_is_subagent=true goes to the subagent script', async (t) => {
  const mock = await startMockApi({ subagent: [{ content: [{ type: 'text', text: 'sub' }] }] });
  t.teardown(() => mock.close());
  const system = [{ type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.328; cc_entrypoint=sdk-cli; cc_is_subagent=true;' }];
  const r = await post(mock, '/v1/messages', { model: 'm', system, tools, messages: user('some task') });
  t.equal(JSON.parse(r.text).content[0].text, 'sub');
});
