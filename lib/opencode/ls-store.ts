// OpenCode's store as tx-ls sees it (SessionStore). Since 1.2 the client keeps every
// session in one SQLite database, `opencode.db` in its data folder: a listing is one
// query (list-sql.ts), through the SQLite this machine has (sqlite-engines.ts: node:sqlite
// on Node 22.5 and later, else the sqlite3 command; with neither, the database is skipped
// with a message). A session of the database is named `DB#ID` (its path, for a listing;
// `read` gives the document `opencode export ID` prints). `opencode export` documents in a
// folder named are listed too, by their first bytes. A subagent is a child session (its parent's
// `subagents` count); sessions are installed by db-install.ts, not as files.
import { closeSync, readdirSync, readSync, statSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import type { FoundSession, SessionFields, SessionStore, WalkProblem } from '../codec.js';
import { openRegular } from '../core/input/regular-file.js';
import { isoOf } from './envelope.js';
import { exportDocumentOf, exportFileUnits } from './export-file.js';
import { isMessageWithParts, isSessionInfo } from './detect.js';
import { firstPromptQuery, LISTING, listingOf, type ListingRow } from './list-sql.js';
import { modelOf, typedTexts } from './parts.js';
import { localEngine } from './sqlite-engines.js';
import { sessionIdFor } from './native-writer.js';
import { opencodeDataDir, sessionLines } from './store.js';

/** The database's name in the data folder. */
export const DB_NAME = 'opencode.db';
/** How a session of a database is named: the database's path, `#`, the session id. */
const SEP = '#';
/** What an export document's first bytes are. */
const EXPORT_HEAD = /^\{\r?\n {2}"info": \{\r?\n {4}"id": "ses_/;
/** Folders of the data folder that hold no sessions of their own (snapshots, logs, the old storage). */
const SKIP = new Set(['snapshot', 'log', 'storage', 'bin', 'node_modules', 'tool-output']);

/** Listing rows by session path, filled by discover (scan, countLines and the rest read them). */
const listed = new Map<string, ListingRow>();

/** The database and session id of a session path, or null for a file. */
function dbSession(p: string): { db: string; id: string } | null {
  const at = p.lastIndexOf(SEP);
  if (at < 0) return null;
  const id = p.slice(at + 1);
  return id.startsWith('ses_') ? { db: p.slice(0, at), id } : null;
}

/** True when a file's first bytes are an export document's. */
function isExportFile(file: string): boolean {
  let fd: number;
  try {
    fd = openRegular(file).fd;
  } catch {
    return false;
  }
  try {
    const buf = Buffer.alloc(64);
    const n = readSync(fd, buf, 0, 64, 0);
    return EXPORT_HEAD.test(buf.toString('utf8', 0, n));
  } finally {
    closeSync(fd);
  }
}

/** The sessions of one database, as found sessions (their stat: the database's, with the session's update time and row bytes). */
function* databaseSessions(db: string, stat: Stats, onProblem: (p: WalkProblem) => void): Generator<FoundSession> {
  const engine = localEngine(db, { readonly: true });
  if (engine === null) {
    onProblem({ path: db, message: 'no SQLite on this machine (node:sqlite, Node 22.5 and later, or the sqlite3 command): its sessions are not listed' });
    return;
  }
  let rows: ListingRow[];
  try {
    rows = engine.query(LISTING) as unknown as ListingRow[];
  } catch (err) {
    onProblem({ path: db, message: `cannot read: ${(err as Error).message}` });
    return;
  }
  for (const row of rows) {
    const p = `${db}${SEP}${row.id}`;
    listed.set(p, row);
    const own = Object.assign(Object.create(Object.getPrototypeOf(stat)), stat) as Stats;
    own.mtime = new Date(row.time_updated);
    own.size = row.bytes;
    yield { path: p, project: path.basename(path.dirname(db)), stat: own };
  }
}

/** Every export document under a folder (not following links), and every database named DB_NAME. */
function* walk(root: string, onProblem: (p: WalkProblem) => void): Generator<FoundSession> {
  let stat: Stats;
  try {
    stat = statSync(root);
  } catch (err) {
    // A store not used yet holds no session.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') onProblem({ path: root, message: `cannot read: ${(err as Error).message}` });
    return;
  }
  if (stat.isFile()) {
    if (path.basename(root).endsWith('.db')) yield* databaseSessions(root, stat, onProblem);
    else if (isExportFile(root)) yield { path: root, project: path.basename(path.dirname(root)), stat };
    return;
  }
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let names: Dirent[];
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      onProblem({ path: dir, message: `cannot read: ${(err as Error).message}` });
      continue;
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // Folders in name order: pushed last first.
    for (let i = names.length - 1; i >= 0; i--) if (names[i].isDirectory() && !SKIP.has(names[i].name)) stack.push(path.join(dir, names[i].name));
    for (const e of names) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) continue;
      else if (e.isFile() && e.name === DB_NAME) {
        yield* databaseSessions(p, statSync(p), onProblem);
      } else if (e.isFile() && e.name.endsWith('.json') && isExportFile(p)) {
        yield { path: p, project: path.basename(dir), stat: statSync(p) };
      }
    }
  }
}

