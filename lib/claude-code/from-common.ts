// Where Common becomes a Claude Code session again: one message in, the native lines
// that carry it out. Line ids are UUIDv5 of the session id and the line's position, so
// the same input always gives the same bytes.
import { isModeled, usableBlocks, type ArtifactBlock, type Block, type CommonMessage, type CommonSession, type TextBlock, type ToolResultBlock, type ToolUseBlock } from '../common.js';
import { escapeEnvelope } from './escape.js';
import { uuidV5 } from '../core/uuid.js';
import { stringifyJson } from '../core/json/json-text.js';

/** How a session is written. */
export interface FromCommonOptions {
  /** The new session's id (a UUID). */
  sessionId: string;
  /** The working directory written on every line (default: the session's). */
  cwd?: string;
  /** Write an artifact's inline bytes somewhere safe and return its path; without it such artifacts are an error. */
  materialize?(artifact: ArtifactBlock): string;
}

/** A problem with one message that does not stop the session. */
export interface FromCommonWarning {
  message: string;
}

const EPOCH = '1970-01-01T00:00:00.000Z';
const COMPACT_SUMMARY = 'This session is being continued from a previous conversation';

/** True for a tool_use that stands for a slash command (or a `!` shell escape) a person ran. */
export function isCommandUse(b: Block): b is ToolUseBlock {
  return isModeled(b) && b.type === 'tool_use' && (b.name.startsWith('/') || b.name === '!');
}

/** Writes one Common session as native Claude Code lines. */
export class CommonToClaude {
  private position = 0;
  private lastMain: string | null = null;
  private lastSide: string | null = null;
  private lastTimestamp: string;
  private readonly commandLines = new Map<string, { uuid: string; shell: boolean }>();
  readonly warnings: string[] = [];

  constructor(
    private readonly session: CommonSession,
    private readonly options: FromCommonOptions,
  ) {
    this.lastTimestamp = session.started_at ?? EPOCH;
  }

  /** The native lines of one Common message. */
  message(given: CommonMessage): object[] {
    const content = usableBlocks(given, this.warnings);
    if (content === null) return [];
    if (content.length === 0) {
      this.warnings.push('a message with no usable block, skipped');
      return [];
    }
    const m: CommonMessage = { ...given, id: typeof given.id === 'string' ? given.id : '', content };
    if (typeof m.timestamp === 'string') this.lastTimestamp = m.timestamp;
    const boundary = m.after_compaction && m.sidechain !== true ? [this.compactBoundary()] : [];
    const lines: object[] = m.role === 'assistant' ? [this.assistantLine(m)] : this.userLines(m);
    return [...boundary, ...lines];
  }

  /** The boundary a compaction leaves: the client resumes from the line after it. */
  private compactBoundary(): object {
    const logicalParent = this.lastMain;
    const line = this.envelope('system', false, { subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, level: 'info', compactMetadata: { trigger: 'manual' } });
    line.parentUuid = null;
    line.logicalParentUuid = logicalParent;
    return line;
  }

  /**
   * The lines that close the session: its titles, as the client keeps them. A custom title
   * is a custom-title line (what /rename writes); a title of another source a summary
   * anchored to the last line of the main chain; the client's own title an ai-title line.
   */
  finish(): object[] {
    if (this.lastMain === null) return [];
    const s = this.session;
    const sessionId = s.parent?.session ?? this.options.sessionId;
    const lines: object[] = [];
    if (s.custom_title !== undefined) lines.push({ type: 'custom-title', customTitle: s.custom_title, sessionId });
    if (s.title !== undefined && s.title !== s.custom_title) lines.push({ type: 'summary', summary: s.title, leafUuid: this.lastMain });
    if (s.ai_title !== undefined) lines.push({ type: 'ai-title', aiTitle: s.ai_title, sessionId });
    return lines;
  }

  private envelope(type: 'user' | 'assistant' | 'system' | 'attachment', sidechain: boolean, body: Record<string, unknown>): Record<string, unknown> {
    const uuid = uuidV5(this.options.sessionId, String(this.position++));
    // A subagent's own transcript is one sidechain, under its parent's session id.
    const parent = this.session.parent;
    const line: Record<string, unknown> = {
      parentUuid: sidechain ? this.lastSide : this.lastMain,
      isSidechain: sidechain || parent !== undefined,
      userType: 'external',
      cwd: this.options.cwd ?? this.session.cwd ?? '/',
      sessionId: parent?.session ?? this.options.sessionId,
    };
    if (parent?.agent_id !== undefined) line.agentId = parent.agent_id;
    if (this.session.version !== undefined) line.version = this.session.version;
    line.gitBranch = this.session.git_branch ?? '';
    line.type = type;
    Object.assign(line, body);
    line.uuid = uuid;
    line.timestamp = this.lastTimestamp;
    if (sidechain) this.lastSide = uuid;
    else this.lastMain = uuid;
    return line;
  }

