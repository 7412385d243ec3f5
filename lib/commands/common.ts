// tx-common: records in, the Common stream out (a session line, then its messages).
// Each session is converted by its harness's codec, which writes it once its last
// record has been seen.
import { isMainThread } from 'node:worker_threads';
import type { CommonCodec, SessionConverter } from '../codec.js';
import { detectLineCodec, facetOf, loadAll } from '../codecs.js';
import { splitLines } from '../core/input/lines.js';
import { RawStrings } from '../core/json/raw-strings.js';
import { readRecordBatches } from '../records/read.js';
import type { Output } from '../core/output/output.js';
import { regularReadStream } from '../core/input/regular-file.js';
import type { Context, Tool } from '../core/tool.js';
import { parsePhysicalLine } from '../records/parse-line.js';
import { type Harness, type RecordView } from '../record.js';
import { recordView } from '../records/record-bytes.js';

const HELP = `usage: tx-common [--active] [--sidechains] [--subagents] [--strict] [FILE...]

Turn records (from tx-parse) into the Common stream: for each session a
{"type":"session",…} line, then one {"type":"message",…} line per API message
(Anthropic Messages shape). Reads the files named (- is stdin), or stdin.

  --active       only the conversation after the last compaction, as the
                 client resumes it (default: the whole history)
  --sidechains   also convert sidechain lines kept inside a main file (marked
                 "sidechain":true; default: main chain only)
  --subagents    after each session read from a file, also convert its
                 subagents (<session>/subagents/agent-*.jsonl) as sessions
  --strict       exit 1 if any line was invalid or not a record
  --jobs N       with several files, convert N at a time in worker threads
                 (default: the number of cores; output stays in file order)
  -h, --help     this text        --version   the version
See tx-common(1).`;

/** One session being converted. */
interface OpenSession {
  src?: string;
  harness: Harness;
  conv: SessionConverter;
}

/** Where a CommonWriter puts the stream: stdout, or another tool's reader (tx-render). */
export type CommonOut = Pick<Output, 'write'>;

/** Writes the Common stream of a sequence of records, one session after another. */
export class CommonWriter {
  private session: OpenSession | null = null;
  private invalid = 0;
  private invalidSrc: string | undefined;
  private invalidSrcSet = false;
  /** Records of harnesses without a conversion to Common, by harness. */
  private readonly unconverted = new Map<Harness, number>();

  private constructor(
    private readonly ctx: Context,
    private readonly out: CommonOut,
    /** Long strings of the lines read, as bytes, until their messages are written; null to decode every string. */
    private readonly raw: RawStrings | null,
    /** The codecs that parse native lines their own way (carryingParse). */
    private readonly carrying: CommonCodec[],
  ) {}

  /**
   * A writer, once every harness's conversion is loaded: a native line is parsed the
   * converting codec's own way (carryingParse) before its harness is known.
   */
  static async open(ctx: Context, out: CommonOut = ctx.out, raw: RawStrings | null = new RawStrings()): Promise<CommonWriter> {
    const codecs = await loadAll('codec-common');
    return new CommonWriter(ctx, out, raw, codecs.filter((c) => c.carryingParse));
  }

  /**
   * Take one record (or a line that is not one) from the input named `inputSrc`. A
   * promise comes back only when a session ends here and is written out first: the
   * other records cost no promise (a 50 MB input has some 16,000 records and one session).
   */
  record(view: RecordView | null, inputSrc: string | undefined, n: number): Promise<void> | undefined {
    const src = view?.header.src ?? inputSrc;
    if (!this.invalidSrcSet || src !== this.invalidSrc) {
      this.reportInvalid();
      this.invalidSrc = src;
      this.invalidSrcSet = true;
    }
    if (!view || view.header.kind === 'invalid') {
      this.invalid++;
      return undefined;
    }
    const codec = facetOf(view.header.harness, 'codec-common');
    if (!codec.toCommon) {
      this.unconverted.set(codec.harness, (this.unconverted.get(codec.harness) ?? 0) + 1);
      return undefined;
    }
    const s = this.session;
    // The open session's converter decides how a line of its own is read.
    const own = s !== null && src === s.src && s.harness === codec.harness;
    // A line the open session's conversion never reads (a progress line, say) is not parsed.
    if (own && !s.conv.reads(view.header.kind)) return undefined;
    let line: any;
    try {
      line = (own ? s.conv.parse?.(view, codec.unreadKey) : undefined) ?? view.value(codec.unreadKey);
    } catch {
      this.invalid++;
      return undefined;
    }
    if (!line || typeof line !== 'object') {
      this.invalid++;
      return undefined;
    }
    const at = view.header.n ?? n;
    // A new file, or another harness, is a new session; on stdin the codec says.
    if (s && (src !== s.src || s.harness !== codec.harness || (src === undefined && s.conv.startsNewSession(line)))) {
      return this.finish().then(() => {
        // The strings the finished session never wrote (lines it left out) are let go.
        this.raw?.forgetTaken();
        this.push(this.open(src, codec), line, at);
      });
    }
    this.push(s ?? this.open(src, codec), line, at);
    return undefined;
  }

