// Where OpenCode keeps sessions, and reading them as lines. Since 1.2 the store is one
// SQLite database, `$XDG_DATA_HOME/opencode/opencode.db` (~/.local/share/opencode/ by
// default; OPENCODE_DB names another file, relative to that folder unless absolute;
// builds of other channels than latest, beta and prod use `opencode-<channel>.db`), in
// WAL mode. Before 1.2 it was JSON files under `storage/` in the same folder
// (session/<project>/<id>.json, message/<session>/<id>.json, part/<message>/<id>.json),
// which the client moves into the database the first time it starts.
import os from 'node:os';
import path from 'node:path';
import { messageOfRows, sessionOfRow, type Row } from './db-rows.js';
import { LIST_SESSIONS, sessionQueries } from './db-sql.js';
import type { OpencodeLine } from './shape.js';
import type { SqlEngine } from './sqlite-engines.js';

/** The client's data folder under an environment. */
export function opencodeDataDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(env.HOME ?? os.homedir(), '.local', 'share');
  return path.join(base, 'opencode');
}

/** The session database under an environment (the client's own rule, for a build of the latest channel). */
export function opencodeDbPath(env: NodeJS.ProcessEnv): string {
  const data = opencodeDataDir(env);
  const named = env.OPENCODE_DB;
  if (named) return named === ':memory:' || path.isAbsolute(named) ? named : path.join(data, named);
  return path.join(data, 'opencode.db');
}

/** The folder of a store from before 1.2, whose files the client moves into the database. */
export function legacyStorageDir(env: NodeJS.ProcessEnv): string {
  return path.join(opencodeDataDir(env), 'storage');
}

/** One session of a listing. */
export interface ListedSession {
  id: string;
  parent_id: string | null;
  project_id: string;
  title: string;
  directory: string;
  version: string;
  time_created: number;
  time_updated: number;
  messages: number;
}

/** Every session of a store, newest first. */
export function listSessions(engine: SqlEngine): ListedSession[] {
  return engine.query(LIST_SESSIONS) as unknown as ListedSession[];
}

/**
 * One session as lines, the order `opencode export` gives: its info, then each message
 * with its parts. Three queries, whatever the session's size (the rows of one session
 * are held while its lines are made); null when the store has no such session.
 */
export function sessionLines(engine: SqlEngine, id: string): OpencodeLine[] | null {
  const q = sessionQueries(id);
  const row = engine.query(q.session)[0];
  if (!row) return null;
  const parts = new Map<string, Row[]>();
  for (const p of engine.query(q.parts)) {
    const list = parts.get(p.message_id as string);
    if (list) list.push(p);
    else parts.set(p.message_id as string, [p]);
  }
  const lines: OpencodeLine[] = [sessionOfRow(row)];
  for (const m of engine.query(q.messages)) lines.push(messageOfRows(m, parts.get(m.id as string) ?? []));
  return lines;
}
