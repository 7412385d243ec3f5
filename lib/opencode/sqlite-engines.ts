// What runs SQL against OpenCode's store. Node 20 has no SQLite of its own, and a native
// addon (better-sqlite3) is a build on the user's machine, so txcript carries none: it
// uses SQLite where the machine already has one. In order: node:sqlite (Node 22.5 and
// later, in process), the sqlite3 command, and for reading only the client itself
// (`opencode db --format json SQL`, its own bundled SQLite). Each reads a database in
// WAL mode as SQLite does, the write-ahead log included.
import { spawnSync } from 'node:child_process';
import type { Row } from './db-rows.js';

/** One way of running SQL against a database file. */
export interface SqlEngine {
  /** What it is, for messages. */
  name: string;
  /** The rows of one query. */
  query(sql: string): Row[];
  /** Run a script of statements, stopping at the first error (which is thrown); null when this engine only reads. */
  run: ((script: string) => void) | null;
}

/** The sqlite3 command on a database (`readonly`: opened so that nothing can be written). */
export function sqliteCommand(db: string, opts: { readonly?: boolean; bin?: string } = {}): SqlEngine | null {
  const bin = opts.bin ?? 'sqlite3';
  const probe = spawnSync(bin, ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return null;
  const base = opts.readonly ? ['-readonly'] : [];
  return {
    name: `sqlite3 ${probe.stdout.trim().split(' ')[0]}`,
    query(sql) {
      const r = spawnSync(bin, [...base, '-json', '-bail', db], { input: sql, encoding: 'utf8', maxBuffer: 1 << 30 });
      if (r.status !== 0) throw new Error(`sqlite3: ${r.stderr.trim() || `exit ${r.status}`}`);
      return r.stdout.trim() === '' ? [] : (JSON.parse(r.stdout) as Row[]);
    },
    run: opts.readonly
      ? null
      : (script) => {
          const r = spawnSync(bin, ['-bail', db], { input: script, encoding: 'utf8', maxBuffer: 1 << 30 });
          if (r.status !== 0) throw new Error(`sqlite3: ${r.stderr.trim() || `exit ${r.status}`}`);
        },
  };
}

/** node:sqlite on a database, when this Node has it (22.5 and later); null otherwise. */
export function nodeSqlite(db: string, opts: { readonly?: boolean } = {}): SqlEngine | null {
  const getBuiltin = (process as unknown as { getBuiltinModule?: (id: string) => any }).getBuiltinModule;
  let mod: any;
  try {
    mod = getBuiltin?.('node:sqlite');
  } catch {
    mod = undefined;
  }
  if (!mod?.DatabaseSync) return null;
  return {
    name: `node:sqlite (Node ${process.versions.node})`,
    query(sql) {
      const conn = new mod.DatabaseSync(db, { readOnly: opts.readonly === true });
      try {
        return conn.prepare(sql).all() as Row[];
      } finally {
        conn.close();
      }
    },
    run: opts.readonly
      ? null
      : (script) => {
          const conn = new mod.DatabaseSync(db);
          try {
            conn.exec(script);
          } catch (err) {
            // exec stops at the failing statement; what it began is undone.
            if (conn.isTransaction) conn.exec('ROLLBACK');
            throw err;
          } finally {
            conn.close();
          }
        },
  };
}

/** The client's own SQL shell (`opencode db --format json`), for reading: one statement a run. */
export function opencodeDbCommand(bin: string, env: NodeJS.ProcessEnv): SqlEngine {
  return {
    name: 'opencode db',
    query(sql) {
      const r = spawnSync(bin, ['db', '--format', 'json', sql], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
      if (r.status !== 0) throw new Error(`opencode db: ${r.stderr.trim() || `exit ${r.status}`}`);
      return r.stdout.trim() === '' ? [] : (JSON.parse(r.stdout) as Row[]);
    },
    run: null,
  };
}

/** The first engine this machine has for a database: node:sqlite, then the sqlite3 command; null when neither. */
export function localEngine(db: string, opts: { readonly?: boolean } = {}): SqlEngine | null {
  return nodeSqlite(db, opts) ?? sqliteCommand(db, opts);
}
