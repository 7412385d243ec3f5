// tx-grep's search of one session file: the lines the byte pre-filter lets through
// (lib/core/search/prefilter.ts) are read as tx-parse reads them (lib/records/parse-line.ts: a
// line that is not UTF-8 or not JSON is an invalid record and holds no message text; two
// objects glued on one line are two), their message texts taken from their harness's
// codec by role, and matched. The session's title comes from the store's shallow scan,
// once per file with a hit, and only for a file whose lines are all short enough for
// the scan to hold one whole, so memory stays bounded whatever the file. A session kept
// as one JSON document is searched in its pieces (records/document.ts), and one a store
// keeps in no file (a database's `DB#ID`) in the document its store reads.

import { closeSync, readSync } from 'node:fs';
import type { SessionFields, TextRole } from '../codec.js';
import { DEFAULT_HARNESS, facetOf, HARNESSES } from '../codecs.js';
import { LONG_LINE, type PhysicalLine } from '../core/input/lines.js';
import { opensDocument } from '../core/json/document.js';
import { openRegular } from '../core/input/regular-file.js';
import { zstdFileLines } from '../core/input/zstd-lines.js';
import type { TextMatcher } from '../core/search/pattern.js';
import { candidateLines, type Prefilter } from '../core/search/prefilter.js';
import type { Context } from '../core/tool.js';
import type { Harness } from '../record.js';
import { documentLines } from '../records/document.js';
import { parsePhysicalLine } from '../records/parse-line.js';

/** Characters of text shown on each side of a match. */
const CONTEXT = 60;
/** The longest match shown whole in a snippet (longer ones are cut in the middle). */
const MAX_MATCH = 200;
const READ = 1 << 20;
/**
 * The longest line tx-grep parses (tx-parse's limit is 64 MiB), and the longest a file may
 * have for the store's scan to read its title: a line is held as bytes, as text and as
 * parsed strings at once (each up to twice its bytes), so this bounds the memory.
 */
export const LINE_LIMIT = 4 << 20;

/** One hit, as tx-grep writes it. */
export interface Hit {
  harness: Harness;
  session: string | null;
  path: string;
  n: number;
  role: TextRole;
  title: string | null;
  snippet: string;
}

/** What a search looks for. */
export interface Search {
  matcher: TextMatcher;
  roles: ReadonlySet<TextRole>;
  prefilter: Prefilter | null;
}

