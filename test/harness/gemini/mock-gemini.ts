/**
 * A scripted mock of the Gemini API (v1beta) on 127.0.0.1, for driving the real
 * Gemini CLI offline. The conversation's requests are
 * `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` (SSE of
 * GenerateContentResponse chunks) and take their turns in order from `script.main`.
 * The client's side requests go through `:generateContent`: a compression request
 * (its system instruction asks for a `<state_snapshot>`) takes its turn from
 * `script.compress`; any other asks for JSON under a schema (the model router, the
 * next-speaker check) and is answered with a value that fits the schema. `:countTokens`
 * answers a count from the request's size. Every request is kept, whatever its path.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One part of a scripted model answer, as the API streams it. */
export type ScriptPart =
  | { text: string; thought?: boolean; thoughtSignature?: string }
  | { functionCall: { name: string; args: Record<string, unknown>; id?: string }; thoughtSignature?: string };

/** Token counts the answer reports (usageMetadata); unset counts are made from the request's size. */
export interface ScriptUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
}

/** One scripted answer (one response). */
export interface GeminiTurn {
  parts: ScriptPart[];
  /** Default "STOP". */
  finishReason?: string;
  usage?: ScriptUsage;
  /** Milliseconds to wait before each streamed chunk (to make a turn slow). */
  delayMs?: number;
  /** Called once the answer's last chunk is written (e.g. to interrupt the client mid-turn). */
  onSent?: () => void;
  /** Answer with this HTTP error instead of a response. */
  error?: { status: number; message: string };
}

/** The parts of a request body the mock reads. */
export interface GeminiRequest {
  contents?: GeminiContent[];
  systemInstruction?: { parts?: Array<{ text?: string }>; text?: string } | string;
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>;
  generationConfig?: { responseJsonSchema?: unknown; responseSchema?: unknown; responseMimeType?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** One content of a request: a role and its parts. */
export interface GeminiContent {
  role?: string;
  parts?: Array<Record<string, any>>;
}

/** A turn, or a function of the request that makes one. */
export type GeminiStep = GeminiTurn | ((body: GeminiRequest) => GeminiTurn);

/** What the mock takes a request to be. */
export type GeminiRoute = 'main' | 'compress' | 'json' | 'count' | 'other';

/** The script: turns per route; a route with no turns left answers `fallback`. */
export interface GeminiScript {
  main?: GeminiStep[];
  compress?: GeminiStep[];
  /** Answer for main or compress when its list is used up (default: the text "OK.", or a snapshot for compress). */
  fallback?: (route: 'main' | 'compress', body: GeminiRequest) => GeminiTurn;
}

/** One request the mock received. */
export interface RecordedGeminiRequest {
  method: string;
  path: string;
  /** The model the path names. */
  model: string | null;
  route: GeminiRoute;
  body: GeminiRequest | null;
  answer?: unknown;
}

/** A running mock. */
export interface MockGeminiApi {
  port: number;
  /** `http://127.0.0.1:PORT`: the value for GOOGLE_GEMINI_BASE_URL. */
  url: string;
  requests: RecordedGeminiRequest[];
  /** The recorded requests of one route, in order. */
  routeRequests(route: GeminiRoute): RecordedGeminiRequest[];
  close(): Promise<void>;
}

/** The text of a request's system instruction. */
export function systemInstructionText(body: GeminiRequest): string {
  const si = body.systemInstruction;
  if (typeof si === 'string') return si;
  if (!si || typeof si !== 'object') return '';
  if (typeof si.text === 'string') return si.text;
  return (si.parts ?? []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

/** The route of a request by its path and body. */
export function classifyGeminiRequest(method: string, urlPath: string, body: GeminiRequest | null): GeminiRoute {
  if (method !== 'POST' || body === null) return 'other';
  if (urlPath.endsWith(':streamGenerateContent')) return systemInstructionText(body).includes('<state_snapshot>') ? 'compress' : 'main';
  if (urlPath.endsWith(':generateContent')) return systemInstructionText(body).includes('<state_snapshot>') ? 'compress' : 'json';
  if (urlPath.endsWith(':countTokens')) return 'count';
  return 'other';
}

const defaultFallback = (route: 'main' | 'compress'): GeminiTurn =>
  route === 'compress' ? { parts: [{ text: '<state_snapshot>\n<overall_goal>Answer the user.</overall_goal>\n</state_snapshot>' }] } : { parts: [{ text: 'OK.' }] };

/**
 * A value that fits a JSON schema, for the client's structured side requests: the first
 * enum value (the router's `model_choice`: "flash"), "user" for the next-speaker check
 * (so the client does not continue by itself), and short strings elsewhere.
 */
export function valueForSchema(schema: any, key = ''): unknown {
  if (!schema || typeof schema !== 'object') return 'mock';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return key === 'next_speaker' && schema.enum.includes('user') ? 'user' : schema.enum[0];
  const type = typeof schema.type === 'string' ? schema.type.toLowerCase() : Array.isArray(schema.type) ? String(schema.type[0]).toLowerCase() : schema.properties ? 'object' : 'string';
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries<any>(schema.properties ?? {})) out[k] = valueForSchema(v, k);
      return out;
    }
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'number':
    case 'integer':
      // The router's complexity score must lie within its bounds.
      return typeof schema.minimum === 'number' ? schema.minimum : key === 'complexity_score' ? 1 : 0;
    default:
      if (key === 'next_speaker') return 'user';
      if (key === 'model_choice') return 'flash';
      return 'mock';
  }
}

/** A request's size in tokens, roughly (four characters a token). */
function sizeOf(body: GeminiRequest): number {
  return Math.max(1, Math.round(JSON.stringify(body.contents ?? []).length / 4));
}

function usageOf(turn: GeminiTurn, body: GeminiRequest): Record<string, number> {
  const u = turn.usage ?? {};
  const prompt = u.promptTokenCount ?? sizeOf(body);
  const candidates = u.candidatesTokenCount ?? 12;
  const out: Record<string, number> = { promptTokenCount: prompt, candidatesTokenCount: candidates };
  let total = prompt + candidates;
  if (u.cachedContentTokenCount !== undefined) out.cachedContentTokenCount = u.cachedContentTokenCount;
  if (u.thoughtsTokenCount !== undefined) {
    out.thoughtsTokenCount = u.thoughtsTokenCount;
    total += u.thoughtsTokenCount;
  }
  if (u.toolUsePromptTokenCount !== undefined) {
    out.toolUsePromptTokenCount = u.toolUsePromptTokenCount;
    total += u.toolUsePromptTokenCount;
  }
  out.totalTokenCount = total;
  return out;
}

let counter = 0;

/** The streamed chunks of one answer: one part a chunk, the last with finishReason and usage. */
function streamChunks(turn: GeminiTurn, body: GeminiRequest, model: string): Record<string, unknown>[] {
  const responseId = `mock-response-${String(++counter).padStart(6, '0')}`;
  const parts = turn.parts.length > 0 ? turn.parts : [{ text: '' }];
  return parts.map((part, i) => {
    const last = i === parts.length - 1;
    const candidate: Record<string, unknown> = { content: { role: 'model', parts: [part] }, index: 0 };
    if (last) candidate.finishReason = turn.finishReason ?? 'STOP';
    const chunk: Record<string, unknown> = { candidates: [candidate], modelVersion: model, responseId };
    if (last) chunk.usageMetadata = usageOf(turn, body);
    return chunk;
  });
}

/** The whole answer as one GenerateContentResponse (for :generateContent). */
function wholeResponse(turn: GeminiTurn, body: GeminiRequest, model: string): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts: turn.parts }, finishReason: turn.finishReason ?? 'STOP', index: 0 }],
    usageMetadata: usageOf(turn, body),
    modelVersion: model,
    responseId: `mock-response-${String(++counter).padStart(6, '0')}`,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Start a mock on 127.0.0.1 at a free port. */
