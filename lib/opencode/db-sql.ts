// The SQL txcript runs against OpenCode's store: the reads behind a listing and one
// session, and the one transaction that writes a session. Values go in as literals (a
// command-line engine takes no parameters): ids are checked against the client's id
// shape first, and text is quoted, with a string holding NUL written as a blob cast to
// text (a quoted literal would end there).
import path from 'node:path';
import { messageRows, sessionRow, type Row } from './db-rows.js';
import { ID_PREFIX, type MessageWithParts, type SessionInfo } from './shape.js';

const ID = /^(ses|msg|prt)_[0-9A-Za-z]+$/;

/** A session id as the client makes them, or an error. */
export function checkedSessionId(id: string): string {
  if (!ID.test(id) || !id.startsWith(ID_PREFIX.session)) throw new Error(`not an OpenCode session id: ${JSON.stringify(id)}`);
  return id;
}

/** A value as an SQL literal. */
export function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return String(v);
  }
  if (typeof v === 'boolean') return v ? '1' : '0';
  const s = String(v);
  if (s.includes('\0')) return `CAST(X'${Buffer.from(s, 'utf8').toString('hex')}' AS TEXT)`;
  return `'${s.replaceAll("'", "''")}'`;
}

/** The sessions of a store, newest first: what a listing shows. */
export const LIST_SESSIONS = 'SELECT id, parent_id, project_id, title, directory, version, time_created, time_updated, (SELECT count(*) FROM message WHERE message.session_id = session.id) AS messages FROM session ORDER BY time_updated DESC, id DESC';

/** The reads of one session: its row, its messages oldest first, their parts in the client's order (by message, then id). */
export function sessionQueries(id: string): { session: string; messages: string; parts: string } {
  const q = literal(checkedSessionId(id));
  return {
    session: `SELECT * FROM session WHERE id = ${q}`,
    messages: `SELECT id, session_id, time_created, time_updated, data FROM message WHERE session_id = ${q} ORDER BY time_created, id`,
    parts: `SELECT id, message_id, session_id, time_created, time_updated, data FROM part WHERE session_id = ${q} ORDER BY message_id, id`,
  };
}

function insert(table: string, row: Row): string {
  const cols = Object.keys(row);
  return `INSERT INTO ${table} (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((c) => literal(row[c])).join(', ')});`;
}

/**
 * A session's info moved to the folder it is resumed in, as `opencode import` does:
 * `directory`, and `path` relative to the project's worktree ("/" for the global project).
 * The client resumes a session only in its own folder: `opencode run --session ID`
 * elsewhere sends the request but never ends (1.18.33).
 */
export function sessionPlacedIn(info: SessionInfo, directory: string, worktree = '/'): SessionInfo {
  return { ...info, directory, path: path.relative(path.resolve(worktree), directory).replaceAll('\\', '/') };
}

/** Where a session is written. */
export interface WriteTarget {
  /** The project the session belongs to; `global` (the client's project for a folder outside any git repository) is made when missing. */
  projectID: string;
  /** The time of the write (the global project's creation time when it is made). */
  now: number;
}

/**
 * One transaction that writes a session, its messages and their parts, or nothing: the
 * script stops at the first error and the transaction is rolled back (run it with the
 * engine's bail-on-error). An id already in the store is an error, so nothing of an
 * existing session is overwritten.
 */
export function insertSessionScript(info: SessionInfo, messages: Iterable<MessageWithParts>, target: WriteTarget): string {
  const out = ['PRAGMA foreign_keys = ON;', 'PRAGMA busy_timeout = 5000;', 'BEGIN IMMEDIATE;'];
  if (target.projectID === 'global') out.push(`INSERT INTO project (id, worktree, sandboxes, time_created, time_updated) VALUES ('global', '/', '[]', ${literal(target.now)}, ${literal(target.now)}) ON CONFLICT (id) DO NOTHING;`);
  out.push(insert('session', sessionRow(info, target.projectID)));
  for (const m of messages) {
    const rows = messageRows(m, info.id);
    out.push(insert('message', rows.message));
    for (const p of rows.parts) out.push(insert('part', p));
  }
  out.push('COMMIT;');
  return out.join('\n') + '\n';
}