  private assistantLine(m: CommonMessage): object {
    const content: unknown[] = [];
    for (const b of m.content) {
      const native = this.assistantBlock(b);
      if (native) content.push(native);
    }
    const message: Record<string, unknown> = {};
    message.model = m.model ?? this.session.model ?? '<synthetic>';
    message.id = m.id;
    message.type = 'message';
    message.role = 'assistant';
    message.content = content;
    message.stop_reason = m.stop_reason ?? null;
    message.stop_sequence = null;
    if (m.usage !== undefined) message.usage = m.usage;
    return this.envelope('assistant', m.sidechain === true, { message });
  }

  private assistantBlock(b: Block): unknown {
    // A native block goes back as it came.
    if (!isModeled(b)) return b;
    switch (b.type) {
      case 'text':
        return { type: 'text', text: b.text };
      case 'thinking':
        return b.signature === undefined ? { type: 'thinking', thinking: b.thinking } : { type: 'thinking', thinking: b.thinking, signature: b.signature };
      case 'redacted_thinking':
        return { type: 'redacted_thinking', data: b.data };
      case 'tool_use':
        return b.caller === undefined ? { type: 'tool_use', id: b.id, name: b.name, input: objectInput(b.input) } : { type: 'tool_use', id: b.id, name: b.name, input: objectInput(b.input), caller: b.caller };
      case 'artifact':
        return { type: 'tool_use', id: b.id, name: 'Artifact', input: this.artifactInput(b) };
      case 'image':
        this.warnings.push(`message ${b.type} on an assistant message has no native form, left out`);
        return null;
      case 'tool_result':
        this.warnings.push('a tool_result on an assistant message has no native form, left out');
        return null;
    }
  }

  private artifactInput(b: ArtifactBlock): Record<string, unknown> {
    let path: string;
    if (b.source.type === 'path') path = b.source.path;
    else if (this.options.materialize) path = this.options.materialize(b);
    else throw new Error(`artifact ${JSON.stringify(b.name)} has inline bytes: write the session with --install or --output so they have a place`);
    const input: Record<string, unknown> = { file_path: path };
    if (b.description !== undefined) input.description = b.description;
    return input;
  }

  private userLines(m: CommonMessage): object[] {
    const sidechain = m.sidechain === true;
    const lines: object[] = [];
    let pending: unknown[] = [];
    const flush = () => {
      if (pending.length === 0) return;
      const first = pending[0] as { type: string; text?: string };
      // A lone non-empty text is written as a string, as the CLI writes typed prompts.
      const content = pending.length === 1 && first.type === 'text' && first.text !== '' ? first.text : pending;
      lines.push(this.envelope('user', sidechain, { message: { role: 'user', content } }));
      pending = [];
    };
    for (const [i, b] of m.content.entries()) {
      if (!isModeled(b)) {
        pending.push(b);
      } else if (i === 0 && m.after_compaction && b.type === 'text' && b.text.startsWith(COMPACT_SUMMARY)) {
        // The client resumes a compacted session from its summary line, which it knows by these flags.
        lines.push(this.envelope('user', sidechain, { message: { role: 'user', content: b.text }, isVisibleInTranscriptOnly: true, isCompactSummary: true }));
      } else if (isCommandUse(b)) {
        flush();
        // A command that printed output ran in the client (a local command: /model, /compact);
        // one without is a prompt command (/review, a skill) the model answers. The client
        // writes the two differently and expects a reply only to the second.
        const local = m.content.some((r) => r.type === 'tool_result' && r.tool_use_id === b.id);
        // The client writes its caveat before a local command, and replays it on resume.
        if (local && b.name !== '!') {
          lines.push(this.envelope('user', sidechain, { message: { role: 'user', content: caveatFor(this.session.version) }, isMeta: true }));
        }
        const line = this.envelope('user', sidechain, { message: { role: 'user', content: commandBody(b, local) } });
        this.commandLines.set(b.id, { uuid: line.uuid as string, shell: b.name === '!' });
        lines.push(line);
      } else if (b.type === 'tool_result' && this.commandLines.has(b.tool_use_id)) {
        flush();
        const command = this.commandLines.get(b.tool_use_id) as { uuid: string; shell: boolean };
        this.commandLines.delete(b.tool_use_id);
        const line = this.envelope('user', sidechain, { message: { role: 'user', content: outputBody(b, command.shell) } });
        line.parentUuid = command.uuid;
        lines.push(line);
      } else if (b.type === 'tool_result') {
        flush();
        lines.push(this.envelope('user', sidechain, { message: { role: 'user', content: [toolResult(b)] } }));
      } else if (b.type === 'text' && b.text.startsWith('<task-notification>')) {
        // The client frames a background task's notification as a system notification on
        // resume only when the line says where it came from.
        flush();
        lines.push(this.envelope('user', sidechain, { message: { role: 'user', content: b.text }, origin: { kind: 'task-notification' } }));
      } else if (b.type === 'text' && b.origin === 'queued') {
        // A prompt typed while a turn ran: the client delivers it inside the turn, framed as
        // a message sent while it was working, from a queued_command attachment.
        flush();
        lines.push(this.envelope('attachment', sidechain, { attachment: queuedCommand(b) }));
      } else if (b.type === 'text') {
        pending.push({ type: 'text', text: b.text });
      } else if (b.type === 'image') {
        pending.push({ type: 'image', source: b.source });
      } else {
        this.warnings.push(`a ${b.type} block on a user message has no native form, left out`);
      }
    }
    flush();
    return lines;
  }
}