export async function startMockGemini(script: GeminiScript = {}): Promise<MockGeminiApi> {
  const queues = { main: [...(script.main ?? [])], compress: [...(script.compress ?? [])] };
  const requests: RecordedGeminiRequest[] = [];
  const fallback = script.fallback ?? defaultFallback;

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      void answer(req, res, Buffer.concat(parts).toString('utf8')).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 500, message: String(err), status: 'INTERNAL' } }));
      });
    });
  });

  function take(route: 'main' | 'compress', body: GeminiRequest): GeminiTurn {
    const step = queues[route].shift();
    return step === undefined ? fallback(route, body) : typeof step === 'function' ? step(body) : step;
  }

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    const urlPath = (req.url ?? '/').split('?')[0]!;
    let body: GeminiRequest | null = null;
    try {
      body = raw ? (JSON.parse(raw) as GeminiRequest) : null;
    } catch {
      body = null;
    }
    const model = /\/models\/([^:/]+):/.exec(urlPath)?.[1] ?? null;
    const route = classifyGeminiRequest(req.method ?? 'GET', urlPath, body);
    const record: RecordedGeminiRequest = { method: req.method ?? 'GET', path: urlPath, model, route, body };
    requests.push(record);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (route === 'other' || body === null) return json(404, { error: { code: 404, message: `the mock does not serve ${req.method} ${urlPath}`, status: 'NOT_FOUND' } });
    if (route === 'count') {
      const total = sizeOf(body);
      record.answer = { totalTokens: total };
      return json(200, { totalTokens: total });
    }
    if (route === 'json') {
      const schema = body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema;
      const text = schema ? JSON.stringify(valueForSchema(schema)) : 'OK.';
      const whole = wholeResponse({ parts: [{ text }] }, body, model ?? 'mock');
      record.answer = whole;
      return json(200, whole);
    }
    const turn = take(route, body);
    record.answer = turn;
    if (turn.error) return json(turn.error.status, { error: { code: turn.error.status, message: turn.error.message, status: 'INVALID_ARGUMENT' } });
    if (urlPath.endsWith(':generateContent')) {
      json(200, wholeResponse(turn, body, model ?? 'mock'));
      turn.onSent?.();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const chunk of streamChunks(turn, body, model ?? 'mock')) {
      if (turn.delayMs) await sleep(turn.delayMs);
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    }
    res.end();
    turn.onSent?.();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    routeRequests: (route: GeminiRoute) => requests.filter((r) => r.route === route),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
