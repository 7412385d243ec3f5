// The calls, results and thoughts one message record of a chat file holds, each with the
// id it is counted once by. The client writes a gemini record again when its calls have
// run (the same id, now with `toolCalls` and their results) and the results once more as
// a user record of functionResponse parts, so tx-filter and tx-stats take each call,
// result and thought the first time its id comes by (Seen).
import { splitResponses } from './calls.js';
import { contentText, partList, type Part } from './parts.js';
import { thoughtText } from './turns.js';

/** One function call of a gemini record. */
export interface CallItem {
  id: string | null;
  name: string;
  args: unknown;
  /** The call's `status` in `toolCalls` (success, error, cancelled), or null. */
  status: string | null;
}

/** One function response, from a call's `result` or a user record. */
export interface ResultItem {
  id: string | null;
  name: string | null;
  /** The response's output or error as text (any other response as its JSON). */
  text: string;
  /** The response is `{error}`, or its call's status is error or cancelled. */
  error: boolean;
  /** A shell command's exit code, where its output states one. */
  exitCode: number | null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** Every call a gemini record holds: its `toolCalls`, and the functionCall parts of its content (once per id). */
export function callsOf(rec: Record<string, any>): CallItem[] {
  const out: CallItem[] = [];
  const ids = new Set<string>();
  const add = (c: CallItem) => {
    if (c.id !== null) {
      if (ids.has(c.id)) return;
      ids.add(c.id);
    }
    out.push(c);
  };
  if (Array.isArray(rec.toolCalls)) {
    for (const c of rec.toolCalls) if (c && typeof c === 'object') add({ id: str(c.id), name: typeof c.name === 'string' ? c.name : '', args: c.args ?? null, status: str(c.status) });
  }
  if (Array.isArray(rec.content)) {
    for (const p of partList(rec.content)) {
      const fc = p.functionCall;
      if (fc && typeof fc === 'object') add({ id: str(fc.id), name: typeof fc.name === 'string' ? fc.name : '', args: fc.args ?? null, status: null });
    }
  }
  return out;
}

const EXIT_CODE = /^Exit Code: (-?\d+)$/m;

/** A response's text and whether it reports an error. */
function responseItem(fr: Record<string, any>, status: string | null): ResultItem {
  const r = fr.response;
  let text: string;
  let error = status === 'error' || status === 'cancelled';
  if (r && typeof r === 'object' && !Array.isArray(r) && (typeof r.output === 'string' || typeof r.error === 'string') && Object.keys(r).length === 1) {
    text = typeof r.output === 'string' ? r.output : r.error;
    if (typeof r.error === 'string') error = true;
  } else {
    text = typeof r === 'string' ? r : r === undefined ? '' : JSON.stringify(r);
    if (r && typeof r === 'object' && 'error' in r) error = true;
  }
  const code = EXIT_CODE.exec(text);
  return { id: str(fr.id), name: str(fr.name), text, error, exitCode: code ? Number(code[1]) : null };
}

/** The function responses of a list of parts, each with the call status given by id. */
function responsesIn(parts: Part[], status: (id: string | null) => string | null): ResultItem[] {
  return splitResponses(parts).responses.map(({ fr }) => responseItem(fr, status(str(fr.id))));
}

/** Every result a record holds: a gemini record's calls' results, or a user record's functionResponse parts. */
export function resultsOf(rec: Record<string, any>): ResultItem[] {
  if (rec.type === 'gemini') {
    const out: ResultItem[] = [];
    if (!Array.isArray(rec.toolCalls)) return out;
    for (const c of rec.toolCalls) {
      if (!c || typeof c !== 'object' || !c.result) continue;
      const status = str(c.status);
      if (typeof c.result === 'string') out.push(responseItem({ id: c.id, name: c.name, response: { output: c.result } }, status));
      else out.push(...responsesIn(partList(c.result), () => status));
    }
    return out;
  }
  if (rec.type === 'user') return responsesIn(partList(rec.content), () => null);
  return [];
}

/** The thoughts of a gemini record: its thought summaries, or the thought parts of its content. */
export function thoughtsOf(rec: Record<string, any>): { text: string; opaque: boolean }[] {
  if (rec.type !== 'gemini') return [];
  const out: { text: string; opaque: boolean }[] = [];
  if (Array.isArray(rec.thoughts)) for (const t of rec.thoughts) if (t && typeof t === 'object') out.push({ text: thoughtText(t), opaque: false });
  if (Array.isArray(rec.content)) {
    for (const p of partList(rec.content)) if (p.thought) out.push({ text: typeof p.text === 'string' ? p.text : '', opaque: typeof p.thoughtSignature === 'string' });
  }
  return out;
}

/** The text of a message record's content as the person or model wrote it (text parts joined by newlines). */
export function recordText(content: unknown): string {
  return partList(content)
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text as string)
    .join('\n');
}

/** The snapshot text of a compression's checkpoint, and its record's id; null for another line. */
export function snapshotOf(set: Record<string, any>, isSnapshot: (m: unknown) => boolean): { id: string; text: string; messages: number } | null {
  if (!Array.isArray(set.messages)) return null;
  const m = set.messages.find(isSnapshot) as Record<string, any> | undefined;
  return m ? { id: String(m.id), text: contentText(m.content), messages: set.messages.length } : null;
}

/**
 * Ids seen in the file being read: the first time an id comes by is its time, later
 * copies are not. What is held is one set of ids per file, cleared when the next begins.
 */
export class Seen {
  private src: string | undefined | null = null;
  private ids = new Set<string>();

  /** True the first time `key` comes by in `src`. */
  first(src: string | undefined, key: string): boolean {
    if (src !== this.src) {
      this.src = src;
      this.ids = new Set();
    }
    if (this.ids.has(key)) return false;
    this.ids.add(key);
    return true;
  }
}
