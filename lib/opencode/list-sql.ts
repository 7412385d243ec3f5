// The reads behind tx-ls on OpenCode's database: one query for every session's listing
// fields (with its first model, its children and the size of its rows), and one for the
// first prompt of a session. Ids are checked before they become literals (db-sql.ts).
import { checkedSessionId, literal } from './db-sql.js';

/** One session of a listing, as the query returns it. */
export interface ListingRow {
  id: string;
  parent_id: string | null;
  title: string | null;
  directory: string | null;
  version: string | null;
  time_created: number;
  time_updated: number;
  messages: number;
  children: number;
  model: string | null;
  bytes: number;
}

const COLUMNS = `SELECT s.id, s.parent_id, s.title, s.directory, s.version, s.time_created, s.time_updated,
  (SELECT count(*) FROM message m WHERE m.session_id = s.id) AS messages,
  (SELECT count(*) FROM session c WHERE c.parent_id = s.id) AS children,
  (SELECT json_extract(m.data, '$.modelID') FROM message m WHERE m.session_id = s.id AND json_extract(m.data, '$.role') = 'assistant' ORDER BY m.time_created, m.id LIMIT 1) AS model,
  (SELECT coalesce(sum(length(m.data)), 0) FROM message m WHERE m.session_id = s.id) + (SELECT coalesce(sum(length(p.data)), 0) FROM part p WHERE p.session_id = s.id) AS bytes
FROM session s`;

/** Every session of the store, newest first, with what a listing shows. */
export const LISTING = `${COLUMNS} ORDER BY s.time_updated DESC, s.id DESC`;

/** One session's listing row. */
export function listingOf(id: string): string {
  return `${COLUMNS} WHERE s.id = ${literal(checkedSessionId(id))}`;
}

/** The text parts of a session's first user message that the client did not write itself. */
export function firstPromptQuery(id: string): string {
  const q = literal(checkedSessionId(id));
  return `SELECT json_extract(p.data, '$.text') AS text FROM part p WHERE p.message_id = (SELECT m.id FROM message m WHERE m.session_id = ${q} AND json_extract(m.data, '$.role') = 'user' ORDER BY m.time_created, m.id LIMIT 1) AND json_extract(p.data, '$.type') = 'text' AND coalesce(json_extract(p.data, '$.synthetic'), 0) = 0 ORDER BY p.id`;
}
