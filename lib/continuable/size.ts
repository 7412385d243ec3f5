// The size of a conversation in tokens, estimated from its Common lines: what decides
// whether a target's context window holds it.
import type { Block, CommonMessage, ToolResultBlock } from '../common.js';

/** The bytes counted as one token. */
export const BYTES_PER_TOKEN = 4;
/** The tokens counted for one image, whatever its size (an image of about 1.15 megapixels costs this much on the Anthropic API). */
export const IMAGE_TOKENS = 1600;

/** The estimated size of part of a conversation. */
export interface Size {
  bytes: number;
  images: number;
}

/** Estimated tokens of a size: JSON bytes (less image data) per BYTES_PER_TOKEN, plus IMAGE_TOKENS per image. */
export function estimateTokens(size: Size): number {
  return Math.ceil(size.bytes / BYTES_PER_TOKEN) + size.images * IMAGE_TOKENS;
}

/** The bytes of one spooled message line that count toward its size, and its images (tool_result content counted one level down). */
export function measure(m: CommonMessage, lineBytes: number): Size {
  let bytes = lineBytes;
  let images = 0;
  const image = (b: unknown) => {
    const source = (b as { source?: { type?: unknown; data?: unknown } }).source;
    images++;
    if (source && source.type === 'base64' && typeof source.data === 'string') bytes -= source.data.length;
  };
  for (const b of m.content) {
    if (b.type === 'image') image(b);
    else if (b.type === 'tool_result' && Array.isArray((b as ToolResultBlock).content)) {
      for (const inner of (b as ToolResultBlock).content as Block[]) if (inner && typeof inner === 'object' && inner.type === 'image') image(inner);
    }
  }
  return { bytes: Math.max(0, bytes), images };
}

/** Two sizes added. */
export function add(a: Size, b: Size): Size {
  return { bytes: a.bytes + b.bytes, images: a.images + b.images };
}

