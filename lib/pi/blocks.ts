// pi's content blocks as Common blocks, both ways, and the typed views of pi's own tools
// (read, bash, edit, write; src/core/tools/). A block pi does not write is left out by
// the caller; nothing here throws on a malformed one.
import type { Block, ImageBlock, TextBlock, ToolResultBlock, ToolUseBlock, ToolView } from '../common.js';

const str = (v: unknown): v is string => typeof v === 'string';
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The typed view of one of pi's tools, or undefined for another tool or an input outside its schema. */
export function piToolView(name: string, input: Record<string, any>): ToolView | undefined {
  switch (name) {
    case 'bash':
      // pi's timeout is in seconds, the view's in milliseconds: left to the input.
      return str(input.command) ? { kind: 'bash', command: input.command } : undefined;
    case 'read': {
      if (!str(input.path)) return undefined;
      const v: ToolView = { kind: 'read', file_path: input.path };
      if (num(input.offset)) v.offset = input.offset;
      if (num(input.limit)) v.limit = input.limit;
      return v;
    }
    case 'write':
      return str(input.path) && str(input.content) ? { kind: 'write', file_path: input.path, content: input.content } : undefined;
    case 'edit': {
      if (!str(input.path)) return undefined;
      // Before edits[] (0.6x), one replacement as oldText/newText.
      if (str(input.oldText) && str(input.newText)) return { kind: 'edit', file_path: input.path, old_string: input.oldText, new_string: input.newText };
      if (!Array.isArray(input.edits) || input.edits.length === 0) return undefined;
      const edits: { old_string: string; new_string: string }[] = [];
      for (const e of input.edits) {
        if (!e || !str(e.oldText) || !str(e.newText)) return undefined;
        edits.push({ old_string: e.oldText, new_string: e.newText });
      }
      if (edits.length === 1) return { kind: 'edit', file_path: input.path, old_string: edits[0]!.old_string, new_string: edits[0]!.new_string };
      return { kind: 'multi_edit', file_path: input.path, edits };
    }
    default:
      return undefined;
  }
}

/** A pi image block ({data, mimeType}) as Common's, or null when it is not one. */
export function imageBlock(b: any): ImageBlock | null {
  if (!b || b.type !== 'image' || !str(b.data)) return null;
  return { type: 'image', source: { type: 'base64', media_type: str(b.mimeType) ? b.mimeType : 'application/octet-stream', data: b.data } };
}

/** The blocks of a user-side content (a string, or text and image blocks), every block kept as written. */
export function userBlocks(content: unknown): Block[] {
  if (str(content)) return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const out: Block[] = [];
  for (const b of content) {
    if (b?.type === 'text' && str(b.text)) out.push({ type: 'text', text: b.text });
    else {
      const image = imageBlock(b);
      if (image) out.push(image);
    }
  }
  return out;
}

/** A pi tool call as a Common tool_use. */
export function toolUseBlock(b: any): ToolUseBlock | null {
  if (!b || b.type !== 'toolCall' || !str(b.id) || !str(b.name)) return null;
  const input = b.arguments && typeof b.arguments === 'object' && !Array.isArray(b.arguments) ? (b.arguments as Record<string, unknown>) : {};
  const use: ToolUseBlock = { type: 'tool_use', id: b.id, name: b.name, input };
  const view = piToolView(b.name, input);
  if (view) use.tool = view;
  return use;
}

/**
 * A tool result's content as the client sends it (convertContentBlocks of pi-ai's
 * Anthropic provider): its texts joined by newlines when it holds no image; else the
 * blocks, led by "(see attached image)" when none is text.
 */
export function resultContent(content: unknown): string | Block[] {
  const blocks = userBlocks(content);
  if (!blocks.some((b) => b.type === 'image')) return blocks.map((b) => (b as TextBlock).text).join('\n');
  if (!blocks.some((b) => b.type === 'text')) blocks.unshift({ type: 'text', text: '(see attached image)' });
  return blocks;
}

/** A toolResult message as a Common tool_result. */
export function toolResultBlock(m: any): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: str(m.toolCallId) ? m.toolCallId : '', content: resultContent(m.content), is_error: m.isError === true };
}

/** Common blocks of a user side (text, image) as pi's; what pi cannot hold is named in `dropped`. */
export function piUserContent(blocks: Block[], dropped: string[]): ({ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string })[] {
  const out: ({ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string })[] = [];
  for (const b of blocks as any[]) {
    if (b.type === 'text') out.push({ type: 'text', text: b.text });
    else if (b.type === 'image' && b.source?.type === 'base64' && str(b.source.data)) out.push({ type: 'image', data: b.source.data, mimeType: str(b.source.media_type) ? b.source.media_type : 'image/png' });
    else dropped.push(b.type === 'image' ? 'an image given by URL (pi keeps images inline)' : `a ${b.type} block`);
  }
  return out;
}
