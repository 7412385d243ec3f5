// The Codex codec: rollout lines behind the one Codec surface of lib/codec.ts.
import type { Codec, Envelope, SessionCounter, View } from '../codec.js';
import type { RecordHeader, RecordView } from '../record.js';
import { isCodexLine } from './detect.js';

function envelope(line: any): Envelope {
  const ok = line && typeof line === 'object' && !Array.isArray(line);
  const id = ok && line.type === 'session_meta' ? line.payload?.id : undefined;
  return { session: typeof id === 'string' && id !== '' ? id : null, timestamp: ok && typeof line.timestamp === 'string' ? line.timestamp : null, sidechain: false };
}

/** Counts lines and kinds only, until the Codex questions are read. */
class CodexCounter implements SessionCounter {
  private lines = 0;
  private files: string[] = [];
  constructor(private readonly session: string | null) {}
  add(header: RecordHeader): void {
    this.lines++;
    if (header.src !== undefined && !this.files.includes(header.src)) this.files.push(header.src);
  }
  absorb(other: SessionCounter): void {
    const o = other as CodexCounter;
    this.lines += o.lines;
    for (const f of o.files) if (!this.files.includes(f)) this.files.push(f);
  }
  summary(): Record<string, unknown> {
    return { session: this.session, harness: 'codex', files: this.files, lines: this.lines };
  }
}

/** The Codex codec. */
export const codexCodec: Codec = {
  harness: 'codex',
  detect: isCodexLine,
  classify: () => 'other',
  envelope,
  strings: () => [],
  toCommon: null,
  fromCommon: null,
  question: () => null,
  lineView: (rec: RecordView, _maxChars: number): View => ({ n: rec.header.n, kind: rec.header.kind }),
  stats: (id) => new CodexCounter(id),
  store: null,
  markup: null,
};
