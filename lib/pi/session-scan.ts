// The shallow metadata scan of a pi session file. It never builds a message: the
// header (line 1) gives the id, working directory and start; the lines after it are
// scanned structurally (lib/core/json/object-scan.ts) only until the first reply names
// its model; then the rest of the file's bytes are searched for `session_info` entries
// (a name the person gave, the latest winning), and only those lines are parsed.
import path from 'node:path';
import type { ScanOptions, SessionFields } from '../codec.js';
import { ChunkReader, fileLines, forwardLines, linesWithValue, type ReadCounter } from '../core/input/file-lines.js';
import { scanLineObjects, scanObject, stringAt } from '../core/json/object-scan.js';
import { classifyPiLine } from './classify.js';
import { contentText } from './text.js';

const LINE_KEYS = new Set(['type', 'id', 'cwd', 'timestamp', 'message', 'name']);
const MESSAGE_KEYS = new Set(['role', 'model']);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** A session name as the client takes it: trimmed; an empty one clears the name. */
function nameOf(buf: Buffer, range: [number, number] | undefined): string | null {
  const name = stringAt(buf, range)?.trim();
  return name === undefined || name === '' ? null : name;
}

/** The fields of one session file by the shallow scan (`--deep`: every line scanned the same way). */
export function scanPiSession(file: string, size: number, options: ScanOptions = {}): SessionFields {
  const stem = path.basename(file).replace(/\.jsonl$/, '');
  const fields: SessionFields = { id: UUID.exec(stem)?.[0] ?? stem, cwd: null, git_branch: null, version: null, model: null, title: null, ai_title: null, started_at: null };
  const reader = new ChunkReader(file, size, options.counter);
  try {
    let headEnd = 0;
    let first = true;
    for (const line of forwardLines(reader)) {
      headEnd = line.end;
      const objects = scanLineObjects(line.bytes, LINE_KEYS);
      const values = objects?.[0];
      if (values) {
        const buf = line.bytes;
        const type = stringAt(buf, values.get('type'));
        if (first && type === 'session') {
          fields.id = stringAt(buf, values.get('id')) || fields.id;
          fields.cwd = stringAt(buf, values.get('cwd'));
          fields.started_at = stringAt(buf, values.get('timestamp'));
        } else if (type === 'session_info') {
          if (values.has('name')) fields.title = nameOf(buf, values.get('name'));
        } else if (type === 'message' && fields.model === null) {
          const m = values.get('message');
          const inner = m ? buf.subarray(m[0], m[1]) : null;
          const scanned = inner ? scanObject(inner, MESSAGE_KEYS) : null;
          if (inner && scanned && stringAt(inner, scanned.values.get('role')) === 'assistant') fields.model = stringAt(inner, scanned.values.get('model'));
        }
      }
      first = false;
      if (fields.model !== null && options.deep !== true) break;
    }
    if (options.deep !== true && headEnd < size) {
      for (const bytes of linesWithValue(reader, headEnd, ['session_info'])) {
        const values = scanLineObjects(bytes, LINE_KEYS)?.[0];
        if (values && stringAt(bytes, values.get('type')) === 'session_info' && values.has('name')) fields.title = nameOf(bytes, values.get('name'));
      }
    }
  } finally {
    reader.close();
  }
  return fields;
}

/** The first prompt a person typed (kind `prompt`: a user message that is not a skill invoked), trimmed to `max` characters; null when there is none. */
export function firstPiPrompt(file: string, size: number, max = 300, counter?: ReadCounter): string | null {
  const keys = new Set(['type', 'message']);
  const roleKey = new Set(['role']);
  for (const bytes of fileLines(file, size, counter)) {
    const values = scanLineObjects(bytes, keys)?.[0];
    const m = values?.get('message');
    if (!values || stringAt(bytes, values.get('type')) !== 'message' || !m) continue;
    const inner = bytes.subarray(m[0], m[1]);
    const scanned = scanObject(inner, roleKey);
    if (!scanned || stringAt(inner, scanned.values.get('role')) !== 'user') continue;
    let line: any;
    try {
      line = JSON.parse(bytes.toString('utf8'));
    } catch {
      continue;
    }
    if (classifyPiLine(line) !== 'prompt') continue;
    const text = contentText(line.message.content, false);
    return text.length > max ? text.slice(0, max) + '…' : text;
  }
  return null;
}
