/**
 * The real OpenCode client as oracle: put a session into a fresh scratch store, run
 * `opencode run --session ID PROMPT` against the mock, and return the `messages` of its
 * first main request (the title request, when there is one, is routed apart): the
 * conversation the client rebuilt from the store, followed by the new prompt.
 *
 * A session gets into the store either the client's own way (`opencode import FILE` of an
 * export document) or by txcript's own transaction on the database (db-sql.ts, run by
 * whatever SQLite the machine has), so the second is judged by the same client.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { insertSessionScript, sessionPlacedIn } from '../../../lib/opencode/db-sql.js';
import { exportTextUnits } from '../../../lib/opencode/export-file.js';
import type { MessageWithParts, SessionInfo } from '../../../lib/opencode/shape.js';
import { localEngine } from '../../../lib/opencode/sqlite-engines.js';
import type { MessagesRequest } from '../mock-api.js';
import { opencodeDirs, promptArgs, runOpencode, writeOpencodeHome } from './cli.js';
import { startOpencodeMock } from './mock.js';

/** How a session gets into the scratch store. */
export type LoadVia = 'import' | 'sql';

/** What the client made of a session. */
export type OpencodeResumeResult =
  | { found: true; messages: { role: string; content: any }[]; request: MessagesRequest; id: string; loaded: string }
  | { found: false; output: string; id: string };

/** Options for one resume. */
export interface OpencodeResumeOptions {
  /** The prompt sent after resuming (default "ping"). */
  prompt?: string;
  via?: LoadVia;
  timeoutMs?: number;
}

/** The session id of an export document's text. */
export function exportSessionId(text: string): string {
  return (JSON.parse(text) as { info: { id: string } }).info.id;
}

/** Write a session into the database of a scratch home with txcript's transaction (the store made first by the client). */
async function loadBySql(text: string, home: string, cwd: string): Promise<string> {
  // Any command that opens an instance makes the database and its tables.
  const init = await runOpencode({ args: ['session', 'list'], home, cwd });
  if (init.code !== 0) throw new Error(`opencode session list failed: ${init.stderr.slice(0, 1000)}`);
  const db = opencodeDirs(home).db;
  const engine = localEngine(db);
  if (!engine?.run) throw new Error('no SQLite on this machine to write with (node:sqlite or the sqlite3 command)');
  const { units } = exportTextUnits(text);
  const [info, ...messages] = units.map((u) => u.value);
  // As import does (and as an install must): the session lives in the folder it is resumed in.
  engine.run(insertSessionScript(sessionPlacedIn(info as SessionInfo, cwd), messages as MessageWithParts[], { projectID: 'global', now: Date.now() }));
  return `written by ${engine.name}`;
}

/** Resume an export document's session with the real client (in a scratch folder as cwd) and return the first main request's messages. */
export async function resumeExport(file: string, opts: OpencodeResumeOptions = {}): Promise<OpencodeResumeResult> {
  const text = readFileSync(file, 'utf8');
  const id = exportSessionId(text);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'txcript-opencode-oracle-'));
  const home = path.join(scratch, 'home');
  const cwd = path.join(scratch, 'work');
  mkdirSync(cwd, { recursive: true });
  const mock = await startOpencodeMock({});
  try {
    writeOpencodeHome(home, mock.url);
    let loaded: string;
    if ((opts.via ?? 'import') === 'import') {
      const copy = path.join(scratch, 'session.json');
      writeFileSync(copy, text);
      const r = await runOpencode({ args: ['import', copy], home, cwd });
      if (r.code !== 0 || !r.stdout.includes(`Imported session: ${id}`)) return { found: false, output: `import: exit ${r.code}\n${r.stdout}${r.stderr}`, id };
      loaded = r.stdout.trim();
    } else loaded = await loadBySql(text, home, cwd);
    const r = await runOpencode({ args: ['run', '--session', id, '--', ...promptArgs(opts.prompt ?? 'ping')], home, cwd, timeoutMs: opts.timeoutMs ?? 120_000 });
    const req = mock.messagesRequests('main')[0];
    if (!req?.body) return { found: false, output: `run: exit ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\n${r.stdout}${r.stderr}`, id };
    return { found: true, messages: (req.body.messages ?? []) as { role: string; content: any }[], request: req.body, id, loaded };
  } finally {
    await mock.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
