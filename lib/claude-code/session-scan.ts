// The shallow metadata scan of a session file. It never builds a message: it finds
// a few top-level fields by the structural scan of lib/core/json-scan.ts and parses
// only their (small) values. It reads the head of the file until the envelope
// fields are known, and the tail backwards for the titles that the CLI appends
// (custom-title, agent-name, ai-title). Files up to two tail windows, and every
// file under `deep`, are read whole, front to back, so their titles are exact.
import path from 'node:path';
import { backwardLines, ChunkReader, fileLines, forwardLines, type ReadCounter } from '../core/file-lines.js';
import { scanLineObjects, scanObject, stringAt } from '../core/object-scan.js';
import { DEFAULT_TAIL_BYTES, type ScanOptions, type SessionFields } from '../codec.js';
import { classifyClaudeLine, leadingText } from './classify.js';


const LINE_KEYS = new Set(['type', 'sessionId', 'cwd', 'gitBranch', 'version', 'timestamp', 'message', 'customTitle', 'agentName', 'aiTitle', 'summary']);
const MESSAGE_KEYS = new Set(['model']);
// A title line holds one of these; a line without any cannot be one.
const TITLE_HINTS = ['title', 'agent-name', 'summary'].map((s) => Buffer.from(s));
const TITLE_KEY: Record<string, string> = { 'custom-title': 'customTitle', 'agent-name': 'agentName', 'ai-title': 'aiTitle', summary: 'summary' };

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

/** Text cut to `max` characters, with an ellipsis when cut (tx-ls's first_prompt; views say how much was cut). */
export function trimText(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + '…' : text;
}
