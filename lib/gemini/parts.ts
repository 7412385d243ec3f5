// Gemini API parts (the `content` of a message record, the `result` of a tool call) as
// the client reads them, and as Common blocks. The client's own readings are taken from
// packages/core/src/utils/sessionUtils.ts and partUtils.ts of gemini-cli: a content is a
// string, one part, or a list of parts and strings; its text, for deciding what a user
// message is, is every part's text or a bracketed label.
import type { Block, ImageBlock, NativeBlock, TextBlock, ThinkingBlock } from '../common.js';

/** One Gemini API part. */
export type Part = Record<string, any>;

/** A native block carrying a part Common does not model, verbatim. */
export const NATIVE_PART = 'gemini_part';

/** A content as a list of parts, as the client reads it (a string is one text part). */
export function partList(content: unknown): Part[] {
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? { text: p } : p)).filter((p): p is Part => !!p && typeof p === 'object');
  if (typeof content === 'string') return [{ text: content }];
  return content && typeof content === 'object' ? [content as Part] : [];
}

/** A content's text the way the client reads it to decide what a message is: text parts, and a bracketed label for anything else. */
export function contentText(content: unknown): string {
  if (!content) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(contentText).join('');
  if (typeof content !== 'object') return '';
  const p = content as Part;
  if (p.videoMetadata !== undefined) return '[Video Metadata]';
  if (p.thought !== undefined) return `[Thought: ${String(p.thought)}]`;
  if (p.codeExecutionResult !== undefined) return '[Code Execution Result]';
  if (p.executableCode !== undefined) return '[Executable Code]';
  if (p.fileData !== undefined) return '[File Data]';
  if (p.functionCall !== undefined) return `[Function Call: ${String(p.functionCall?.name)}]`;
  if (p.functionResponse !== undefined) return `[Function Response: ${String(p.functionResponse?.name)}]`;
  if (p.inlineData !== undefined) return `[Media: ${String(p.inlineData?.mimeType ?? 'unknown')}]`;
  return typeof p.text === 'string' ? p.text : '';
}

/** Openings of a user message's text the client leaves out of a resumed conversation (sessionUtils.ts isIgnoredUserContent). */
export const IGNORED_OPENINGS = ['/', '?', '<session_context>', '<hook_context>'];

/** True for a user message the client does not resume: empty, a slash command, a `?` help request, or its own context. */
export function isIgnoredUserText(text: string): boolean {
  const t = text.trim();
  return t.length === 0 || IGNORED_OPENINGS.some((o) => t.startsWith(o));
}

/** True for a thought part (the model's reasoning summary). */
export function isThought(p: Part): boolean {
  return !!p.thought;
}

/** An inline image part as an image block; another inline medium (PDF, audio) as a native block. */
function inlineBlock(p: Part): ImageBlock | NativeBlock {
  const d = p.inlineData ?? {};
  const mime = typeof d.mimeType === 'string' ? d.mimeType : '';
  if (mime.startsWith('image/') && typeof d.data === 'string' && Object.keys(p).length === 1) return { type: 'image', source: { type: 'base64', media_type: mime, data: d.data } };
  return { type: NATIVE_PART, part: p };
}

/**
 * One part as a Common block: text, thinking, an image; a part Common has no block for
 * (a file reference, code execution, a text with fields of its own) is carried whole as a
 * `gemini_part` native block. Calls and responses are not blocks of this kind: the callers
 * pair them. Null for an empty text part (the client drops those).
 */
export function partBlock(p: Part): Block | null {
  if (p.thought && typeof p.text === 'string') {
    const t: ThinkingBlock = { type: 'thinking', thinking: p.text };
    if (typeof p.thoughtSignature === 'string') t.signature = p.thoughtSignature;
    return t;
  }
  if (typeof p.text === 'string' && Object.keys(p).every((k) => k === 'text' || k === 'thoughtSignature')) {
    if (p.text === '') return null;
    const t: TextBlock = { type: 'text', text: p.text };
    return t;
  }
  if (p.inlineData && typeof p.inlineData === 'object') return inlineBlock(p);
  return { type: NATIVE_PART, part: p };
}

/** A Common block as a part, or null when it has no part form here (tool use and results are written apart). */
export function blockPart(b: Block): Part | null {
  switch (b.type) {
    case 'text':
      return typeof (b as TextBlock).text === 'string' ? { text: (b as TextBlock).text } : null;
    case 'thinking': {
      const t = b as ThinkingBlock;
      return { text: t.thinking, thought: true };
    }
    case 'image': {
      const img = b as ImageBlock;
      if (img.source.type === 'base64') return { inlineData: { mimeType: img.source.media_type, data: img.source.data } };
      return { fileData: { mimeType: mimeOfUrl(img.source.url), fileUri: img.source.url } };
    }
    case NATIVE_PART: {
      const p = (b as NativeBlock).part;
      return p && typeof p === 'object' && !Array.isArray(p) ? (p as Part) : null;
    }
    default:
      return null;
  }
}

function mimeOfUrl(url: string): string {
  const ext = /\.([A-Za-z0-9]+)(?:[?#]|$)/.exec(url)?.[1]?.toLowerCase();
  return ext === 'jpg' || ext === 'jpeg' ? 'image/jpeg' : ext === 'gif' ? 'image/gif' : ext === 'webp' ? 'image/webp' : 'image/png';
}