/** The text around a match, the match marked ⟦…⟧, cut at code points with … where text was left out. */
export function snippetOf(text: string, index: number, length: number): string {
  const cutStart = (at: number) => (at > 0 && isLow(text.charCodeAt(at)) ? at - 1 : at);
  const cutEnd = (at: number) => (at < text.length && isLow(text.charCodeAt(at)) ? at + 1 : at);
  const from = cutStart(Math.max(0, index - CONTEXT));
  const to = cutEnd(Math.min(text.length, index + length + CONTEXT));
  let match = text.slice(index, index + length);
  if (length > MAX_MATCH) match = text.slice(index, cutEnd(index + MAX_MATCH / 2)) + '…' + text.slice(cutStart(index + length - MAX_MATCH / 2), index + length);
  return (from > 0 ? '…' : '') + text.slice(from, index) + '⟦' + match + '⟧' + text.slice(index + length, to) + (to < text.length ? '…' : '');
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

// One buffer for the search of every file of this thread (files are searched one after
// another), and one for the length check of a file's lines, made during its search.
const buffers: { search?: Buffer; check?: Buffer } = {};

/** The chunks of a regular file, read into one buffer (candidateLines copies what it keeps). */
function* fileChunks(fd: number, use: 'search' | 'check'): Generator<Buffer> {
  const buf = (buffers[use] ??= Buffer.allocUnsafe(READ));
  for (let pos = 0; ; ) {
    const got = readSync(fd, buf, 0, READ, pos);
    if (got === 0) return;
    pos += got;
    yield got === READ ? buf : buf.subarray(0, got);
  }
}

/** The lines a file that is a session kept as one JSON document is read as (read whole, up to LONG_LINE bytes); null for any other file. */
function documentOf(fd: number, size: number): Iterable<PhysicalLine> | null {
  const head = Buffer.alloc(64);
  if (size > LONG_LINE || !opensDocument(head.subarray(0, readSync(fd, head, 0, head.length, 0)))) return null;
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return documentLines(buf.subarray(0, got));
}

/** The bytes of a session a store keeps in no file of its own (SessionStore.read: its document), or null for a file. */
function storeBytes(file: string): Buffer | null {
  for (const harness of HARNESSES) {
    const own = facetOf(harness, 'codec').store?.read?.(file) ?? null;
    if (own !== null) return Buffer.concat([...own].map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
  }
  return null;
}

/** The lines of a file that could match: searched in its bytes, or for a .zst file in its decompressed lines. */
function* candidates(file: string, prefilter: Prefilter | null, onLong: (n: number) => void): Generator<{ n: number; bytes: Buffer }> {
  const own = storeBytes(file);
  if (own !== null) {
    for (const line of documentLines(own) ?? []) if (prefilter === null || prefilter.next(line.bytes, 0) >= 0) yield { n: line.n, bytes: line.bytes };
    return;
  }
  if (file.endsWith('.zst')) {
    let n = 0;
    for (const bytes of zstdFileLines(file)) {
      n++;
      if (bytes.length > lineLimit()) onLong(n);
      else if (prefilter === null || prefilter.next(bytes, 0) >= 0) yield { n, bytes };
    }
    return;
  }
  const { fd, size } = openRegular(file);
  try {
    const doc = documentOf(fd, size);
    if (doc !== null) {
      // A session kept as one document: its pieces are its lines (records/document.ts).
      for (const line of doc) if (prefilter === null || prefilter.next(line.bytes, 0) >= 0) yield { n: line.n, bytes: line.bytes };
      return;
    }
    const reread = (position: number, length: number): Buffer => {
      const buf = Buffer.allocUnsafe(length);
      for (let got = 0; got < length; ) {
        const n = readSync(fd, buf, got, length - got, position + got);
        if (n === 0) return buf.subarray(0, got);
        got += n;
      }
      return buf;
    };
    yield* candidateLines(fileChunks(fd, 'search'), prefilter, { limit: lineLimit(), onLong, reread });
  } finally {
    closeSync(fd);
  }
}

/** The longest line searched: LINE_LIMIT, or tx-parse's limit when that is lower. */
function lineLimit(): number {
  return Math.min(LINE_LIMIT, LONG_LINE);
}

/** True when every line of a regular file is at most `limit` bytes long (read in large chunks: two searches per chunk). */
function linesWithin(file: string, limit: number): boolean {
  const { fd } = openRegular(file);
  try {
    let run = 0;
    for (const chunk of fileChunks(fd, 'check')) {
      const first = chunk.indexOf(0x0a);
      if (first < 0) {
        run += chunk.length;
        if (run > limit) return false;
        continue;
      }
      if (run + first > limit) return false;
      // Lines wholly inside a chunk are shorter than a chunk, which is shorter than the limit.
      run = chunk.length - chunk.lastIndexOf(0x0a) - 1;
    }
    return run <= limit;
  } finally {
    closeSync(fd);
  }
}

/** The fields of a session file for its hits (title, id), or null when they cannot be read within bounds. */
function sessionFieldsOf(ctx: Context, file: string, harness: Harness): SessionFields | null {
  const store = facetOf(harness, 'codec').store;
  if (!store) return null;
  try {
    let size: number;
    try {
      size = openRegularSize(file);
    } catch (err) {
      // A session a store keeps in no file (a database's): its listing has its fields.
      if (store.read) return store.scan(file, 0);
      throw err;
    }
    // A file no longer than the limit has no longer line: most files need no look.
    if (!file.endsWith('.zst') && size > LINE_LIMIT && !linesWithin(file, LINE_LIMIT)) {
      ctx.note(`${file}: a line is longer than ${LINE_LIMIT >> 20} MiB: its title is not read (its hits have title null)`);
      return null;
    }
    return store.scan(file, size);
  } catch {
    return null;
  }
}

function openRegularSize(file: string): number {
  const { fd, size } = openRegular(file);
  closeSync(fd);
  return size;
}

/** Search one file; hits go to the output in line order. Returns the number of hits. */
export async function searchFile(ctx: Context, file: string, search: Search): Promise<number> {
  let hits = 0;
  let fields: SessionFields | null | undefined;
  const onLong = (n: number) => ctx.note(`${file}:${n}: line longer than ${lineLimit()} bytes, not searched (tx-grep parses lines of up to ${LINE_LIMIT >> 20} MiB, so that its memory stays bounded)`);
  // Texts a harness wrote more than once in the file (MessageText.key) are found once.
  const found = new Set<string>();
  for (const { n, bytes } of candidates(file, search.prefilter, onLong)) {
    // Read as tx-parse reads the line: the flags of a line's end and BOM do not matter here.
    for (const record of parsePhysicalLine({ n, bytes, crlf: false, eol: true, bom: false }, file, DEFAULT_HARNESS)) {
      const line = record.value;
      if (record.header.kind === 'invalid' || !line || typeof line !== 'object') continue;
      const codec = facetOf(record.header.harness, 'codec');
      for (const t of codec.texts(line)) {
        if (!search.roles.has(t.role)) continue;
        const m = search.matcher.find(t.text);
        if (!m) continue;
        if (t.key !== undefined) {
          if (found.has(t.key)) continue;
          found.add(t.key);
        }
        if (fields === undefined) fields = sessionFieldsOf(ctx, file, codec.harness);
        const hit: Hit = {
          harness: codec.harness,
          session: codec.envelope(line).session ?? fields?.id ?? codec.store?.idOf(file) ?? null,
          path: file,
          n,
          role: t.role,
          title: fields?.title ?? null,
          snippet: snippetOf(t.text, m.index, m.length),
        };
        ctx.out.pushText(JSON.stringify(hit) + '\n');
        hits++;
      }
    }
    await ctx.out.flushIfFull();
  }
  return hits;
}
