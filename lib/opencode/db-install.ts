// tx-native --install for OpenCode: sessions written into the client's database in one
// SQL transaction (db-sql.ts insertSessionScript), through the SQLite this machine has.
// All the sessions of a run go in one script: all are written, or none. A session's
// folder becomes the one it is resumed in (the client resumes a session only there), and
// its project the global one (the client's project for a folder outside a git
// repository). The client must have made its database first: its tables are its own.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { insertSessionScript, sessionPlacedIn } from './db-sql.js';
import { isMessageWithParts, isSessionInfo } from './detect.js';
import { DB_NAME } from './ls-store.js';
import type { MessageWithParts, SessionInfo } from './shape.js';
import { localEngine } from './sqlite-engines.js';

/** One session to install: its lines (info first) and the folder it is resumed in. */
export interface DatabaseSession {
  lines: object[];
  cwd: string;
}

/** Why a session could not be installed: said to the user as it is. */
export class InstallRefused extends Error {}

/** Write sessions into the database of a data folder, in one transaction; returns their ids. */
export function installSessions(dataDir: string, sessions: DatabaseSession[], now = Date.now()): string[] {
  const db = path.join(dataDir, DB_NAME);
  if (!existsSync(db)) throw new InstallRefused(`${db}: no OpenCode database (start opencode once to make it)`);
  const engine = localEngine(db);
  if (engine === null || engine.run === null) throw new InstallRefused('no SQLite on this machine (node:sqlite, Node 22.5 and later, or the sqlite3 command): write it with tx-native --harness opencode > FILE (an export document) and run opencode import FILE');
  const scripts: string[] = [];
  const ids: string[] = [];
  for (const s of sessions) {
    const [info, ...rest] = s.lines;
    if (!isSessionInfo(info)) throw new InstallRefused('a session without its info line');
    const messages = rest.filter(isMessageWithParts) as MessageWithParts[];
    const placed: SessionInfo = sessionPlacedIn(info, s.cwd);
    // Updated when its last message was: the client lists sessions newest first by it.
    let updated = placed.time.updated;
    for (const m of messages) updated = Math.max(updated, m.info.time?.completed ?? 0, m.info.time?.created ?? 0);
    placed.time = { ...placed.time, updated };
    const script = insertSessionScript(placed, messages, { projectID: 'global', now });
    // One transaction around every session: the first script's BEGIN and the last's COMMIT.
    scripts.push(script);
    ids.push(info.id);
  }
  engine.run(joinTransactions(scripts));
  return ids;
}

/** Scripts of one transaction each, made one transaction. */
function joinTransactions(scripts: string[]): string {
  return scripts
    .map((s, i) => {
      let out = s;
      if (i > 0) out = out.replace('BEGIN IMMEDIATE;\n', '');
      if (i < scripts.length - 1) out = out.replace(/COMMIT;\n$/, '');
      return out;
    })
    .join('');
}
