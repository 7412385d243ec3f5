/**
 * A scripted mock of the Anthropic Messages API on 127.0.0.1, for driving the
 * real Claude Code CLI offline.
 *
 * `POST /v1/messages` answers from a script: the main conversation takes its
 * assistant turns in order from `script.main`; requests that are not the main
 * conversation (title generation, subagents, compaction summaries, …) are routed
 * by `classifyRequest` to their own lists or to a harmless default, so the CLI
 * never waits for an answer that does not come. Every request is recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One content block of a scripted assistant turn. */
export type ScriptBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** One scripted assistant turn (one API response). */
export interface ScriptTurn {
  content: ScriptBlock[];
  stop_reason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
  /** Milliseconds to wait between streamed events (to make a turn slow). */
  delayMs?: number;
  /** Answer with this HTTP error instead of a message (content is then ignored). */
  error?: { status: number; type: string; message: string };
  /** Token counts to report instead of the ones made up from the request's size. */
  usage?: Partial<Usage>;
}

/** The token counts a response reports. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** A turn, or a function of the request body that makes one. */
export type ScriptStep = ScriptTurn | ((body: MessagesRequest) => ScriptTurn);

/** What the mock knows a request to be. */
export type RequestRoute = 'main' | 'subagent' | 'compact' | 'title' | 'side';

/** The parts of a Messages API request body the mock reads. */
export interface MessagesRequest {
  model?: string;
  stream?: boolean;
  system?: unknown;
  messages?: Array<{ role: string; content: unknown }>;
  tools?: Array<{ name?: string }>;
  [key: string]: unknown;
}

/** The script: turns per route; a route with no turns left answers `fallback`. */
export interface MockScript {
  main?: ScriptStep[];
  subagent?: ScriptStep[];
  compact?: ScriptStep[];
  title?: ScriptStep[];
  side?: ScriptStep[];
  /** Answer for a route whose list is used up (default: text "OK."). */
  fallback?: (route: RequestRoute, body: MessagesRequest) => ScriptTurn;
  /** Override the routing decision (`agentPrompts`: prompts of Agent calls the mock answered). */
  classify?: (body: MessagesRequest, agentPrompts: ReadonlySet<string>) => RequestRoute;
}

/** One request the mock received. */
export interface RecordedRequest {
  method: string;
  path: string;
  route: RequestRoute | null;
  body: MessagesRequest | null;
  /** The turn answered, when the path was /v1/messages. */
  answer?: ScriptTurn;
}

/** A running mock. */
export interface MockApi {
  port: number;
  /** `http://127.0.0.1:PORT`: the value for ANTHROPIC_BASE_URL. */
  url: string;
  requests: RecordedRequest[];
  /** The recorded `/v1/messages` requests of one route, in order. */
  messagesRequests(route?: RequestRoute): RecordedRequest[];
  close(): Promise<void>;
}

/** Flatten a `system` field (string or text blocks) to one string. */
export function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  if (Array.isArray(system)) {
    return system
      .map((b) => (b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : ''))
      .join('\n');
  }
  return '';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => (b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : ''))
      .join('\n');
  }
  return '';
}

/** Flatten the text of the last user message of a request. */
export function lastUserText(body: MessagesRequest): string {
  const msgs = body.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i]!.role === 'user') return contentText(msgs[i]!.content);
  return '';
}

/** The text of the last block of the last user message. */
function lastUserBlock(body: MessagesRequest): string {
  const msgs = body.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i]!;
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    const texts = (Array.isArray(m.content) ? m.content : []).filter((b: any) => b && b.type === 'text');
    return texts.length > 0 ? String((texts[texts.length - 1] as any).text ?? '') : '';
  }
  return '';
}

/** Flatten the text of all user messages up to the first assistant message. */
export function firstUserText(body: MessagesRequest): string {
  const out: string[] = [];
  for (const m of body.messages ?? []) {
    if (m.role === 'assistant') break;
    if (m.role === 'user') out.push(contentText(m.content));
  }
  return out.join('\n');
}

/**
 * Default routing, from what Claude Code 2.1.328 sends: a subagent's first user
 * message is the prompt of the Agent call that spawned it (and its system
 * prompt's billing header says `cc_is_subagent=true`); a compaction request ends
 * with "Your task is to create a detailed summary of the conversation"; a title
 * request (not seen with nonessential traffic off) asks for a title; a request
 * without tools is a side request; everything else is the main conversation.
 */
export function classifyRequest(body: MessagesRequest, agentPrompts: ReadonlySet<string> = new Set()): RequestRoute {
  const first = firstUserText(body);
  for (const p of agentPrompts) if (p && first.includes(p)) return 'subagent';
  const sys = systemText(body.system);
  const last = lastUserText(body);
  const tools = (body.tools ?? []).map((t) => t?.name ?? '');
  // Only the request's closing text: a resumed conversation may quote an earlier compaction's instruction.
  if (/create a detailed summary of the conversation|summarize the conversation/i.test(lastUserBlock(body))) return 'compact';
  if (/generate a (concise|short)?\s*(session )?title|title for (this|the) (conversation|session)/i.test(sys + '\n' + last)) return 'title';
  if (/cc_is_subagent=true/.test(sys)) return 'subagent';
  return tools.length === 0 ? 'side' : 'main';
}

