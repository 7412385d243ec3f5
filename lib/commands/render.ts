// tx-render: a session as a page people read. Common lines are rendered as they come;
// records and native session lines are first converted by tx-common's own writer.
import { DEFAULT_HARNESS } from '../codecs.js';
import { isCommonMessageLine } from '../common.js';
import { CommonWriter, type CommonOut } from './common.js';
import { splitLines, type PhysicalLine } from '../core/input/lines.js';
import { stdoutIsTerminal, UsageError, type Context, type Tool } from '../core/tool.js';
import { parsePhysicalLine } from '../records/parse-line.js';
import type { Harness } from '../record.js';
import { decodeLine, recordView } from '../records/record-bytes.js';
import { HtmlPage, type PageSink } from '../render/html.js';
import { MarkdownDoc } from '../render/markdown.js';
import { CommonRenderer } from '../render/stream.js';
import { LineShortener, KEEP_STRING, MAX_KEPT, renderLines } from '../render/long-lines.js';
import { formatCount } from '../render/tally.js';

const HELP = `usage: tx-render [--format html|md] [--active] [--sidechains] [--subagents] [FILE...]
       tx-render --usage [FILE...]

Write a session as a page people read: one self-contained HTML page (no
network; search, folded tool calls, diffs, light and dark), or Markdown for
a pull request or a gist. Reads Common (tx-common), records (tx-parse), or
native session files, from the files named (- is stdin) or stdin.

  --format F     html or md (default: html, or md when stdout is a terminal)
  --active       records only: the conversation after the last compaction
  --sidechains   records only: also sidechain lines kept in a main file
  --subagents    records only: also each file's subagent transcripts, shown
                 under the call that dispatched them
  --usage        a usage page instead: reads tx-stats buckets (tx-stats --by
                 day) and draws cost and tokens by model
  --strict       exit 1 if any line was invalid or could not be rendered
  -h, --help     this text        --version   the version
See tx-render(1).`;

/** Common lines written into the renderer instead of stdout: pieces are cut into lines and parsed, a line past KEEP_STRING shortened (render/long-lines.ts). */
class CommonLines implements CommonOut {
  private pending: Buffer[] = [];
  private size = 0;
  private long: LineShortener | null = null;

  constructor(
    private readonly take: (value: unknown, bytes: number) => Promise<void>,
    /** A line whose structure alone was too large to keep: its length. */
    private readonly tooLarge: (length: number) => void,
  ) {}

  async writeJson(value: unknown): Promise<void> {
    await this.take(value, 0);
  }

  async write(data: Buffer | string): Promise<void> {
    let buf = typeof data === 'string' ? Buffer.from(data) : data;
    let nl = buf.indexOf(0x0a);
    while (nl >= 0) {
      const head = buf.subarray(0, nl);
      let line: Buffer | null;
      if (this.long || this.size + head.length > KEEP_STRING) {
        const long = this.long ?? this.shortener();
        long.push(head);
        line = long.end();
        if (line === null) this.tooLarge(long.length);
        this.long = null;
      } else {
        this.pending.push(head);
        line = Buffer.concat(this.pending);
      }
      this.pending = [];
      this.size = 0;
      if (line !== null && line.length > 0) await this.take(JSON.parse(line.toString('utf8')), line.length);
      buf = buf.subarray(nl + 1);
      nl = buf.indexOf(0x0a);
    }
    if (buf.length === 0) return;
    if (this.long) this.long.push(buf);
    else {
      this.pending.push(Buffer.from(buf));
      this.size += buf.length;
      if (this.size > KEEP_STRING) this.long = this.shortener();
    }
  }

  /** A shortener fed with the pieces held so far. */
  private shortener(): LineShortener {
    const long = new LineShortener();
    for (const piece of this.pending) long.push(piece);
    this.pending = [];
    this.size = 0;
    return long;
  }
}

