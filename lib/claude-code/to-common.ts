// Where a Claude Code session becomes Common: native lines in, one Common message per
// API message out. A streaming stage: it holds only the message being merged (an
// assistant message streamed over several lines, and the user message collecting the
// tool results and user lines that follow it), the unanswered slash commands (to pair
// their output through parentUuid), and the session's small metadata.
import type { Block, CommonMessage, TextBlock } from '../common.js';
import { blocksOf, commandBlock, envelopeBody, outputBlock, preservedSegment, usageOf } from './common-blocks.js';
import { isHumanQueued } from './classify.js';
import { COMMAND_TAGS, OUTPUT_TAGS, parseEnvelope, type EnvelopePart } from './envelope.js';
import { unescapeEnvelope } from './escape.js';
import type { PassesThrough } from '../core/json/raw-strings.js';
import type { Kind } from '../record.js';

/** What the session line is made of, gathered while the lines stream by. */
export interface SessionFacts {
  /** sessionId of the first user line carrying one (else of any line). */
  sessionId?: string;
  /** agentId of the first line carrying one (subagent transcripts). */
  agentId?: string;
  cwd?: string;
  gitBranch?: string;
  version?: string;
  model?: string;
  /** Earliest timestamp of a user or assistant line. */
  startedAt?: string;
  /** Title by precedence: the last custom-title, else the last agent-name, else the first summary. */
  customTitle?: string;
  agentName?: string;
  summary?: string;
  /** The last ai-title line's title (the client's own guess). */
  aiTitle?: string;
  /** The first conversational line was a sidechain line: the file is a subagent's own transcript. */
  subagent?: boolean;
}

/** How the conversion runs. */
export interface ToCommonOptions {
  /** Also convert sidechain lines (a subagent's conversation kept inside the main file); they get `sidechain: true`. */
  sidechains?: boolean;
  /** The conversation as the client resumes it: put a compaction's preserved segment back after its summary. */
  active?: boolean;
  /** Receives each finished message, in order, with the uuids of the lines it was made of. */
  emit(message: CommonMessage, uuids: string[]): void;
  /** Called at a compact boundary of the main chain, after every earlier message was emitted. */
  compacted?(): void;
  /**
   * Called right after the compact summary was emitted, with the uuids of the lines the
   * compaction kept (its preserved segment): the client puts those messages back there.
   */
  preserved?(uuids: Set<string>, anchor: string): void;
}

// Unanswered commands kept for pairing; a command whose output never came (a prompt
// command like a custom /greet prints nothing) is forgotten after this many newer ones.
const OPEN_COMMANDS_LIMIT = 256;

/** One chain's merge state: the assistant message still streaming and the user message after it. */
class Merger {
  assistant: CommonMessage | null = null;
  user: CommonMessage | null = null;
  private assistantUuids: string[] = [];
  private userUuids: string[] = [];
  /** Where the open messages began (line sequence numbers), to put messages of two chains in order. */
  private assistantStart = 0;
  private userStart = 0;

  constructor(
    private readonly emit: (m: CommonMessage, uuids: string[], start: number) => void,
    private readonly sidechain: boolean,
  ) {}

  /** Add an assistant line: a line of the open message (same API id) or the start of a new one. */
  assistantLine(seq: number, id: string, uuid: string, line: any, blocks: Block[]): void {
    const message = line.message;
    if (this.assistant && this.assistant.id === id) {
      // A resumed session can write a line again under its own uuid: the client keeps one.
      if (this.assistantUuids.includes(uuid)) return;
      this.assistant.content.push(...blocks);
    } else {
      this.flush();
      this.assistantUuids = [];
      this.assistantStart = seq;
      const m: CommonMessage = { type: 'message', id, role: 'assistant', content: blocks };
      if (typeof line.timestamp === 'string') m.timestamp = line.timestamp;
      if (typeof message.model === 'string') m.model = message.model;
      if (this.sidechain) m.sidechain = true;
      this.assistant = m;
    }
    this.assistantUuids.push(uuid);
    // Streamed lines repeat usage and leave stop_reason null until the last one: keep the latest.
    if (typeof message.stop_reason === 'string') this.assistant.stop_reason = message.stop_reason;
    const usage = usageOf(message.usage);
    if (usage) this.assistant.usage = usage;
  }

  /**
   * Add blocks of a user line. Tool results may arrive between the lines of the
   * assistant message they answer, so they wait beside it; anything else closes it.
   */
  userBlocks(seq: number, id: string, timestamp: unknown, blocks: Block[], onlyResults: boolean): void {
    if (blocks.length === 0 || this.userUuids.includes(id)) return;
    if (!onlyResults && this.assistant) {
      this.emitIfFull(this.assistant, this.assistantUuids, this.assistantStart);
      this.assistant = null;
    }
    if (!this.user) {
      this.userStart = seq;
      const m: CommonMessage = { type: 'message', id, role: 'user', content: [] };
      if (typeof timestamp === 'string') m.timestamp = timestamp;
      if (this.sidechain) m.sidechain = true;
      this.user = m;
    }
    this.user.content.push(...blocks);
    this.userUuids.push(id);
  }

