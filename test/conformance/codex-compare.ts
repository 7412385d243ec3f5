// The comparison behind test/conformance/codex-common.test.ts: a Common stream and the
// `input` the real Codex CLI sent on resume, both as Responses API items in one normal
// form, less what the client adds at resume time. Each difference tx-common(1) documents
// under DIFFERENCES FROM THE CLIENT (Codex) is one named step here; anything else fails.
import { isModeled, type Block, type CommonMessage } from '../../lib/common.js';

/** The prompt the oracle's resume run sends. */
export const CODEX_PROMPT = 'ping';

/** A Responses item, in the normal form both sides are compared in. */
export type Item = Record<string, unknown> & { type: string };

/** Prefixes of the user messages the client writes itself (environment, instructions, notices). */
const CONTEXT = ['<environment_context>', '<user_instructions>', '# AGENTS.md instructions for ', '<turn_aborted>', '<user_shell_command>', '<subagent_notification>', '<skill>'];

function texts(list: unknown): string[] {
  return Array.isArray(list) ? list.filter((p: any) => p && typeof p.text === 'string').map((p: any) => p.text as string) : [];
}

/** A copy without null fields (the client writes absent optional fields as null). */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = withoutNulls(x);
  return out;
}

/** Arguments as the model meant them: a JSON object when they parse as one, else the string kept whole. */
function argumentsOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    const v = JSON.parse(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch {
    // not JSON
  }
  return { raw_arguments: raw };
}

function contentPiece(c: any): unknown {
  if (c?.type === 'input_text' || c?.type === 'output_text') return { type: 'text', text: c.text };
  if (c?.type === 'refusal') return { type: 'text', text: c.refusal };
  if (c?.type === 'input_image') return c.detail === undefined || c.detail === null ? { type: 'image', url: c.image_url } : { type: 'image', url: c.image_url, detail: c.detail };
  return c;
}

function outputOf(out: unknown): unknown {
  if (Array.isArray(out)) return out.map(contentPiece);
  if (out && typeof out === 'object' && typeof (out as any).content === 'string') return (out as any).content;
  return out;
}

/**
 * One item of the client's request in normal form. Step "fields the model does not read":
 * item ids, status, and null fields of an action are left out. Step "a message piece by piece": a
 * message of k content pieces is k messages (Common keeps the pieces as blocks, and
 * the model reads the same text). Step "summary as one text": a reasoning item's
 * summary parts are joined by a blank line, as Common's thinking block holds them.
 */
export function normalItems(item: any): Item[] {
  switch (item?.type) {
    case 'message':
      return (Array.isArray(item.content) ? item.content : []).map((c: any) => ({ type: 'message', role: item.role, content: contentPiece(c) }));
    case 'reasoning': {
      const summary = texts(item.summary);
      const r: Item = { type: 'reasoning', text: summary.length ? summary.join('\n\n') : texts(item.content).join('\n\n') };
      if (typeof item.encrypted_content === 'string') r.encrypted_content = item.encrypted_content;
      return [r];
    }
    case 'function_call':
      return [{ type: 'function_call', call_id: item.call_id, name: item.name, arguments: argumentsOf(item.arguments) }];
    case 'function_call_output':
    case 'custom_tool_call_output':
      return [{ type: item.type, call_id: item.call_id, output: outputOf(item.output) }];
    case 'custom_tool_call':
      return [{ type: 'custom_tool_call', call_id: item.call_id, name: item.name, input: item.input }];
    case 'local_shell_call':
      return [{ type: 'local_shell_call', call_id: item.call_id ?? item.id, action: withoutNulls(item.action) }];
    case 'web_search_call':
      return [{ type: 'web_search_call', action: withoutNulls(item.action ?? {}) }];
    case 'tool_search_call':
      return [{ type: 'tool_search_call', call_id: item.call_id ?? item.id, arguments: argumentsOf(item.arguments) }];
    case 'compaction':
    case 'context_compaction':
      return [{ type: item.type, encrypted_content: item.encrypted_content ?? '' }];
    case 'tool_search_output':
      return [{ type: 'tool_search_output', call_id: item.call_id, output: JSON.stringify(item.tools ?? []) }];
    default:
      return [{ type: String(item?.type) }];
  }
}

function blockPiece(b: Block): unknown {
  if (!isModeled(b)) return b;
  if (b.type === 'text') return { type: 'text', text: b.text };
  if (b.type === 'image') {
    const url = b.source.type === 'base64' ? `data:${b.source.media_type};base64,${b.source.data}` : b.source.url;
    return b.detail === undefined ? { type: 'image', url } : { type: 'image', url, detail: b.detail };
  }
  return b;
}

