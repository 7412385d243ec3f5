// The size of a conversation in tokens: what decides whether a target's context window
// holds it. Where a reply recorded its usage, the context at that turn is known exactly
// (its whole input); what follows it is estimated from the Common lines' bytes.
import type { Block, CommonMessage, ToolResultBlock, Usage } from '../common.js';
import type { RecordedContext } from './rules.js';

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


const NONE: Size = { bytes: 0, images: 0 };

/** How large the part of a conversation a client loads is: what its last reply recorded, and an estimate of what follows. */
export interface Measured {
  /** The tokens: `recorded` + `estimated`. */
  tokens: number;
  /** The context the last reply in the part recorded (its input, and its own output), or null when none did. */
  recorded: number | null;
  /** The tokens estimated from bytes: what follows the recorded reply, or the whole part. */
  estimated: number;
}

/**
 * The size of a conversation as its messages come: the bytes of the whole and of the
 * part since the latest compaction, and the last context a reply recorded in that part.
 * A reply's usage is exact for everything before it; only what follows is estimated.
 */
export class SizeMeter {
  private total: Size = NONE;
  private sinceCompaction: Size = NONE;
  private compacted = false;
  /** The last recorded context since the latest compaction, and what came after it. */
  private recorded: { tokens: number; after: Size } | null = null;
  /** The largest context any reply of the session recorded. */
  largest = 0;
  /** The model and usage of the last reply that recorded its context. */
  last: { model: string | undefined; usage: Usage | undefined } = { model: undefined, usage: undefined };

  constructor(private readonly source: RecordedContext | undefined) {}

  /** A compaction: the model's conversation starts over here. */
  compaction(): void {
    this.compacted = true;
    this.sinceCompaction = NONE;
    this.recorded = null;
  }

  /** One message of the main conversation and its measured size. */
  push(m: CommonMessage, size: Size): void {
    this.total = add(this.total, size);
    this.sinceCompaction = add(this.sinceCompaction, size);
    if (this.recorded) this.recorded.after = add(this.recorded.after, size);
    const context = m.role === 'assistant' && m.usage && this.source ? this.source.contextOf(m.usage) : null;
    if (context === null) return;
    // The reply itself is in the next turn's context: its output tokens where it says them.
    const output = typeof m.usage?.output_tokens === 'number' && m.usage.output_tokens >= 0 ? m.usage.output_tokens : estimateTokens(size);
    this.recorded = { tokens: context + output, after: NONE };
    this.largest = Math.max(this.largest, context);
    this.last = { model: m.model, usage: m.usage };
  }

  /** True when a compaction was seen. */
  get hasCompaction(): boolean {
    return this.compacted;
  }

  /** The size of the part since the latest compaction (`fromCompaction`), else of the whole (whose recorded context, when a compaction cut it, does not count). */
  measure(fromCompaction: boolean): Measured {
    if (!fromCompaction && this.compacted) return estimated(this.total);
    if (this.recorded === null) return estimated(this.sinceCompaction);
    const after = estimateTokens(this.recorded.after);
    return { tokens: this.recorded.tokens + after, recorded: this.recorded.tokens, estimated: after };
  }
}

function estimated(size: Size): Measured {
  const tokens = estimateTokens(size);
  return { tokens, recorded: null, estimated: tokens };
}