/** The fields of an export file: its info, and the first assistant's model. */
function scanFile(file: string): SessionFields {
  const fields: SessionFields = { id: path.basename(file, '.json'), cwd: null, git_branch: null, version: null, model: null, title: null, ai_title: null, started_at: null };
  for (const unit of exportFileUnits(file)) {
    const v = unit.value;
    if (isSessionInfo(v)) {
      fields.id = v.id;
      fields.cwd = typeof v.directory === 'string' ? v.directory : null;
      fields.version = v.version;
      fields.title = typeof v.title === 'string' ? v.title : null;
      fields.started_at = isoOf(v.time.created);
    } else if (isMessageWithParts(v) && v.info.role === 'assistant') {
      fields.model = modelOf(v);
      break;
    }
  }
  return fields;
}

/** The listing row of a session of a database: from the listing discover made, else asked for (a worker thread, a name given). */
function rowOf(p: string): ListingRow {
  const cached = listed.get(p);
  if (cached) return cached;
  const s = dbSession(p)!;
  const engine = localEngine(s.db, { readonly: true });
  if (engine === null) throw new Error('no SQLite on this machine (node:sqlite, Node 22.5 and later, or the sqlite3 command)');
  const row = engine.query(listingOf(s.id))[0] as unknown as ListingRow | undefined;
  if (!row) throw new Error(`no session ${s.id} in ${s.db}`);
  listed.set(p, row);
  return row;
}

/** OpenCode's session store. */
export const opencodeStore: SessionStore = {
  configDir: (env) => (env.XDG_DATA_HOME || env.HOME ? opencodeDataDir(env) : null),
  keeps: { subagents: false, plugins: false },
  idOf: (p) => dbSession(p)?.id ?? path.basename(p, '.json'),
  rootIn: (config) => config,
  discover: walk,
  scan(p) {
    if (dbSession(p) === null) return scanFile(p);
    const row = rowOf(p);
    return { id: row.id, cwd: row.directory, git_branch: null, version: row.version, model: row.model, title: row.title, ai_title: null, started_at: isoOf(row.time_created) };
  },
  countLines(p) {
    // The records tx-parse makes of the session: its info and each message.
    if (dbSession(p) !== null) return 1 + rowOf(p).messages;
    let n = 0;
    for (const _ of exportFileUnits(p)) n++;
    return n;
  },
  firstPrompt(p, _size, max) {
    const s = dbSession(p);
    let text: string | null = null;
    if (s === null) {
      for (const unit of exportFileUnits(p)) {
        const v = unit.value;
        if (isMessageWithParts(v) && v.info.role === 'user') {
          text = typedTexts(v).join('\n');
          break;
        }
      }
    } else {
      const engine = localEngine(s.db, { readonly: true });
      const rows = engine?.query(firstPromptQuery(s.id)) ?? [];
      text = rows.length > 0 ? rows.map((r) => String(r.text ?? '')).join('\n') : null;
    }
    return text === null ? null : text.trim().slice(0, max);
  },
  current(root, cwd, windowMinutes, onProblem) {
    const mine = [...walk(root, onProblem ?? (() => {}))].filter((f) => (dbSession(f.path) ? rowOf(f.path).directory : scanFile(f.path).cwd) === cwd);
    mine.sort((a, b) => b.stat.mtime.getTime() - a.stat.mtime.getTime());
    if (mine.length === 0) return [];
    const newest = mine[0].stat.mtime.getTime();
    return mine.filter((f) => newest - f.stat.mtime.getTime() <= windowMinutes * 60_000);
  },
  countSubagents: (p) => (dbSession(p) === null ? null : rowOf(p).children),
  subagentFiles: () => [],
  installTarget: null,
  resumeCommand: (id) => `opencode --session ${id}`,
  storeId: sessionIdFor,
  read(found) {
    const s = dbSession(found);
    if (s === null) return null;
    const engine = localEngine(s.db, { readonly: true });
    if (engine === null) throw new Error('no SQLite on this machine (node:sqlite, Node 22.5 and later, or the sqlite3 command)');
    const lines = sessionLines(engine, s.id);
    if (lines === null) throw new Error(`no session ${s.id} in ${s.db}`);
    // The document `opencode export` prints, which tx-parse reads as the session's lines.
    return exportDocumentOf(lines);
  },
  subagents: () => [],
  pluginRegistryPath: () => null,
  readPlugins: async () => {},
};
