// The shallow metadata scan of a session file. It never builds a message: it finds
// a few top-level fields by the structural scan of lib/core/json-scan.ts and parses
// only their (small) values. It reads the head of the file until the envelope
// fields are known, and the tail backwards for the titles that the CLI appends
// (custom-title, agent-name, ai-title). Files up to two tail windows, and every
// file under `deep`, are read whole, front to back, so their titles are exact.
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { CLOSE_BRACE, COLON, COMMA, isJsonSpace, OPEN_BRACE, QUOTE, stringEnd, valueEnd } from '../core/json-scan.js';
import { classifyClaudeLine, leadingText } from './classify.js';

/** Bytes and files read by scans, for progress reports and benchmarks. */
export class ReadCounter {
  bytes = 0;
  files = 0;
}

/** What the shallow scan learns about a session from its lines. */
export interface SessionFields {
  /** The first non-empty sessionId, else the file name without `.jsonl`. */
  id: string;
  cwd: string | null;
  git_branch: string | null;
  version: string | null;
  /** The first assistant line's message.model that is not `<synthetic>`. */
  model: string | null;
  /** The last custom-title, else the last agent-name, else the first summary. */
  title: string | null;
  /** The last ai-title line's aiTitle (not a title source: the CLI's own guess). */
  ai_title: string | null;
  /** The first top-level timestamp. */
  started_at: string | null;
}

/** How far a scan may read. */
export interface ScanOptions {
  /** Bytes read backwards from the end for titles (default 64 KiB). */
  tailBytes?: number;
  /** Read the whole file, so titles anywhere count. */
  deep?: boolean;
  counter?: ReadCounter;
}

/** The default tail window, the size of the head and tail reads the CLI's own session list uses. */
export const DEFAULT_TAIL_BYTES = 64 * 1024;
const CHUNK = 16 * 1024;
const MAX_CHUNK = 1024 * 1024;
const LF = 0x0a;
const CR = 0x0d;

/** Value ranges of the wanted keys of one JSON object, and where the object ends. */
interface ObjectScan {
  values: Map<string, [number, number]>;
  end: number;
}

/**
 * Scan the object starting at `start` once, noting where the wanted top-level
 * keys' values lie. Null when it is not a complete object (a broken line).
 */
export function scanObject(buf: Buffer, wanted: ReadonlySet<string>, start = 0): ObjectScan | null {
  let i = start;
  while (i < buf.length && isJsonSpace(buf[i])) i++;
  if (buf[i] !== OPEN_BRACE) return null;
  i++;
  const values = new Map<string, [number, number]>();
  while (i < buf.length && isJsonSpace(buf[i])) i++;
  if (buf[i] === CLOSE_BRACE) return { values, end: i + 1 };
  for (;;) {
    while (i < buf.length && isJsonSpace(buf[i])) i++;
    if (buf[i] !== QUOTE) return null;
    const keyEnd = stringEnd(buf, i);
    if (keyEnd < 0) return null;
    // Keys we want are plain ASCII; a key with escapes never equals one.
    const key = keyEnd - i - 2 <= 24 ? buf.toString('latin1', i + 1, keyEnd - 1) : '';
    i = keyEnd;
    while (i < buf.length && isJsonSpace(buf[i])) i++;
    if (buf[i] !== COLON) return null;
    i++;
    while (i < buf.length && isJsonSpace(buf[i])) i++;
    const e = valueEnd(buf, i);
    if (e < 0 || e === i) return null;
    if (wanted.has(key) && !values.has(key)) values.set(key, [i, e]);
    i = e;
    while (i < buf.length && isJsonSpace(buf[i])) i++;
    if (buf[i] === COMMA) {
      i++;
      continue;
    }
    if (buf[i] === CLOSE_BRACE) return { values, end: i + 1 };
    return null;
  }
}

/** The objects of one physical line: usually one, several when glued (`{…}{…}`), none when broken. */
export function scanLineObjects(line: Buffer, wanted: ReadonlySet<string>): Map<string, [number, number]>[] | null {
  const found: Map<string, [number, number]>[] = [];
  let at = 0;
  for (;;) {
    const one = scanObject(line, wanted, at);
    if (!one) return null;
    found.push(one.values);
    let i = one.end;
    while (i < line.length && isJsonSpace(line[i])) i++;
    if (i >= line.length) return found;
    if (line[i] !== OPEN_BRACE) return null;
    at = i;
  }
}

/** The string at a value range, or null when the value is not a string. */
export function stringAt(buf: Buffer, range: [number, number] | undefined): string | null {
  if (!range || buf[range[0]] !== QUOTE) return null;
  try {
    return JSON.parse(buf.toString('utf8', range[0], range[1])) as string;
  } catch {
    return null;
  }
}

