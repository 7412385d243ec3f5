// The shallow metadata scan of a session file. It never builds a message: it finds
// a few top-level fields by the structural scan of lib/core/json/json-scan.ts and parses
// only their (small) values. It reads the head of the file until the envelope
// fields are known; then it searches the rest of the file's bytes for the type values
// of title lines (custom-title, agent-name, ai-title, summary) and parses only the
// lines that hold one, so titles anywhere in the file count, at the cost of one byte
// search over the file rather than a split and a parse of every line.
import path from 'node:path';
import { ChunkReader, fileLines, forwardLines, linesWithValue, type ReadCounter } from '../core/input/file-lines.js';
import { scanLineObjects, scanObject, stringAt } from '../core/json/object-scan.js';
import type { ScanOptions, SessionFields } from '../codec.js';
import { classifyClaudeLine, leadingText } from './classify.js';


const LINE_KEYS = new Set(['type', 'sessionId', 'cwd', 'gitBranch', 'version', 'timestamp', 'message', 'customTitle', 'agentName', 'aiTitle', 'summary']);
const MESSAGE_KEYS = new Set(['model']);
// A title line holds one of these; a line without any cannot be one.
const TITLE_HINTS = ['title', 'agent-name', 'summary'].map((s) => Buffer.from(s));
// The type values of title lines, searched for as JSON tokens after the head.
const TITLE_TYPES = ['custom-title', 'agent-name', 'ai-title', 'summary'];
// A Map: the line type comes from the data, and `type in {…}` is true for `constructor` or `toString`.
const TITLE_KEY = new Map<string, string>([['custom-title', 'customTitle'], ['agent-name', 'agentName'], ['ai-title', 'aiTitle'], ['summary', 'summary']]);

/** The titles seen so far, in file order. */
interface Titles {
  custom: string | null;
  agent: string | null;
  ai: string | null;
  summary: string | null;
}

/** The fields of one session file, by the shallow scan. `size` is the file's size from its stat. */
export function scanSession(file: string, size: number, options: ScanOptions = {}): SessionFields {
  const stem = path.basename(file, '.jsonl');
  const fields: SessionFields = { id: stem, cwd: null, git_branch: null, version: null, model: null, title: null, ai_title: null, started_at: null };
  let haveId = false;
  const head: Titles = { custom: null, agent: null, ai: null, summary: null };
  const whole = options.deep === true;
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
        if (type !== null && TITLE_KEY.has(type)) noteTitle(head, type, stringAt(buf, values.get(TITLE_KEY.get(type)!)));
      }
      headKnown = haveId && fields.cwd !== null && fields.git_branch !== null && fields.version !== null && fields.started_at !== null && fields.model !== null;
      if (headKnown && !whole) break;
    }
    if (!whole && headEnd < size) {
      for (const line of linesWithValue(reader, headEnd, TITLE_TYPES)) {
        for (const values of scanLineObjects(line, LINE_KEYS) ?? []) {
          const type = stringAt(line, values.get('type'));
          if (type !== null && TITLE_KEY.has(type)) noteTitle(head, type, stringAt(line, values.get(TITLE_KEY.get(type)!)));
        }
      }
    }
    fields.ai_title = head.ai;
    fields.title = head.custom ?? head.agent ?? head.summary;
  } finally {
    reader.close();
  }
  return fields;
}

function noteTitle(t: Titles, type: string, value: string | null): void {
  if (!value) return;
  // In file order: the last of each title wins, except the first summary.
  if (type === 'custom-title') t.custom = value;
  else if (type === 'agent-name') t.agent = value;
  else if (type === 'ai-title') t.ai = value;
  else if (type === 'summary') t.summary ??= value;
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