/** The queued_command attachment of a prompt the person typed while a turn was running. */
function queuedCommand(b: TextBlock): Record<string, unknown> {
  return { type: 'queued_command', prompt: b.text, commandMode: 'prompt', origin: { kind: 'human' }, humanTurn: true };
}

/** The caveat text of the CLI version that wrote the session (the wording changed between 2.1.112 and 2.1.328). */
export function caveatFor(version: string | undefined): string {
  const [major, minor, patch] = (version ?? '').split('.').map((x) => Number.parseInt(x, 10));
  const old = major < 2 || (major === 2 && (minor < 1 || (minor === 1 && patch < 200)));
  const text = old
    ? 'Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.'
    : "The command below was run directly in Claude Code, not sent to you as a request, and its output goes straight to the user. It's recorded here as context for later messages.";
  return `<local-command-caveat>${text}</local-command-caveat>`;
}

/** A tool input as the API requires it: an object; anything else is wrapped as {"input": value}. */
export function objectInput(input: unknown): Record<string, unknown> {
  if (input && typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  return { input };
}

function toolResult(b: ToolResultBlock): Record<string, unknown> {
  const out: Record<string, unknown> = { tool_use_id: b.tool_use_id, type: 'tool_result', content: resultContent(b.content) };
  if (b.is_error) out.is_error = true;
  return out;
}

/** Tool result content the client loads: a string or a block array; anything else as its compact JSON text. */
export function resultContent(content: unknown): string | unknown[] {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content;
  return content === undefined || content === null ? '' : stringifyJson(content);
}

/** The envelope of a command, in the layout the client uses for a local command or a prompt command. */
function commandBody(b: ToolUseBlock, local: boolean): string {
  const input = b.input ?? {};
  const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? undefined : JSON.stringify(v));
  if (b.name === '!') return `<bash-input>${escapeEnvelope(str(input.args) ?? '')}</bash-input>`;
  const message = str(input.message) ?? b.name.replace(/^\//, '');
  const args = str(input.args);
  const contents = str(input.contents);
  if (local && contents === undefined) {
    const indent = '\n            ';
    return `<command-name>${escapeEnvelope(b.name)}</command-name>${indent}<command-message>${escapeEnvelope(message)}</command-message>${indent}<command-args>${escapeEnvelope(args ?? '')}</command-args>`;
  }
  let body = `<command-message>${escapeEnvelope(message)}</command-message>\n<command-name>${escapeEnvelope(b.name)}</command-name>`;
  if (args !== undefined) body += `\n<command-args>${escapeEnvelope(args)}</command-args>`;
  if (contents !== undefined) body += `\n<command-contents>${escapeEnvelope(contents)}</command-contents>`;
  return body;
}

function outputBody(b: ToolResultBlock, shell: boolean): string {
  const text = escapeEnvelope(typeof b.content === 'string' ? b.content : Array.isArray(b.content) ? b.content.map((x) => (x.type === 'text' ? x.text : '')).join('\n') : stringifyJson(b.content));
  if (shell) return b.is_error ? `<bash-stdout></bash-stdout><bash-stderr>${text}</bash-stderr>` : `<bash-stdout>${text}</bash-stdout><bash-stderr></bash-stderr>`;
  const tag = b.is_error ? 'local-command-stderr' : 'local-command-stdout';
  return `<${tag}>${text}</${tag}>`;
}