const LINE_KEYS = new Set(['type', 'sessionId', 'cwd', 'gitBranch', 'version', 'timestamp', 'message', 'customTitle', 'agentName', 'aiTitle', 'summary']);
const MESSAGE_KEYS = new Set(['model']);
// A title line holds one of these; a line without any cannot be one.
const TITLE_HINTS = ['title', 'agent-name', 'summary'].map((s) => Buffer.from(s));
const TITLE_KEY: Record<string, string> = { 'custom-title': 'customTitle', 'agent-name': 'agentName', 'ai-title': 'aiTitle', summary: 'summary' };

/** An open session file read in chunks, counting what it reads. */
class ChunkReader {
  readonly fd: number;
  constructor(
    file: string,
    readonly size: number,
    private readonly counter?: ReadCounter,
  ) {
    this.fd = openSync(file, 'r');
    if (counter) counter.files++;
  }

  read(position: number, length: number): Buffer {
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(this.fd, buf, got, length - got, position + got);
      if (n === 0) break;
      got += n;
    }
    if (this.counter) this.counter.bytes += got;
    return got === length ? buf : buf.subarray(0, got);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Physical lines from `from` onwards (CR LF and a BOM on line 1 removed), each with the offset just past it. */
function* forwardLines(reader: ChunkReader, from = 0): Generator<{ bytes: Buffer; end: number }> {
  let pos = from;
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let lineStart = from;
  // Start small (the envelope is usually in the first lines), grow for long reads.
  let size = CHUNK;
  for (;;) {
    const chunk = reader.read(pos, size);
    if (size < MAX_CHUNK) size *= 2;
    if (chunk.length === 0) break;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(LF, start);
      if (nl < 0) break;
      let bytes = chunk.subarray(start, nl);
      if (pendingLength > 0) {
        pending.push(bytes);
        bytes = Buffer.concat(pending, pendingLength + bytes.length);
        pending = [];
        pendingLength = 0;
      }
      const end = pos + nl + 1;
      yield { bytes: trimLine(bytes, lineStart === 0), end };
      lineStart = end;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      pending.push(rest);
      pendingLength += rest.length;
    }
    pos += chunk.length;
  }
  if (pendingLength > 0) yield { bytes: trimLine(Buffer.concat(pending, pendingLength), lineStart === 0), end: pos };
}

