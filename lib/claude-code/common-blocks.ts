// Claude Code's native message content as Common blocks: text, thinking, tool calls and
// results (with their typed views), images, artifacts, and the slash-command envelopes
// made a command call and its output.
import { MODELED_TYPES, type ArtifactBlock, type Block, type ImageBlock, type NativeBlock, type ToolResultBlock, type ToolUseBlock, type Usage } from '../common.js';
import { stripAnsi } from '../core/ansi.js';
import { stringifyJson } from '../core/json/json-text.js';
import type { EnvelopePart } from './envelope.js';
import { unescapeEnvelope } from './escape.js';
import { commandView, toolView } from './tool-view.js';

/** The anchor and line uuids of a compaction's preserved segment (Claude Code 2.1.3xx), or null. */
export function preservedSegment(meta: any): { uuid: string; uuids: Set<string> } | null {
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
export function envelopeBody(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.length === 1 && content[0]?.type === 'text' && typeof content[0].text === 'string') return content[0].text;
  return null;
}

/** The command call a slash-command envelope stands for (a `!` shell escape is the command `!`), its tags read by `tag`. */
export function commandBlock(uuid: string, tag: (name: string) => string | undefined): ToolUseBlock {
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

/** The result of a slash command: its stdout and stderr envelopes, unescaped and without ANSI colours (an error when only stderr has text). */
export function outputBlock(commandId: string, parts: EnvelopePart[]): ToolResultBlock {
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

/** A message's usage object, when it is one. */
export function usageOf(v: unknown): Usage | undefined {
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
