// tx-escape: escape (or unescape) envelope markup in the strings of NDJSON lines or
// in plain text lines, and strip ANSI escape sequences. A line that does not change
// is written back byte for byte; a changed JSON line is re-serialised.
import { isUtf8 } from 'node:buffer';
import type { EnvelopeMarkup } from '../codec.js';
import { DEFAULT_HARNESS, loadFacet } from '../codecs.js';
import { stripAnsi } from '../core/ansi.js';
import { parseFieldPath, rewriteStrings, type PathStep, type StringPlace } from '../core/json/field-path.js';
import { splitLines, type PhysicalLine } from '../core/input/lines.js';
import { UsageError, type Context, type Tool } from '../core/tool.js';
import { stringifyJson } from '../core/json/json-text.js';

const HELP = `usage: tx-escape [-d] [--strip-ansi [--no-escape]] [--whole] [--field PATH]... [FILE...]
       tx-escape --text [-d] [--strip-ansi [--no-escape]] [FILE...]

Escape envelope markup in the string values of NDJSON lines: every run of '<',
backslashes, '/TAG>' (TAG a slash-command envelope tag) gains one backslash, so
'</command-name>' becomes '<\\/command-name>'. -d removes one again. The two are
exact inverses. A record from tx-parse has the strings of its native 'line'
rewritten; other JSON lines have all their string values rewritten. In a native
Claude Code line, a body that is wholly envelope markup (user message content,
system content, queued prompt) keeps its tags; the text of each element is
rewritten.

  -d, --decode       unescape instead of escape
      --strip-ansi   also remove ANSI escape sequences (before escaping, after -d)
      --no-escape    with --strip-ansi: only strip, leave markup alone
  -f, --field PATH   rewrite only the strings at PATH (repeatable), e.g.
                     line.message.content[].text  ('[]' every element, '*' every member)
      --whole        rewrite envelope bodies whole too, tags and all
      --text         the input is plain text: escape each line as a string
      --strict       exit 1 if any line was not JSON, not UTF-8 or too deep
  -h, --help         this text        --version   the version
Unchanged lines are written back byte for byte. See tx-escape(1).`;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const CRLF = Buffer.from('\r\n');
const LF = Buffer.from('\n');

// The markup escaped: the default harness's envelope tags (Claude Code's slash-command
// envelopes; no other harness writes any), loaded with its codec at the start of main.
let MARKUP: EnvelopeMarkup;

/** What to do to one string. */
function transformer(decode: boolean, escape: boolean, strip: boolean): (s: string) => string {
  if (decode) return strip ? (s) => stripAnsi(MARKUP.unescape(s)) : MARKUP.unescape;
  if (!escape) return stripAnsi;
  return strip ? (s) => MARKUP.escape(stripAnsi(s)) : MARKUP.escape;
}

/**
 * Byte patterns without which no string of a JSON line can change: a tag name (its
 * letters could only hide behind a \u escape), a \u escape (ESC is always one in
 * JSON), or a C1 control written raw (UTF-8 lead byte 0xC2).
 */
function needles(markup: boolean, strip: boolean): Buffer[] {
  const list = [Buffer.from('\\u')];
  if (markup) for (const tag of MARKUP.tags) list.push(Buffer.from(tag));
  if (strip) list.push(Buffer.from([0xc2]));
  return list;
}

/**
 * The rewrite for one JSON line: strings at a native Claude Code line's envelope
 * places that are wholly envelope markup have each element's text rewritten and keep
 * their tags; every other string is rewritten whole.
 */
function lineRewriter(native: unknown, transform: (s: string) => string): (s: string, place: StringPlace) => string {
  const slots = MARKUP.slots(native);
  if (slots.length === 0) return transform;
  return (s, place) => {
    if (place && slots.some((slot) => slot.parent === place.parent && slot.key === place.key)) return MARKUP.rewriteBody(s, transform) ?? transform(s);
    return transform(s);
  };
}

/** The line's new JSON text, or null when no string changed. */
function rewriteLine(value: any, record: boolean, paths: PathStep[][], rewrite: (s: string, place: StringPlace) => string): string | null {
  const result = rewriteStrings(value, paths, rewrite);
  if (!result.changed) return null;
  if (!record) return stringifyJson(result.value);
  // The native line stays the last key, so later tools can cut its bytes out.
  const { line: native, ...header } = result.value as Record<string, unknown>;
  return stringifyJson({ ...header, line: native });
}

