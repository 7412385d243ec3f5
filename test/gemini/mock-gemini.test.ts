// The mock Gemini API the conformance tests drive the real client with: it answers the
// conversation's stream as SSE chunks the client parses, the client's JSON side requests
// with a value fitting their schema, countTokens with a count, and keeps every request.
import t from 'tap';
import { startMockGemini, valueForSchema } from '../harness/gemini/index.js';

async function post(url: string, body: unknown): Promise<{ status: number; type: string; text: string }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
}

t.test('a scripted answer streams as SSE chunks, one part each, the last with finishReason and usage', async (t) => {
  const mock = await startMockGemini({ main: [{ parts: [{ text: 'think', thought: true }, { text: 'Hello.' }, { functionCall: { name: 'read_file', args: { file_path: 'x' } } }], usage: { promptTokenCount: 50, cachedContentTokenCount: 10, thoughtsTokenCount: 3 } }] });
  try {
    const r = await post(`${mock.url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse`, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [] });
    t.equal(r.status, 200);
    t.match(r.type, /text\/event-stream/);
    const chunks = r.text
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((e) => JSON.parse(e.replace(/^data: /, '')));
    t.equal(chunks.length, 3, 'one chunk a part');
    t.same(chunks.map((c) => c.candidates[0].content.parts[0]), [{ text: 'think', thought: true }, { text: 'Hello.' }, { functionCall: { name: 'read_file', args: { file_path: 'x' } } }]);
    t.equal(chunks[2].candidates[0].finishReason, 'STOP');
    t.same(chunks[2].usageMetadata, { promptTokenCount: 50, candidatesTokenCount: 12, cachedContentTokenCount: 10, thoughtsTokenCount: 3, totalTokenCount: 65 });
    t.equal(mock.routeRequests('main').length, 1, 'kept as a main request');
    t.equal(mock.requests[0]!.model, 'gemini-x');
  } finally {
    await mock.close();
  }
});

t.test('routes: a snapshot request is a compression; JSON requests get a value of their schema; countTokens a count; unscripted main answers OK.', async (t) => {
  const mock = await startMockGemini({ compress: [{ parts: [{ text: '<state_snapshot>s</state_snapshot>' }] }] });
  try {
    const c = await post(`${mock.url}/v1beta/models/m:generateContent`, { contents: [], systemInstruction: { parts: [{ text: 'produce a <state_snapshot>' }] } });
    t.equal(JSON.parse(c.text).candidates[0].content.parts[0].text, '<state_snapshot>s</state_snapshot>', 'the scripted compression');
    const schema = { type: 'OBJECT', properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } }, required: ['complexity_reasoning', 'complexity_score'] };
    const j = await post(`${mock.url}/v1beta/models/lite:generateContent`, { contents: [], generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema } });
    t.same(JSON.parse(JSON.parse(j.text).candidates[0].content.parts[0].text), { complexity_reasoning: 'mock', complexity_score: 1 }, "the router's answer, its score within bounds");
    const n = await post(`${mock.url}/v1beta/models/m:countTokens`, { contents: [{ role: 'user', parts: [{ text: 'abcdefgh' }] }] });
    t.ok(JSON.parse(n.text).totalTokens > 0, 'a count');
    const m = await post(`${mock.url}/v1beta/models/m:streamGenerateContent?alt=sse`, { contents: [] });
    t.match(m.text, /"text":"OK\."/, 'the fallback answer');
    t.same(mock.requests.map((r) => r.route), ['compress', 'json', 'count', 'main']);
  } finally {
    await mock.close();
  }
});

t.test('schema values: enums, the next-speaker check answers "user", bounds kept', (t) => {
  t.same(valueForSchema({ type: 'object', properties: { next_speaker: { type: 'string', enum: ['model', 'user'] }, reasoning: { type: 'string' } } }), { next_speaker: 'user', reasoning: 'mock' });
  t.same(valueForSchema({ type: 'object', properties: { model_choice: { type: 'string' } } }), { model_choice: 'flash' });
  t.equal(valueForSchema({ type: 'integer', minimum: 5 }), 5);
  t.end();
});
