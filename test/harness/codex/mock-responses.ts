/**
 * A scripted mock of the OpenAI Responses API on 127.0.0.1, for driving the real
 * Codex CLI offline. `POST /v1/responses` answers with Responses SSE
 * (`response.created`, `response.output_item.added`, text / reasoning / arguments
 * deltas, `response.output_item.done`, `response.completed` with usage) from a
 * script: the conversation takes its turns in order from `script.main`; a request
 * that offers no tools is a compaction summary request and takes its turn from
 * `script.compact`. Every request is recorded, whatever its path.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One output item of a scripted turn, as the Responses API streams it. */
export type OutputItem =
  | { type: 'message'; text: string }
  | { type: 'reasoning'; summary: string[]; content?: string[]; encrypted_content?: string }
  | { type: 'function_call'; name: string; call_id: string; arguments: string; namespace?: string }
  | { type: 'custom_tool_call'; name: string; call_id: string; input: string }
  | { type: 'local_shell_call'; call_id: string; command: string[]; workdir?: string; timeout_ms?: number }
  | { type: 'web_search_call'; action: Record<string, unknown>; status?: string };

/** One scripted answer (one response). */
export interface ResponseTurn {
  output: OutputItem[];
  /** Milliseconds to wait between streamed events. */
  delayMs?: number;
  /** Answer with this HTTP error instead of a response. */
  error?: { status: number; message: string };
}

/** The parts of a Responses request the mock reads. */
export interface ResponsesRequest {
  model?: string;
  instructions?: string;
  input?: InputItem[];
  tools?: Array<{ type?: string; name?: string }>;
  stream?: boolean;
  [key: string]: unknown;
}

/** One item of a request's `input`: a rollout `response_item` payload as the client sends it. */
export interface InputItem {
  type?: string;
  role?: string;
  content?: unknown;
  [key: string]: unknown;
}

/** A turn, or a function of the request that makes one. */
export type ResponseStep = ResponseTurn | ((body: ResponsesRequest) => ResponseTurn);

/** What the mock takes a request to be. */
export type ResponsesRoute = 'main' | 'compact';

/** The script: turns per route; a route with no turns left answers `fallback`. */
export interface ResponsesScript {
  main?: ResponseStep[];
  compact?: ResponseStep[];
  /** Answer for a route whose list is used up (default: the text "OK.", or a summary for compact). */
  fallback?: (route: ResponsesRoute, body: ResponsesRequest) => ResponseTurn;
}

/** One request the mock received. */
export interface RecordedResponsesRequest {
  method: string;
  path: string;
  route: ResponsesRoute | null;
  body: ResponsesRequest | null;
  answer?: ResponseTurn;
}

/** A running mock. */
export interface MockResponsesApi {
  port: number;
  /** `http://127.0.0.1:PORT/v1`: the provider's `base_url`. */
  url: string;
  requests: RecordedResponsesRequest[];
  /** The recorded `POST /v1/responses` requests of one route, in order. */
  responsesRequests(route?: ResponsesRoute): RecordedResponsesRequest[];
  close(): Promise<void>;
}

/** A request without tools: Codex's compaction summary request (its only tool-less request). */
export function classifyResponsesRequest(body: ResponsesRequest): ResponsesRoute {
  return (body.tools ?? []).length === 0 ? 'compact' : 'main';
}

const defaultFallback = (route: ResponsesRoute): ResponseTurn =>
  route === 'compact' ? { output: [{ type: 'message', text: 'Summary: the user and the assistant exchanged greetings.' }] } : { output: [{ type: 'message', text: 'OK.' }] };

let counter = 0;
const nextId = (prefix: string) => `${prefix}_mock_${String(++counter).padStart(6, '0')}`;

function chunks(s: string, size: number): string[] {
  if (s.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/** The final item as `response.output_item.done` carries it. */
function finalItem(item: OutputItem, id: string): Record<string, unknown> {
  switch (item.type) {
    case 'message':
      return { type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: item.text, annotations: [] }] };
    case 'reasoning': {
      const r: Record<string, unknown> = { type: 'reasoning', id, summary: item.summary.map((text) => ({ type: 'summary_text', text })) };
      if (item.content) r.content = item.content.map((text) => ({ type: 'reasoning_text', text }));
      if (item.encrypted_content !== undefined) r.encrypted_content = item.encrypted_content;
      return r;
    }
    case 'function_call': {
      const f: Record<string, unknown> = { type: 'function_call', id, status: 'completed', name: item.name, arguments: item.arguments, call_id: item.call_id };
      if (item.namespace !== undefined) f.namespace = item.namespace;
      return f;
    }
    case 'custom_tool_call':
      return { type: 'custom_tool_call', id, status: 'completed', name: item.name, input: item.input, call_id: item.call_id };
    case 'local_shell_call': {
      const action: Record<string, unknown> = { type: 'exec', command: item.command };
      if (item.workdir !== undefined) action.working_directory = item.workdir;
      if (item.timeout_ms !== undefined) action.timeout_ms = item.timeout_ms;
      return { type: 'local_shell_call', id, call_id: item.call_id, status: 'completed', action };
    }
    case 'web_search_call':
      return { type: 'web_search_call', id, status: item.status ?? 'completed', action: item.action };
  }
}