  /** Emit what is open, assistant first (the user message always follows it). */
  flush(): void {
    if (this.assistant) this.emitIfFull(this.assistant, this.assistantUuids, this.assistantStart);
    if (this.user) this.emitIfFull(this.user, this.userUuids, this.userStart);
    this.assistant = null;
    this.user = null;
    this.userUuids = [];
  }

  /** Where the earliest open message began, or Infinity when none is open. */
  openSince(): number {
    return Math.min(this.assistant ? this.assistantStart : Infinity, this.user ? this.userStart : Infinity);
  }

  private emitIfFull(m: CommonMessage, uuids: string[], start: number): void {
    if (m.content.length > 0) this.emit(m, uuids, start);
  }
}

/**
 * The record kinds (classify.ts) of the lines push never reads: progress, session
 * bookkeeping (meta), hooks, and attachments other than a prompt a person queued.
 */
export const UNREAD_KINDS: ReadonlySet<Kind> = new Set<Kind>(['progress', 'meta', 'hook', 'attachment']);

/**
 * The record kinds whose long strings are carried as bytes (core/json/raw-strings.ts): a tool's
 * result, and a prompt with an image pasted in.
 */
export const RAW_KINDS: ReadonlySet<Kind> = new Set<Kind>(['tool-result', 'prompt']);

/** Where push copies a value into a message without reading it: a tool result's text, base64 data (an image, a document). */
export const passesThrough: PassesThrough = (holder, key) => (key === 'content' && holder.type === 'tool_result') || (key === 'data' && holder.type === 'base64');

/** Converts one Claude Code session, line by line, into Common messages. */
export class ClaudeToCommon {
  /** The session's metadata so far. */
  readonly facts: SessionFacts = {};
  private readonly main: Merger;
  private readonly side: Merger;
  private readonly openCommands = new Map<string, string>();
  private seenConversation = false;
  private afterCompaction = false;
  private started = false;
  /** The compact summary line the preserved segment of the last compaction follows, and that segment. */
  private anchor: { uuid: string; uuids: Set<string> } | null = null;

  /** Finished messages waiting for an earlier-begun message of the other chain (only with sidechains). */
  private pending: { m: CommonMessage; uuids: string[]; start: number }[] = [];
  private seq = 0;

  constructor(private readonly options: ToCommonOptions) {
    const emit = (m: CommonMessage, uuids: string[], start: number) => {
      if (this.afterCompaction && !m.sidechain) {
        m.after_compaction = true;
        this.afterCompaction = false;
      }
      this.pending.push({ m, uuids, start });
    };
    this.main = new Merger(emit, false);
    this.side = new Merger(emit, true);
  }

  // Messages go out in the order they began: one that ends while an earlier-begun message
  // of the other chain is still open waits for it.
  private release(all = false): void {
    if (this.pending.length === 0) return;
    const since = all ? Infinity : Math.min(this.main.openSince(), this.side.openSince());
    this.pending.sort((x, y) => x.start - y.start);
    let i = 0;
    for (; i < this.pending.length && this.pending[i].start < since; i++) this.options.emit(this.pending[i].m, this.pending[i].uuids);
    this.pending = this.pending.slice(i);
  }

  /** Take one parsed native line (`n` numbers lines that carry no uuid). */
  push(line: any, n: number): void {
    if (!line || typeof line !== 'object' || Array.isArray(line)) return;
    switch (line.type) {
      case 'user':
      case 'assistant':
        this.noteFacts(line);
        if (!line.message || typeof line.message !== 'object') return;
        return this.conversational(line, n);
      case 'system':
        if (line.subtype === 'compact_boundary' && line.isSidechain !== true) {
          this.restart();
          this.anchor = preservedSegment(line.compactMetadata);
        } else if (line.subtype === 'local_command' && typeof line.content === 'string') {
          this.conversational(line, n);
        }
        return;
      case 'attachment':
        // A prompt the person typed while a turn was running reaches the model inside that turn.
        if (isHumanQueued(line.attachment) && (typeof line.attachment.prompt === 'string' || Array.isArray(line.attachment.prompt))) this.conversational(line, n);
        return;
      case 'summary':
        if (this.facts.summary === undefined && typeof line.summary === 'string') this.facts.summary = line.summary;
        return;
      case 'custom-title':
        if (typeof line.customTitle === 'string') this.facts.customTitle = line.customTitle;
        return;
      case 'agent-name':
        if (typeof line.agentName === 'string') this.facts.agentName = line.agentName;
        return;
      case 'ai-title':
        if (typeof line.aiTitle === 'string') this.facts.aiTitle = line.aiTitle;
        return;
    }
  }