function isRecordValue(v: any): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v.harness === 'string' && typeof v.kind === 'string' && typeof v.n === 'number';
}

function isBlank(bytes: Buffer): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

async function writeLine(ctx: Context, line: PhysicalLine, bytes: Buffer): Promise<void> {
  if (line.bom) await ctx.out.write(BOM);
  await ctx.out.write(bytes);
  if (line.eol) await ctx.out.write(line.crlf ? CRLF : LF);
}

function fieldPaths(args: Context['args']): PathStep[][] | null {
  if (args.field === undefined) return null;
  const texts = ([] as unknown[]).concat(args.field).map(String);
  try {
    return texts.map(parseFieldPath);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function main(ctx: Context): Promise<void> {
  MARKUP = (await loadFacet(DEFAULT_HARNESS, 'codec')).markup!;
  const { args } = ctx;
  const decode = Boolean(args.decode);
  const escape = args.escape !== false;
  const strip = Boolean(args['strip-ansi']);
  if (decode && !escape) throw new UsageError('-d and --no-escape contradict each other');
  if (!escape && !strip) throw new UsageError('--no-escape leaves nothing to do without --strip-ansi');
  const fields = fieldPaths(args);
  if (args.text && fields) throw new UsageError('--field needs JSON lines, not --text');
  if (args.text && args.whole) throw new UsageError('--whole needs JSON lines: --text already rewrites each line whole');
  const transform = transformer(decode, escape, strip);

  if (args.text) {
    for await (const input of ctx.inputs()) {
      for await (const line of splitLines(input.stream)) {
        // Lines that are not UTF-8 are read as Latin-1: one character per byte, so the
        // ASCII markup is found and everything else is written back as it was.
        const encoding = isUtf8(line.bytes) ? 'utf8' : 'latin1';
        const text = line.bytes.toString(encoding);
        const next = transform(text);
        await writeLine(ctx, line, next === text ? line.bytes : Buffer.from(next, encoding));
      }
    }
    return;
  }

  const patterns = needles(escape, strip);
  const wholeRecordLine: PathStep[][] = [[{ key: 'line' }]];
  const wholeValue: PathStep[][] = [[]];
  for await (const input of ctx.inputs()) {
    for await (const line of splitLines(input.stream)) {
      const where = { src: input.src, n: line.n };
      if (isBlank(line.bytes)) {
        await writeLine(ctx, line, line.bytes);
        continue;
      }
      if (!isUtf8(line.bytes)) {
        ctx.warn(where, 'not UTF-8, passed through');
        await writeLine(ctx, line, line.bytes);
        continue;
      }
      let value: any;
      try {
        value = JSON.parse(line.bytes.toString('utf8'));
      } catch {
        ctx.warn(where, 'not JSON, passed through');
        await writeLine(ctx, line, line.bytes);
        continue;
      }
      if (!patterns.some((p) => line.bytes.includes(p))) {
        await writeLine(ctx, line, line.bytes);
        continue;
      }
      const record = isRecordValue(value);
      // An invalid record's raw text is not JSON: left alone unless a --field names it.
      const paths = fields ?? (record ? (value.kind === 'invalid' ? [] : wholeRecordLine) : wholeValue);
      const native = args.whole ? undefined : record ? (value.harness === DEFAULT_HARNESS ? value.line : undefined) : value;
      let text: string | null;
      try {
        text = rewriteLine(value, record, paths, lineRewriter(native, transform));
      } catch (err) {
        // JSON.stringify recurses: a value nested some 10^5 deep cannot be written back.
        if (!(err instanceof RangeError)) throw err;
        ctx.warn(where, 'nested too deeply to rewrite, passed through');
        text = null;
      }
      if (text === null) {
        await writeLine(ctx, line, line.bytes);
        continue;
      }
      await writeLine(ctx, line, Buffer.from(text));
    }
  }
}

/** The tx-escape tool. */
export const escapeTool: Tool = {
  name: 'tx-escape',
  help: HELP,
  options: {
    string: ['field'],
    boolean: ['decode', 'text', 'strip-ansi', 'escape', 'whole'],
    alias: { d: 'decode', f: 'field' },
    default: { escape: true },
  },
  main,
};