/** The SSE events of one scripted response. */
function sseEvents(turn: ResponseTurn, body: ResponsesRequest): Array<Record<string, unknown>> {
  const responseId = nextId('resp');
  const events: Array<Record<string, unknown>> = [];
  events.push({ type: 'response.created', response: { id: responseId, object: 'response', status: 'in_progress', model: body.model ?? 'mock', output: [] } });
  turn.output.forEach((item, output_index) => {
    const id = nextId(item.type === 'message' ? 'msg' : item.type === 'reasoning' ? 'rs' : item.type === 'web_search_call' ? 'ws' : 'fc');
    const done = finalItem(item, id);
    const added: Record<string, unknown> = { ...done, status: 'in_progress' };
    if (item.type === 'message') added.content = [];
    if (item.type === 'reasoning') added.summary = [];
    if (item.type === 'function_call') added.arguments = '';
    if (item.type === 'custom_tool_call') added.input = '';
    events.push({ type: 'response.output_item.added', output_index, item: added });
    if (item.type === 'message') {
      for (const delta of chunks(item.text, 48)) events.push({ type: 'response.output_text.delta', item_id: id, output_index, content_index: 0, delta });
    } else if (item.type === 'reasoning') {
      item.summary.forEach((text, summary_index) => {
        events.push({ type: 'response.reasoning_summary_part.added', item_id: id, output_index, summary_index, part: { type: 'summary_text', text: '' } });
        for (const delta of chunks(text, 48)) events.push({ type: 'response.reasoning_summary_text.delta', item_id: id, output_index, summary_index, delta });
      });
      (item.content ?? []).forEach((text, content_index) => {
        for (const delta of chunks(text, 48)) events.push({ type: 'response.reasoning_text.delta', item_id: id, output_index, content_index, delta });
      });
    } else if (item.type === 'function_call') {
      for (const delta of chunks(item.arguments, 64)) events.push({ type: 'response.function_call_arguments.delta', item_id: id, output_index, delta });
    } else if (item.type === 'custom_tool_call') {
      for (const delta of chunks(item.input, 64)) events.push({ type: 'response.custom_tool_call_input.delta', item_id: id, output_index, delta });
    }
    events.push({ type: 'response.output_item.done', output_index, item: done });
  });
  const input = Math.max(1, Math.round(JSON.stringify(body.input ?? []).length / 4));
  events.push({
    type: 'response.completed',
    response: {
      id: responseId,
      object: 'response',
      status: 'completed',
      model: body.model ?? 'mock',
      usage: { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + 12 },
    },
  });
  return events;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Start a mock on 127.0.0.1 at a free port. */
export async function startMockResponses(script: ResponsesScript = {}): Promise<MockResponsesApi> {
  const queues: Record<ResponsesRoute, ResponseStep[]> = { main: [...(script.main ?? [])], compact: [...(script.compact ?? [])] };
  const requests: RecordedResponsesRequest[] = [];
  const fallback = script.fallback ?? defaultFallback;

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      void answer(req, res, Buffer.concat(parts).toString('utf8')).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'server_error', message: String(err) } }));
      });
    });
  });

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    const urlPath = (req.url ?? '/').split('?')[0]!;
    let body: ResponsesRequest | null = null;
    try {
      body = raw ? (JSON.parse(raw) as ResponsesRequest) : null;
    } catch {
      body = null;
    }
    const record: RecordedResponsesRequest = { method: req.method ?? 'GET', path: urlPath, route: null, body };
    requests.push(record);
    if (req.method === 'GET' && req.headers.upgrade?.toLowerCase() === 'websocket') {
      // The built-in openai provider tries a WebSocket first; 426 sends it to plain HTTP at once.
      res.writeHead(426, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'upgrade_required', message: 'the mock speaks HTTP SSE only' } }));
      return;
    }
    if (req.method !== 'POST' || urlPath !== '/v1/responses' || body === null) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'not_found', message: `the mock serves POST /v1/responses only, not ${req.method} ${urlPath}` } }));
      return;
    }
    const route = classifyResponsesRequest(body);
    record.route = route;
    const step = queues[route].shift();
    const turn = step === undefined ? fallback(route, body) : typeof step === 'function' ? step(body) : step;
    record.answer = turn;
    if (turn.error) {
      res.writeHead(turn.error.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: turn.error.message } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const event of sseEvents(turn, body)) {
      if (turn.delayMs) await sleep(turn.delayMs);
      res.write(`event: ${event.type as string}\ndata: ${JSON.stringify(event)}\n\n`);
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    responsesRequests: (route?: ResponsesRoute) =>
      requests.filter((r) => r.path === '/v1/responses' && r.body !== null && (route === undefined || r.route === route)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