  /** The conversation restarts (a compaction): emit what is open; the next message is marked after_compaction. */
  private restart(): void {
    this.main.flush();
    this.release(true);
    this.afterCompaction = true;
    this.options.compacted?.();
  }

  /** Emit whatever is still being merged (end of the session). */
  finish(): void {
    this.main.flush();
    this.side.flush();
    this.release(true);
  }

  private noteFacts(line: any): void {
    const f = this.facts;
    const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
    if (line.type === 'user') {
      f.sessionId ??= str(line.sessionId);
      f.cwd ??= str(line.cwd);
      f.gitBranch ??= str(line.gitBranch);
      f.version ??= str(line.version);
    } else {
      const model = str(line.message?.model);
      // `<synthetic>` marks messages the client made up (API errors), not a model.
      if (model !== '<synthetic>') f.model ??= model;
    }
    f.agentId ??= str(line.agentId);
    const ts = str(line.timestamp);
    if (ts && (f.startedAt === undefined || Date.parse(ts) < Date.parse(f.startedAt))) f.startedAt = ts;
  }

  private conversational(line: any, n: number): void {
    const sidechain = line.isSidechain === true;
    if (!this.seenConversation) {
      this.seenConversation = true;
      // A file that opens on a sidechain line is a subagent's transcript: its sidechain is its main chain.
      this.facts.subagent = sidechain;
    }
    let merger = this.main;
    if (sidechain && !this.facts.subagent) {
      if (!this.options.sidechains) return;
      merger = this.side;
    }
    const uuid = typeof line.uuid === 'string' && line.uuid !== '' ? line.uuid : `line-${n}`;
    // A main-chain user line with no parent after the first restarts the conversation: an
    // older CLI's compaction wrote its summary so, with no boundary line.
    if (line.type === 'user' && line.parentUuid === null && merger === this.main && this.started && !this.afterCompaction) this.restart();
    if (merger === this.main) this.started = true;
    const seq = ++this.seq;
    if (line.type === 'assistant') {
      // The client writes API errors as assistant lines; no model wrote them and the client does not send them back.
      if (line.isApiErrorMessage === true) return;
      const id = typeof line.message.id === 'string' && line.message.id !== '' ? line.message.id : uuid;
      merger.assistantLine(seq, id, uuid, line, blocksOf(line.message.content, 'assistant'));
      this.release();
      return;
    }
    const content = line.type === 'system' ? line.content : line.type === 'attachment' ? line.attachment.prompt : line.message.content;
    const body = envelopeBody(content);
    const parts = body === null ? null : parseEnvelope(body);
    if (parts) {
      merger.userBlocks(seq, uuid, line.timestamp, this.envelopeBlocks(parts, body as string, uuid, line.parentUuid), false);
      this.release();
      return;
    }
    if (line.type === 'system') return;
    const blocks = blocksOf(content, 'user');
    // A queued prompt keeps its origin, so that it is written back as the client frames it.
    if (line.type === 'attachment') for (const b of blocks) if (b.type === 'text') (b as TextBlock).origin = 'queued';
    merger.userBlocks(seq, uuid, line.timestamp, blocks, blocks.every((b) => b.type === 'tool_result'));
    if (this.anchor && this.anchor.uuid === uuid && merger === this.main) {
      if (this.options.active) {
        // The kept messages go right after the summary, before anything that follows it.
        merger.flush();
        this.release(true);
        this.options.preserved?.(this.anchor.uuids, uuid);
      }
      this.anchor = null;
    }
    this.release();
  }

  /** The blocks of a body made entirely of envelope markup: a command, its output, or nothing (the caveat). */
  private envelopeBlocks(parts: EnvelopePart[], body: string, uuid: string, parentUuid: unknown): Block[] {
    const tag = (name: string) => {
      const p = parts.find((x) => x.tag === name);
      return p === undefined ? undefined : unescapeEnvelope(p.text);
    };
    if (parts.some((p) => (COMMAND_TAGS as readonly string[]).includes(p.tag))) {
      const block = commandBlock(uuid, tag);
      this.openCommands.delete(uuid);
      this.openCommands.set(uuid, block.id);
      if (this.openCommands.size > OPEN_COMMANDS_LIMIT) this.openCommands.delete(this.openCommands.keys().next().value as string);
      return [block];
    }
    if (parts.some((p) => (OUTPUT_TAGS as readonly string[]).includes(p.tag))) {
      let commandId: string | undefined;
      if (typeof parentUuid === 'string' && this.openCommands.has(parentUuid)) {
        commandId = this.openCommands.get(parentUuid);
        this.openCommands.delete(parentUuid);
      } else if (this.openCommands.size > 0) {
        // The most recent command still waiting for its output.
        const last = [...this.openCommands.keys()].pop() as string;
        commandId = this.openCommands.get(last);
        this.openCommands.delete(last);
      }
      // Output with no command to answer stays the text the file holds.
      if (commandId === undefined) return [{ type: 'text', text: body }];
      return [outputBlock(commandId, parts)];
    }
    return [];
  }
}