const defaultFallback = (route: RequestRoute): ScriptTurn => {
  if (route === 'title') return { content: [{ type: 'text', text: '{"title":"Recorded session"}' }] };
  if (route === 'compact') return { content: [{ type: 'text', text: '<summary>The user and the assistant exchanged greetings.</summary>' }] };
  return { content: [{ type: 'text', text: 'OK.' }] };
};

const MODEL = 'claude-sonnet-4-5-20250929';
let messageCounter = 0;

function usageOf(body: MessagesRequest, turn: ScriptTurn): Usage {
  const input = Math.max(1, Math.round(JSON.stringify(body.messages ?? []).length / 4));
  return { input_tokens: input, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...turn.usage };
}

function stopReasonOf(turn: ScriptTurn): string {
  if (turn.stop_reason) return turn.stop_reason;
  return turn.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

function jsonMessage(turn: ScriptTurn, body: MessagesRequest): unknown {
  return {
    id: `msg_mock_${String(++messageCounter).padStart(6, '0')}`,
    type: 'message',
    role: 'assistant',
    model: body.model ?? MODEL,
    content: turn.content,
    stop_reason: stopReasonOf(turn),
    stop_sequence: null,
    usage: usageOf(body, turn),
  };
}

function sseEvents(turn: ScriptTurn, body: MessagesRequest): Array<[string, unknown]> {
  const usage = usageOf(body, turn);
  const events: Array<[string, unknown]> = [];
  events.push(['message_start', {
    type: 'message_start',
    message: {
      id: `msg_mock_${String(++messageCounter).padStart(6, '0')}`,
      type: 'message', role: 'assistant', model: body.model ?? MODEL,
      content: [], stop_reason: null, stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  }]);
  turn.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      for (const piece of chunks(block.text, 64)) {
        events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }]);
      }
    } else if (block.type === 'thinking') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }]);
      for (const piece of chunks(block.thinking, 64)) {
        events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } }]);
      }
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }]);
    } else {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }]);
      for (const piece of chunks(JSON.stringify(block.input), 256)) {
        events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }]);
      }
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stopReasonOf(turn), stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

function chunks(s: string, size: number): string[] {
  if (s.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Start a mock on 127.0.0.1 at a free port. */
export async function startMockApi(script: MockScript = {}): Promise<MockApi> {
  const queues: Record<RequestRoute, ScriptStep[]> = {
    main: [...(script.main ?? [])],
    subagent: [...(script.subagent ?? [])],
    compact: [...(script.compact ?? [])],
    title: [...(script.title ?? [])],
    side: [...(script.side ?? [])],
  };
  const requests: RecordedRequest[] = [];
  const classify = script.classify ?? classifyRequest;
  const fallback = script.fallback ?? defaultFallback;
  const agentPrompts = new Set<string>();

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      void answer(req, res, Buffer.concat(parts).toString('utf8')).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(err) } }));
      });
    });
  });

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    let body: MessagesRequest | null = null;
    try {
      body = raw ? (JSON.parse(raw) as MessagesRequest) : null;
    } catch {
      body = null;
    }
    const record: RecordedRequest = { method: req.method ?? 'GET', path, route: null, body };
    requests.push(record);

    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      const n = Math.max(1, Math.round(raw.length / 4));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: n }));
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/messages' || body === null) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    const route = classify(body, agentPrompts);
    record.route = route;
    const step = queues[route].shift();
    const turn = step === undefined ? fallback(route, body) : typeof step === 'function' ? step(body) : step;
    record.answer = turn;
    for (const b of turn.content) {
      if (b.type === 'tool_use' && (b.name === 'Agent' || b.name === 'Task') && typeof b.input.prompt === 'string') agentPrompts.add(b.input.prompt);
    }

    if (turn.error) {
      res.writeHead(turn.error.status, { 'content-type': 'application/json', 'request-id': `req_mock_${requests.length}`, 'x-should-retry': 'false' });
      res.end(JSON.stringify({ type: 'error', error: { type: turn.error.type, message: turn.error.message } }));
      return;
    }
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': `req_mock_${requests.length}` });
      for (const [event, data] of sseEvents(turn, body)) {
        if (turn.delayMs) await sleep(turn.delayMs);
        res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      }
      res.end();
    } else {
      if (turn.delayMs) await sleep(turn.delayMs);
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_mock_${requests.length}` });
      res.end(JSON.stringify(jsonMessage(turn, body)));
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    messagesRequests: (route?: RequestRoute) =>
      requests.filter((r) => r.path === '/v1/messages' && r.body !== null && (route === undefined || r.route === route)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
