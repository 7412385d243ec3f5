// Where a Claude Code session becomes Common: native lines in, one Common message per
// API message out. A streaming stage: it holds only the message being merged (an
// assistant message streamed over several lines, and the user message collecting the
// tool results and user lines that follow it), the unanswered slash commands (to pair
// their output through parentUuid), and the session's small metadata.
import { MODELED_TYPES, type ArtifactBlock, type Block, type CommonMessage, type ImageBlock, type NativeBlock, type TextBlock, type ToolResultBlock, type ToolUseBlock, type Usage } from '../common.js';
import { stripAnsi } from '../core/ansi.js';
import { isHumanQueued } from './classify.js';
import { COMMAND_TAGS, OUTPUT_TAGS, parseEnvelope, type EnvelopePart } from './envelope.js';
import { unescapeEnvelope } from './escape.js';
import { commandView, toolView } from './tool-view.js';
import { stringifyJson } from '../core/json-text.js';
import type { PassesThrough } from '../core/raw-strings.js';
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
 * The record kinds whose long strings are carried as bytes (core/raw-strings.ts): a tool's
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

/** The anchor and line uuids of a compaction's preserved segment (Claude Code 2.1.3xx), or null. */
function preservedSegment(meta: any): { uuid: string; uuids: Set<string> } | null {
  if (!meta || typeof meta !== 'object') return null;
  const kept = meta.preservedMessages;
  const segment = meta.preservedSegment;
  const anchor = kept?.anchorUuid ?? segment?.anchorUuid;
  if (typeof anchor !== 'string') return null;
  const uuids = new Set<string>();
  for (const list of [kept?.allUuids, kept?.uuids]) if (Array.isArray(list)) for (const u of list) if (typeof u === 'string') uuids.add(u);
  for (const u of [segment?.headUuid, segment?.tailUuid]) if (typeof u === 'string') uuids.add(u);
  return uuids.size > 0 ? { uuid: anchor, uuids } : null;
}

/** The text of a body that could be envelope markup: a string, or a lone text block. */
function envelopeBody(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.length === 1 && content[0]?.type === 'text' && typeof content[0].text === 'string') return content[0].text;
  return null;
}

function commandBlock(uuid: string, tag: (name: string) => string | undefined): ToolUseBlock {
  const bash = tag('bash-input');
  const message = tag('command-message');
  const args = tag('command-args');
  const contents = tag('command-contents');
  let name: string;
  const input: Record<string, unknown> = {};
  if (tag('command-name') === undefined && bash !== undefined) {
    // A `!` shell escape: the command line is its argument.
    name = '!';
    input.args = bash;
    return { type: 'tool_use', id: uuid, name, input, tool: commandView(name, bash) };
  }
  const raw = (tag('command-name') ?? message ?? '').trim();
  name = raw.startsWith('/') ? raw : `/${raw}`;
  const trimmedArgs = args?.trim();
  if (trimmedArgs) input.args = trimmedArgs;
  if (message !== undefined) input.message = message;
  if (contents !== undefined) input.contents = contents;
  return { type: 'tool_use', id: uuid, name, input, tool: commandView(name, trimmedArgs || undefined, message) };
}

function outputBlock(commandId: string, parts: EnvelopePart[]): ToolResultBlock {
  const text = (tags: string[]) =>
    parts
      .filter((p) => tags.includes(p.tag))
      .map((p) => stripAnsi(unescapeEnvelope(p.text)))
      .join('\n');
  const out = text(['local-command-stdout', 'bash-stdout']);
  const err = text(['local-command-stderr', 'bash-stderr']);
  const block: ToolResultBlock = { type: 'tool_result', tool_use_id: commandId, content: out && err ? `${out}\n${err}` : out || err };
  if (err && !out) block.is_error = true;
  return block;
}

function usageOf(v: unknown): Usage | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  return v as Usage;
}

/** The Common blocks of a native message content (a string or a block list). */
export function blocksOf(content: unknown, role: 'user' | 'assistant'): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (const b of content) {
    const block = blockOf(b, role);
    if (block) blocks.push(block);
  }
  return blocks;
}

function blockOf(b: any, role: 'user' | 'assistant'): Block | null {
  if (!b || typeof b !== 'object') return null;
  switch (b.type) {
    case 'text':
      if (typeof b.text !== 'string') return null;
      // A streamed reply can open with a text block of blank lines; the client drops such blocks when it rebuilds the conversation.
      if (role === 'assistant' && b.text.trim() === '') return null;
      return { type: 'text', text: b.text };
    case 'thinking':
      if (typeof b.thinking !== 'string') return null;
      return typeof b.signature === 'string' ? { type: 'thinking', thinking: b.thinking, signature: b.signature } : { type: 'thinking', thinking: b.thinking };
    case 'redacted_thinking':
      return typeof b.data === 'string' ? { type: 'redacted_thinking', data: b.data } : null;
    case 'tool_use':
      return toolUseOf(b);
    case 'tool_result':
      return role === 'user' ? toolResultOf(b) : null;
    case 'image':
      return imageOf(b);
  }
  // Block types Common does not model (a ToolSearch tool_reference, documents, server tool
  // blocks…) are carried as they are; the client sends them back to the API as they are.
  return nativeBlockOf(b);
}

function nativeBlockOf(b: any): NativeBlock | null {
  return typeof b.type === 'string' && b.type !== '' && !MODELED_TYPES.has(b.type) ? (b as NativeBlock) : null;
}

function toolUseOf(b: any): Block | null {
  if (typeof b.id !== 'string' || typeof b.name !== 'string') return null;
  // The API requires an object; anything else is kept inside one.
  const input: Record<string, unknown> = b.input && typeof b.input === 'object' && !Array.isArray(b.input) ? b.input : b.input === undefined ? {} : { input: b.input };
  if (b.name === 'Artifact' && typeof input.file_path === 'string') return artifactOf(b.id, input.file_path, input.description);
  const block: ToolUseBlock = { type: 'tool_use', id: b.id, name: b.name, input };
  if (b.caller !== undefined) block.caller = b.caller;
  const tool = toolView(b.name, input);
  if (tool) block.tool = tool;
  return block;
}

function artifactOf(id: string, path: string, description: unknown): ArtifactBlock {
  const name = path.split(/[\\/]/).filter(Boolean).pop() ?? path;
  const block: ArtifactBlock = { type: 'artifact', id, name, source: { type: 'path', path } };
  if (typeof description === 'string') block.description = description;
  return block;
}

function toolResultOf(b: any): ToolResultBlock | null {
  if (typeof b.tool_use_id !== 'string') return null;
  let content: string | Block[];
  if (typeof b.content === 'string') content = b.content;
  // A result holds text, images and native blocks (ToolSearch answers with tool_reference blocks).
  else if (Array.isArray(b.content)) content = blocksOf(b.content, 'user').filter((x) => x.type !== 'tool_use' && x.type !== 'tool_result' && x.type !== 'artifact');
  else content = b.content === undefined || b.content === null ? '' : stringifyJson(b.content);
  const block: ToolResultBlock = { type: 'tool_result', tool_use_id: b.tool_use_id, content };
  if (b.is_error === true) block.is_error = true;
  return block;
}

function imageOf(b: any): ImageBlock | null {
  const s = b.source;
  if (!s || typeof s !== 'object') return null;
  if (s.type === 'url' && typeof s.url === 'string') return { type: 'image', source: { type: 'url', url: s.url } };
  if (typeof s.data === 'string' && typeof s.media_type === 'string') return { type: 'image', source: { type: 'base64', media_type: s.media_type, data: s.data } };
  return null;
}
