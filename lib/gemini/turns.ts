// One message record as Common messages, the way the client turns a loaded session into
// the conversation it resumes (sessionUtils.ts convertSessionToClientHistory): a user
// record is a user message (under --active, not one the client leaves out: its session
// context, a slash command); a gemini record is an assistant message, made of its content
// when that holds calls or thoughts, else of its thought summaries, its content and its
// tool calls; the results of its tool calls follow as a user message. The client also
// records each call's results as a user message of functionResponse parts, and sends
// both on resume; Common has each result once (the first).
import type { Block, CommonMessage } from '../common.js';
import { splitResponses, toolResultBlock, toolUseBlock } from './calls.js';
import { contentText, isIgnoredUserText, partBlock, partList, type Part } from './parts.js';
import { usageOfTokens } from './usage.js';

/** The thought summary a gemini record keeps beside its content, as the client rebuilds it: `**subject** description`. */
export function thoughtText(t: any): string {
  const description = typeof t?.description === 'string' ? t.description : '';
  return typeof t?.subject === 'string' && t.subject !== '' ? `**${t.subject}** ${description}` : description;
}

/** The parts of a gemini record's model turn, as the client rebuilds them. */
export function modelParts(rec: Record<string, any>): Part[] {
  const content = rec.content ? partList(rec.content) : [];
  if (content.some((p) => p.functionCall || p.thought)) return content;
  const parts: Part[] = [];
  if (Array.isArray(rec.thoughts)) for (const t of rec.thoughts) parts.push({ text: thoughtText(t), thought: true });
  parts.push(...content);
  if (Array.isArray(rec.toolCalls)) for (const c of rec.toolCalls) if (c && typeof c === 'object') parts.push({ functionCall: { id: c.id, name: c.name, args: c.args } });
  return parts;
}

/** The result parts of a gemini record's tool calls, as the client sends them after its turn. */
export function resultParts(rec: Record<string, any>): Part[] {
  const out: Part[] = [];
  if (!Array.isArray(rec.toolCalls)) return out;
  for (const c of rec.toolCalls) {
    if (!c || typeof c !== 'object' || !c.result) continue;
    if (typeof c.result === 'string') out.push({ functionResponse: { id: c.id, name: c.name, response: { output: c.result } } });
    else out.push(...partList(c.result));
  }
  return out;
}

/** Turns records into Common messages, one record at a time, remembering which calls are answered. */
export class TurnBuilder {
  private answered = new Set<string>();
  /** Calls of the last assistant message not answered yet, by tool name (to pair a response without an id). */
  private pending = new Map<string, string[]>();

  constructor(private readonly active: boolean) {}

  /** The Common messages of one record; `restart`: the conversation restarts here (a compression's snapshot). */
  messages(rec: Record<string, any>, restart = false): CommonMessage[] {
    if (restart) {
      // The kept turns come back after a compression under new ids: their results are new again.
      this.answered = new Set();
      this.pending = new Map();
    }
    const out = rec.type === 'user' ? this.user(rec) : rec.type === 'gemini' ? this.model(rec) : [];
    if (restart && out.length > 0) out[0]!.after_compaction = true;
    return out;
  }

  private message(role: 'user' | 'assistant', id: string, rec: Record<string, any>, content: Block[]): CommonMessage {
    const m: CommonMessage = { type: 'message', id, role, content };
    if (typeof rec.timestamp === 'string') m.timestamp = rec.timestamp;
    return m;
  }

  private user(rec: Record<string, any>): CommonMessage[] {
    if (this.active && isIgnoredUserText(contentText(rec.content))) return [];
    const blocks = this.resultBlocks(partList(rec.content), String(rec.id));
    return blocks.length === 0 ? [] : [this.message('user', String(rec.id), rec, blocks)];
  }

  private model(rec: Record<string, any>): CommonMessage[] {
    const parts = modelParts(rec);
    if (parts.length === 0) return [];
    const id = String(rec.id);
    this.pending = new Map();
    const blocks: Block[] = [];
    parts.forEach((p, i) => {
      if (p.functionCall && typeof p.functionCall === 'object') {
        const fc = p.functionCall;
        const use = toolUseBlock(typeof fc.id === 'string' ? fc.id : undefined, fc.name, fc.args, `${id}.${i}`);
        blocks.push(use);
        const list = this.pending.get(use.name) ?? [];
        list.push(use.id);
        this.pending.set(use.name, list);
        return;
      }
      const b = partBlock(p);
      if (b) blocks.push(b);
    });
    const out: CommonMessage[] = [];
    if (blocks.length > 0) {
      const m = this.message('assistant', id, rec, blocks);
      if (typeof rec.model === 'string') m.model = rec.model;
      const usage = usageOfTokens(rec.tokens);
      if (usage) m.usage = usage;
      out.push(m);
    }
    const results = this.resultBlocks(resultParts(rec), `${id}_response`);
    if (results.length > 0) out.push(this.message('user', `${id}_response`, rec, results));
    return out;
  }

  /** Blocks of parts that may hold function responses: each response once, with the parts after it. */
  private resultBlocks(parts: Part[], id: string): Block[] {
    const { before, responses } = splitResponses(parts);
    const blocks: Block[] = before.map(partBlock).filter((b): b is Block => b !== null);
    responses.forEach(({ fr, extra }, i) => {
      const callId = typeof fr.id === 'string' && fr.id !== '' ? fr.id : this.pendingId(fr.name) ?? `${id}.${i}`;
      if (this.answered.has(callId)) return;
      this.answered.add(callId);
      this.settle(callId);
      blocks.push(toolResultBlock(fr, extra, callId));
    });
    return blocks;
  }

  /** The first unanswered call of a tool (for a response that names no call). */
  private pendingId(name: unknown): string | undefined {
    return typeof name === 'string' ? this.pending.get(name)?.[0] : undefined;
  }

  private settle(callId: string): void {
    for (const [name, ids] of this.pending) {
      const at = ids.indexOf(callId);
      if (at >= 0) {
        ids.splice(at, 1);
        if (ids.length === 0) this.pending.delete(name);
        return;
      }
    }
  }
}