async function main(ctx: Context): Promise<void> {
  if (ctx.args.usage) return usagePage(ctx);
  const format = ctx.args.format ?? (stdoutIsTerminal(ctx.proc) ? 'md' : 'html');
  if (format !== 'html' && format !== 'md') throw new UsageError(`--format must be html or md, not ${JSON.stringify(format)}`);
  const sink: PageSink = { write: (text) => ctx.out.write(text) };
  const renderer = new CommonRenderer(format === 'html' ? new HtmlPage(sink) : new MarkdownDoc(sink));
  let where: { src?: string; n?: number } = {};
  const common = async (value: unknown, bytes: number) => {
    const problem = await renderer.line(value, bytes);
    if (problem) ctx.warn(where, problem);
  };
  const tooLarge = (length: number) => ctx.warn(where, `a message of ${formatCount(length)} bytes that passes ${formatCount(MAX_KEPT)} bytes even with each of its texts cut to ${formatCount(KEEP_STRING)}: left out`);
  const writer = await CommonWriter.open(ctx, new CommonLines(common, tooLarge));
  try {
    for await (const input of ctx.inputs()) {
      let previous: Harness = DEFAULT_HARNESS;
      for await (const read of renderLines(input.stream)) {
        where = { src: input.src, n: read.n };
        if (read.bytes === null) {
          ctx.warn(where, `a line of ${formatCount(read.shortened ?? 0)} bytes that passes ${formatCount(MAX_KEPT)} bytes even with each of its texts cut to ${formatCount(KEEP_STRING)}: left out`);
          continue;
        }
        const line = read as PhysicalLine;
        if (line.bytes.length === 0) continue;
        const decoded = decodeLine(line.bytes);
        if (decoded.record) {
          await writer.record(decoded.record, input.src, line.n);
        } else if ('notRecord' in decoded) {
          ctx.warn(where, `not a record (${decoded.notRecord}), skipped`);
        } else if ('value' in decoded && isCommonLine(decoded.value)) {
          await common(decoded.value, line.bytes.length);
        } else {
          // A native session line (or a broken one): tx-parse's reading, then tx-common's.
          for (const parsed of parsePhysicalLine(line, input.src, previous)) {
            if (parsed.header.kind !== 'invalid') previous = parsed.header.harness;
            await writer.record(recordView(parsed.header, parsed.lineBytes, parsed.value), input.src, line.n);
          }
        }
      }
    }
    await writer.end();
    where = {};
    await renderer.end();
  } finally {
    writer.dispose();
  }
}

/** tx-render --usage: the buckets of the input as one page. */
async function usagePage(ctx: Context): Promise<void> {
  if (ctx.args.format !== undefined && ctx.args.format !== 'html') throw new UsageError('--usage writes HTML only');
  const page = new (await import('../render/usage-page.js')).UsagePage();
  for await (const input of ctx.inputs()) {
    for await (const line of splitLines(input.stream)) {
      if (line.bytes.length === 0) continue;
      let value: unknown;
      try {
        value = JSON.parse(line.bytes.toString('utf8'));
      } catch {
        ctx.warn({ src: input.src, n: line.n }, 'not JSON, skipped');
        continue;
      }
      const problem = page.add(value);
      if (problem) ctx.warn({ src: input.src, n: line.n }, problem);
    }
  }
  await ctx.out.write(page.html());
}

const COMMON_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'image', 'artifact']);

/** A line of the Common stream (not a record, not a native line). Early Codex rollouts also have `"type":"message"` lines; theirs hold `input_text` and `output_text` blocks. */
function isCommonLine(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as { type?: unknown; harness?: unknown; content?: unknown };
  if (v.type === 'session') return typeof v.harness === 'string';
  if (!isCommonMessageLine(v)) return false;
  if (!Array.isArray(v.content) || v.content.length === 0) return true;
  const first = v.content[0] as { type?: unknown } | null;
  return typeof first?.type === 'string' && COMMON_BLOCKS.has(first.type);
}

/** The tx-render tool. */
export const renderTool: Tool = { name: 'tx-render', help: HELP, options: { string: ['format'], boolean: ['active', 'sidechains', 'subagents', 'usage'] }, main };