function trimLine(bytes: Buffer, first: boolean): Buffer {
  if (first && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
  return bytes;
}

/** Complete lines between `low` and the end, last first; the piece at `low` counts only when `low` starts a line. */
function* backwardLines(reader: ChunkReader, low: number, lowStartsLine: boolean): Generator<Buffer> {
  let pos = reader.size;
  let carry: Buffer = Buffer.alloc(0);
  while (pos > low) {
    const n = Math.min(CHUNK, pos - low);
    pos -= n;
    const chunk = reader.read(pos, n);
    const buf = carry.length > 0 ? Buffer.concat([chunk, carry]) : chunk;
    let end = buf.length;
    for (;;) {
      const nl = end > 0 ? buf.lastIndexOf(LF, end - 1) : -1;
      if (nl < 0) break;
      if (end > nl + 1) yield trimLine(buf.subarray(nl + 1, end), false);
      end = nl;
    }
    carry = buf.subarray(0, end);
  }
  if (lowStartsLine && carry.length > 0) yield trimLine(carry, low === 0);
}

/** Titles as seen in one stretch of the file, in file order. */
interface Titles {
  custom: string | null;
  agent: string | null;
  ai: string | null;
  summary: string | null;
}

/** The fields of one session file, by the shallow scan. `size` is the file's size from its stat. */
export function scanSession(file: string, size: number, options: ScanOptions = {}): SessionFields {
  const tailBytes = options.tailBytes ?? DEFAULT_TAIL_BYTES;
  const stem = path.basename(file, '.jsonl');
  const fields: SessionFields = { id: stem, cwd: null, git_branch: null, version: null, model: null, title: null, ai_title: null, started_at: null };
  let haveId = false;
  const head: Titles = { custom: null, agent: null, ai: null, summary: null };
  const whole = options.deep === true || size <= 2 * tailBytes;
  const reader = new ChunkReader(file, size, options.counter);
  try {
    let headEnd = 0;
    let headKnown = false;
    for (const line of forwardLines(reader)) {
      headEnd = line.end;
      // Once the envelope is known only title lines matter: skip the rest unscanned.
      if (headKnown && !TITLE_HINTS.some((hint) => line.bytes.includes(hint))) continue;
      const objects = scanLineObjects(line.bytes, LINE_KEYS);
      if (!objects) continue;
      for (const values of objects) {
        const buf = line.bytes;
        const type = stringAt(buf, values.get('type'));
        if (!haveId) {
          const id = stringAt(buf, values.get('sessionId'));
          if (id) {
            fields.id = id;
            haveId = true;
          }
        }
        if (fields.cwd === null) fields.cwd = stringAt(buf, values.get('cwd'));
        if (fields.git_branch === null) fields.git_branch = stringAt(buf, values.get('gitBranch'));
        if (fields.version === null) fields.version = stringAt(buf, values.get('version'));
        if (fields.started_at === null) fields.started_at = stringAt(buf, values.get('timestamp'));
        if (fields.model === null && type === 'assistant') {
          const m = values.get('message');
          if (m) {
            const inner = scanObject(buf.subarray(m[0], m[1]), MESSAGE_KEYS);
            const model = inner ? stringAt(buf.subarray(m[0], m[1]), inner.values.get('model')) : null;
            if (model && model !== '<synthetic>') fields.model = model;
          }
        }
        if (type !== null && type in TITLE_KEY) noteTitle(head, type, stringAt(buf, values.get(TITLE_KEY[type])), false);
      }
      headKnown = haveId && fields.cwd !== null && fields.git_branch !== null && fields.version !== null && fields.started_at !== null && fields.model !== null;
      if (headKnown && !whole) break;
    }
    let tail: Titles = { custom: null, agent: null, ai: null, summary: null };
    const low = Math.max(headEnd, size - tailBytes);
    if (!whole && low < size) tail = tailTitles(reader, low, low === headEnd);
    // Tail lines come after head lines: for "last" titles the tail wins, for "first" the head.
    const custom = tail.custom ?? head.custom;
    const agent = tail.agent ?? head.agent;
    fields.ai_title = tail.ai ?? head.ai;
    fields.title = custom ?? agent ?? head.summary ?? tail.summary;
  } finally {
    reader.close();
  }
  return fields;
}

function noteTitle(t: Titles, type: string, value: string | null, backwards: boolean): void {
  if (!value) return;
  // Reading forwards the last one wins; reading backwards the first one seen is the last.
  const keepLast = (old: string | null) => (backwards ? (old ?? value) : value);
  if (type === 'custom-title') t.custom = keepLast(t.custom);
  else if (type === 'agent-name') t.agent = keepLast(t.agent);
  else if (type === 'ai-title') t.ai = keepLast(t.ai);
  else if (type === 'summary') t.summary = backwards ? value : (t.summary ?? value);
}

function tailTitles(reader: ChunkReader, low: number, lowStartsLine: boolean): Titles {
  const t: Titles = { custom: null, agent: null, ai: null, summary: null };
  for (const line of backwardLines(reader, low, lowStartsLine)) {
    if (!TITLE_HINTS.some((hint) => line.includes(hint))) continue;
    const objects = scanLineObjects(line, LINE_KEYS);
    if (!objects) continue;
    for (let k = objects.length - 1; k >= 0; k--) {
      const type = stringAt(line, objects[k].get('type'));
      if (type !== null && type in TITLE_KEY) noteTitle(t, type, stringAt(line, objects[k].get(TITLE_KEY[type])), true);
    }
    // The last custom-title decides the title; agent-name and summary cannot beat it.
    if (t.custom !== null && t.ai !== null) break;
  }
  return t;
}

/** Every physical line of a file in order, without building them into values; the file closes when the loop ends. */
export function* fileLines(file: string, size: number, counter?: ReadCounter): Generator<Buffer> {
  const reader = new ChunkReader(file, size, counter);
  try {
    for (const line of forwardLines(reader)) yield line.bytes;
  } finally {
    reader.close();
  }
}

/** Physical lines in a file, counted as tx-parse numbers them (reads the whole file). */
export function countLines(file: string, size: number, counter?: ReadCounter): number {
  const reader = new ChunkReader(file, size, counter);
  let lines = 0;
  let last = LF;
  try {
    for (let pos = 0; ; ) {
      const chunk = reader.read(pos, 1 << 20);
      if (chunk.length === 0) break;
      for (let i = chunk.indexOf(LF); i >= 0; i = chunk.indexOf(LF, i + 1)) lines++;
      last = chunk[chunk.length - 1];
      pos += chunk.length;
    }
  } finally {
    reader.close();
  }
  return last === LF ? lines : lines + 1;
}

/** The first line a person typed (kind `prompt`), trimmed to `max` characters; null when there is none. */
export function firstPrompt(file: string, size: number, max = 300, counter?: ReadCounter): string | null {
  const typeOnly = new Set(['type']);
  for (const bytes of fileLines(file, size, counter)) {
    const objects = scanLineObjects(bytes, typeOnly);
    if (!objects || objects.length !== 1 || stringAt(bytes, objects[0].get('type')) !== 'user') continue;
    let value: any;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch {
      continue;
    }
    if (classifyClaudeLine(value) !== 'prompt') continue;
    const text = leadingText(value.message.content);
    if (text === null) continue;
    return trimText(text, max);
  }
  return null;
}

/** Text cut to `max` characters, with an ellipsis when cut. */
export function trimText(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + '…' : text;
}