/** Common messages as the Responses items they stand for, in normal form (an inverse written apart from lib/codex). */
export function itemsOfCommon(messages: CommonMessage[]): Item[] {
  const callType = new Map<string, string>();
  const out: Item[] = [];
  for (const m of messages) {
    const role = m.role === 'user' && m.developer ? 'developer' : m.role;
    for (const b of m.content) {
      if (!isModeled(b)) {
        out.push({ type: `common:${b.type}` });
        continue;
      }
      switch (b.type) {
        case 'text':
        case 'image':
          out.push({ type: 'message', role, content: blockPiece(b) });
          break;
        case 'thinking': {
          const r: Item = { type: 'reasoning', text: b.thinking };
          if (b.signature !== undefined) r.encrypted_content = b.signature;
          out.push(r);
          break;
        }
        case 'redacted_thinking':
          out.push(b.native_type ? { type: b.native_type, encrypted_content: b.data } : { type: 'reasoning', text: '', encrypted_content: b.data });
          break;
        case 'tool_use': {
          const kind = b.native_type ?? 'function_call';
          callType.set(b.id, kind);
          if (kind === 'custom_tool_call') out.push({ type: kind, call_id: b.id, name: b.name, input: b.input.input });
          else if (kind === 'local_shell_call') out.push({ type: kind, call_id: b.id, action: withoutNulls(b.input) });
          else if (kind === 'web_search_call') out.push({ type: kind, action: withoutNulls(b.input) });
          else if (kind === 'tool_search_call') out.push({ type: kind, call_id: b.id, arguments: b.input });
          else out.push({ type: 'function_call', call_id: b.id, name: b.name, arguments: b.input });
          break;
        }
        case 'tool_result': {
          const kind = callType.get(b.tool_use_id);
          const type = kind === 'custom_tool_call' ? 'custom_tool_call_output' : kind === 'tool_search_call' ? 'tool_search_output' : 'function_call_output';
          out.push({ type, call_id: b.tool_use_id, output: typeof b.content === 'string' ? b.content : b.content.map(blockPiece) });
          break;
        }
        default:
          out.push({ type: `common:${b.type}` });
      }
    }
  }
  return out;
}

/**
 * Step "a made-up output stands at its call": the client inserts the "aborted" output of a
 * call that has none right after the call; Common puts it with the results that answer the
 * call's message. Both sides get every "aborted" output moved to right after its call.
 */
export function abortedAtCalls(items: Item[]): Item[] {
  const aborted = items.filter((i) => i.type.endsWith('_output') && i.output === 'aborted');
  const rest = items.filter((i) => !aborted.includes(i));
  const out: Item[] = [];
  for (const i of rest) {
    out.push(i);
    if (typeof i.call_id === 'string' && !i.type.endsWith('_output')) out.push(...aborted.filter((a) => a.call_id === i.call_id));
  }
  return out;
}

const OMITTED = 'image content omitted because ';

function isImage(piece: unknown): boolean {
  return !!piece && typeof piece === 'object' && (piece as { type?: unknown }).type === 'image';
}

function isOmitted(piece: unknown): boolean {
  return !!piece && typeof piece === 'object' && typeof (piece as { text?: unknown }).text === 'string' && (piece as { text: string }).text.startsWith(OMITTED);
}

/**
 * Step "images the client cannot send": when it loads a session, the client replaces an
 * image it will not send (a remote URL; data it cannot decode) by a text placeholder
 * ("image content omitted because ..."); Common keeps the image the file holds. Where
 * the client has the placeholder and Common an image at the same place, Common's side
 * takes the placeholder.
 */
export function omittedImages(ours: Item[], theirs: Item[]): Item[] {
  return ours.map((o, i) => {
    const c = theirs[i];
    if (!c || c.type !== o.type) return o;
    if (o.type === 'message' && isImage(o.content) && isOmitted(c.content)) return { ...o, content: c.content };
    if (Array.isArray(o.output) && Array.isArray(c.output) && o.output.length === c.output.length) {
      return { ...o, output: o.output.map((p, k) => (isImage(p) && isOmitted((c.output as unknown[])[k]) ? (c.output as unknown[])[k] : p)) };
    }
    return o;
  });
}

/** A user message the client writes itself, not a prompt. */
function isContextItem(item: any): boolean {
  if (item?.type !== 'message' || item.role !== 'user') return false;
  const first = texts(item.content)[0] ?? '';
  return CONTEXT.some((p) => first.trimStart().startsWith(p));
}

/** What the client sent, split into the rebuilt conversation and what it added at resume time. */
export interface ClientSide {
  /** The rebuilt conversation, in normal form. */
  items: Item[];
  /** What the steps took out, for the test's messages. */
  base: boolean;
  tail: number;
}

/**
 * The client's side. Step "base instructions": the request opens with the client's base
 * instructions as a developer message (from session_meta or the model), not an item of
 * the file. Step "context at resume": after the rebuilt conversation the client adds
 * fresh developer messages and an <environment_context> user message for the resumed
 * run, then the new prompt; these are taken off the end, but never so many that the
 * client's side gets shorter than Common's (so a message Common lacks still shows).
 */
export function clientSide(input: any[], commonItems: number): ClientSide {
  let items = input.slice();
  const base = items[0]?.type === 'message' && items[0].role === 'developer';
  if (base) items = items.slice(1);
  const normal: Item[] = [];
  const raw: any[] = [];
  for (const it of items) for (const n of normalItems(it)) {
    normal.push(n);
    raw.push(it);
  }
  // Where the resume additions begin: the last run of developer / context messages before the prompt.
  let cut = normal.length;
  if (cut > 0 && raw[cut - 1]?.type === 'message' && raw[cut - 1].role === 'user' && texts(raw[cut - 1].content).join('') === CODEX_PROMPT) cut--;
  while (cut > 0 && (raw[cut - 1]?.role === 'developer' || isContextItem(raw[cut - 1])) && cut > commonItems) cut--;
  return { items: normal.slice(0, cut), base, tail: normal.length - cut };
}
