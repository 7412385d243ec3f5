// What tx-ls reads of a chat file without replaying it: the session id of its first line,
// the fields of its head (the model of the first answer, the cwd from the session
// context), its title (the last `$set.summary`, found by a byte search of the whole
// file), its first prompt, and whether the client would resume it. An older client's
// chat is one JSON document, read whole (up to LONG_LINE bytes, as one line would be).
import path from 'node:path';
import type { ScanOptions, SessionFields } from '../codec.js';
import { ChunkReader, forwardLines, linesWithKey, type ReadCounter } from '../core/input/file-lines.js';
import { LONG_LINE } from '../core/input/lines.js';
import { opensDocument } from '../core/json/document.js';
import { isMessageRecord, isMetadataLine, isSetLine } from './detect.js';
import { recordText } from './items.js';
import { contentText, isIgnoredUserText } from './parts.js';
import { markerOwner, registeredProjects } from './project.js';
import { projectHash, projectRoot, SESSION_CONTEXT, workspaceDirectories } from './session-context.js';

/** Lines of a chat's head read for its fields (its metadata, session context and first answer are near the top). */
const HEAD_LINES = 200;
const HEAD_BYTES = 64 * 1024;

function parse(bytes: Buffer): any {
  try {
    const v = JSON.parse(bytes.toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** A chat file's head (its first bytes), and the document it is when it is one (parsed whole, null when too large or not JSON). */
function readChat(file: string, size: number, counter?: ReadCounter): { head: Buffer; doc: Record<string, any> | null | undefined } {
  const reader = new ChunkReader(file, size, counter);
  try {
    const head = reader.read(0, Math.min(size, HEAD_BYTES));
    if (!opensDocument(head)) return { head, doc: undefined };
    if (size > LONG_LINE) return { head, doc: null };
    return { head, doc: parse(reader.read(0, size)) };
  } finally {
    reader.close();
  }
}

/** The session id a chat file names: its metadata line's (or its document's), else the part of its name that is an id. */
export function chatIdOf(file: string): string {
  const name = path.basename(file).replace(/\.jsonl?$/, '');
  const fromName = /^session-.*-([0-9a-zA-Z]{8})$/.exec(name)?.[1] ?? name;
  let head: Buffer;
  try {
    const reader = new ChunkReader(file, HEAD_BYTES);
    try {
      head = reader.read(0, HEAD_BYTES);
    } finally {
      reader.close();
    }
  } catch {
    return fromName;
  }
  const m = /"sessionId"\s*:\s*"([^"\\]{1,200})"/.exec(head.toString('utf8'));
  return m ? m[1]! : fromName;
}

/** The project root whose hash is a chat's projectHash: its folder's marker, else an entry of projects.json. */
function rootOfHash(file: string, hash: string): string | null {
  const project = path.dirname(path.dirname(file));
  const owner = markerOwner(project);
  if (typeof owner === 'string' && projectHash(owner) === hash) return owner;
  for (const root of registeredProjects(path.dirname(path.dirname(project))).keys()) if (projectHash(root) === hash) return root;
  return null;
}

/** The fields of one chat file: a shallow scan of its head, and a byte search for its title. */
export function scanChat(file: string, size: number, options: ScanOptions = {}): SessionFields {
  const fields: SessionFields = { id: chatIdOf(file), cwd: null, git_branch: null, version: null, model: null, title: null, ai_title: null, started_at: null };
  const { doc } = readChat(file, size, options.counter);
  let hash: string | undefined;
  const take = (m: any) => {
    if (!m || typeof m !== 'object') return;
    if (fields.model === null && m.type === 'gemini' && typeof m.model === 'string') fields.model = m.model;
    if (fields.cwd === null && m.type === 'user') {
      const text = contentText(m.content).trimStart();
      if (text.startsWith(SESSION_CONTEXT)) fields.cwd = projectRoot(workspaceDirectories(text), hash);
    }
  };
  if (doc !== undefined) {
    if (doc) {
      hash = typeof doc.projectHash === 'string' ? doc.projectHash : undefined;
      if (typeof doc.startTime === 'string') fields.started_at = doc.startTime;
      if (typeof doc.summary === 'string' && doc.summary.trim() !== '') fields.title = fields.ai_title = doc.summary;
      if (Array.isArray(doc.messages)) for (const m of doc.messages) take(m);
    }
  } else {
    const reader = new ChunkReader(file, size, options.counter);
    try {
      let lines = 0;
      for (const { bytes } of forwardLines(reader)) {
        const line = parse(bytes);
        if (isMetadataLine(line)) {
          hash ??= line.projectHash;
          fields.started_at ??= typeof line.startTime === 'string' ? line.startTime : null;
        } else if (isSetLine(line) && Array.isArray(line.$set.messages)) for (const m of line.$set.messages) take(m);
        else if (isMessageRecord(line)) take(line);
        if (!options.deep && ((fields.model !== null && fields.cwd !== null) || ++lines >= HEAD_LINES)) break;
      }
      for (const bytes of linesWithKey(reader, 0, ['summary'])) {
        const line = parse(bytes);
        if (isSetLine(line) && typeof line.$set.summary === 'string') fields.title = fields.ai_title = line.$set.summary.trim() === '' ? null : line.$set.summary;
      }
    } finally {
      reader.close();
    }
  }
  if (fields.cwd === null && hash !== undefined) fields.cwd = rootOfHash(file, hash);
  return fields;
}

/** A user record the client would resume (not its own context, not a slash command): its text, else null. */
function promptText(m: any): string | null {
  if (!m || typeof m !== 'object' || m.type !== 'user' || typeof m.id !== 'string') return null;
  return isIgnoredUserText(contentText(m.content)) ? null : recordText(m.content);
}

/** The messages of a chat file's lines that name a user record (and checkpoints), or of its document. */
function* userRecords(file: string, size: number, counter?: ReadCounter): Generator<any> {
  const { doc } = readChat(file, size, counter);
  if (doc !== undefined) {
    if (doc && Array.isArray(doc.messages)) yield* doc.messages;
    return;
  }
  const reader = new ChunkReader(file, size, counter);
  try {
    for (const { bytes } of forwardLines(reader)) {
      if (!bytes.includes('"user"')) continue;
      const line = parse(bytes);
      if (isSetLine(line) && Array.isArray(line.$set.messages)) yield* line.$set.messages;
      else if (isMessageRecord(line)) yield line;
    }
  } finally {
    reader.close();
  }
}

/** The first prompt a person typed in a chat file, as the client takes it for its session list, trimmed to `max` characters. */
export function firstChatPrompt(file: string, size: number, max = 300, counter?: ReadCounter): string | null {
  for (const m of userRecords(file, size, counter)) {
    const text = promptText(m);
    if (text !== null) return text.length > max ? text.slice(0, max) + '…' : text;
  }
  return null;
}

/** Whether the client would list a chat file to resume (its loaded messages hold a prompt or an answer), and when it was last updated. */
export function resumable(file: string, size: number): { resumable: boolean; lastUpdated: string } {
  const { doc } = readChat(file, size);
  const loaded = new Map<string, any>();
  let lastUpdated = '';
  const keep = (m: any) => {
    if (m && typeof m === 'object' && typeof m.id === 'string') loaded.set(m.id, m);
  };
  if (doc !== undefined) {
    if (doc && Array.isArray(doc.messages)) doc.messages.forEach(keep);
    if (doc && typeof doc.lastUpdated === 'string') lastUpdated = doc.lastUpdated;
  } else {
    const reader = new ChunkReader(file, size);
    try {
      for (const { bytes } of forwardLines(reader)) {
        const line = parse(bytes);
        if (!line) continue;
        if (typeof line.$rewindTo === 'string') {
          const ids = [...loaded.keys()];
          const at = ids.indexOf(line.$rewindTo);
          for (const id of at < 0 ? ids : ids.slice(at)) loaded.delete(id);
        } else if (typeof line.id === 'string') keep(line);
        else if (isSetLine(line)) {
          if (Array.isArray(line.$set.messages)) {
            loaded.clear();
            line.$set.messages.forEach(keep);
          }
          if (typeof line.$set.lastUpdated === 'string') lastUpdated = line.$set.lastUpdated;
        } else if (isMetadataLine(line) && typeof line.lastUpdated === 'string') lastUpdated = line.lastUpdated;
      }
    } finally {
      reader.close();
    }
  }
  const answers = (m: any) => m.type === 'gemini' && (contentText(m.content).trim() !== '' || (m.toolCalls?.length ?? 0) > 0 || (m.thoughts?.length ?? 0) > 0);
  return { resumable: [...loaded.values()].some((m) => promptText(m) !== null || answers(m)), lastUpdated };
}