  /**
   * A native line's value as tx-common reads it, for readRecordBatches: parsed by the first
   * codec with a parse of its own (Claude Code's: whole but for its long tool output, carried
   * as bytes) when the line is that codec's harness's; undefined to parse it as usual.
   */
  nativeValue(bytes: Buffer): unknown {
    if (!this.raw) return undefined;
    for (const codec of this.carrying) {
      const value = codec.carryingParse!(bytes, 0, bytes.length, this.raw);
      if (value !== undefined && detectLineCodec(value).harness === codec.harness) return value;
    }
    return undefined;
  }

  private push(s: OpenSession, line: any, at: number): void {
    s.conv.push(line, at);
    this.raw?.taken(line);
  }

  /** Finish the last session and report what was skipped. */
  async end(): Promise<void> {
    await this.finish();
    this.raw?.clear();
    this.reportInvalid();
    for (const [harness, count] of this.unconverted) this.ctx.note(`${count} ${harness} records skipped (${harness} has no conversion to Common yet)`);
  }

  /** Convert a native session file directly (subagent transcripts found by --subagents). */
  async nativeFile(file: string, harness: Harness): Promise<void> {
    let stream;
    try {
      stream = regularReadStream(file);
    } catch (err) {
      this.ctx.warn({ src: file }, `cannot read: ${(err as Error).message}`);
      return;
    }
    for await (const physical of splitLines(stream)) {
      for (const parsed of parsePhysicalLine(physical, file, harness)) {
        await this.record(recordView(parsed.header, parsed.lineBytes, parsed.value), file, physical.n);
      }
    }
    await this.finish();
  }

  private open(src: string | undefined, codec: CommonCodec): OpenSession {
    const options = { src, active: this.ctx.args.active === true, sidechains: this.ctx.args.sidechains === true, raw: this.raw ?? undefined };
    this.session = { src, harness: codec.harness, conv: codec.toCommon!(options) };
    return this.session;
  }

  private async finish(): Promise<void> {
    const s = this.session;
    if (!s) return;
    this.session = null;
    let followers: string[] = [];
    try {
      for await (const piece of s.conv.finish()) await this.out.write(piece);
      if (this.ctx.args.subagents) followers = s.conv.followers();
    } finally {
      s.conv.dispose();
    }
    for (const file of followers) await this.nativeFile(file, s.harness);
  }

  private reportInvalid(): void {
    if (this.invalid > 0) this.ctx.warn({ src: this.invalidSrc }, `${this.invalid} invalid line${this.invalid === 1 ? '' : 's'} skipped`);
    this.invalid = 0;
  }

  /** Remove temporary files, whatever happened. */
  dispose(): void {
    this.session?.conv.dispose();
  }
}

async function main(ctx: Context): Promise<void> {
  const writer = await CommonWriter.open(ctx);
  try {
    // A worker reads into one buffer used again (core/input/file-chunks.ts); the main thread reads
    // as a stream does: one buffer used again saved it nothing and peaked 10-14 MB higher
    // (88-93 -> 101-106 MB on the 200 MB corpus; V8 then collected less often).
    for await (const batch of readRecordBatches(ctx, { reuse: !isMainThread, nativeValue: (bytes) => writer.nativeValue(bytes) })) {
      for (const item of batch) {
        const finishing = writer.record(item.record, item.src, item.n);
        if (finishing) await finishing;
      }
    }
    await writer.end();
  } finally {
    writer.dispose();
  }
}

/** The tx-common tool. */
export const commonTool: Tool = {
  name: 'tx-common',
  help: HELP,
  options: { boolean: ['active', 'sidechains', 'subagents'] },
  main,
  // Each file is its own session (or sessions), so files convert independently.
  // A conversation's messages outlive their records: with a 4 MB young generation they
  // were promoted and collected again (16 files, --jobs 2: 1.1-1.2x slower); the
  // workers' usual 8 MB peaked 10-20 MB higher on the store (2,500 files: 148-160 MB
  // against 128-141 MB at 6 MB, docs/speed.md).
  parallel: { url: import.meta.url, youngMb: 6 },
  directories: true,
};
