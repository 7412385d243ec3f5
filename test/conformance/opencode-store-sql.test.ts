/**
 * txcript's own access to the real client's store.
 * - Its transaction is all-or-nothing: a failing statement leaves nothing, and a session it
 *   wrote is what `opencode export` prints, byte for byte, the document it was written from.
 * - Its reading of the database (SQL through the sqlite3 command or node:sqlite, and the
 *   client's own `opencode db` for three sessions: it starts the client for each query)
 *   gives the lines of `opencode export`, byte for byte once laid out.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { insertSessionScript } from '../../lib/opencode/db-sql.js';
import { exportDocumentOf, exportTextUnits } from '../../lib/opencode/export-file.js';
import type { MessageWithParts, SessionInfo } from '../../lib/opencode/shape.js';
import { localEngine, opencodeDbCommand, type SqlEngine } from '../../lib/opencode/sqlite-engines.js';
import { sessionLines } from '../../lib/opencode/store.js';
import { conformanceSkip } from '../harness/index.js';
import { opencodeBinary, opencodeEnv, recordedOpencodeExports, scratchStore, type ScratchStore } from '../harness/opencode/index.js';

const skip = conformanceSkip();
// Every session starts the client two or three times (1-3 s each, far more on a loaded
// machine): the file may run past tap's usual 600 s.
t.setTimeout(60 * 60 * 1000);

const docOf = (file: string) => exportTextUnits(readFileSync(file, 'utf8')).units.map((u) => u.value) as [SessionInfo, ...MessageWithParts[]];

/** Counts of a session's rows, through the client's own SQL shell. */
async function rows(store: ScratchStore, id: string): Promise<{ s: number; m: number; p: number }> {
  const r = await store.run(['db', '--format', 'json', `SELECT (SELECT count(*) FROM session WHERE id = '${id}') AS s, (SELECT count(*) FROM message WHERE session_id = '${id}') AS m, (SELECT count(*) FROM part WHERE session_id = '${id}') AS p`]);
  return (JSON.parse(r.stdout) as { s: number; m: number; p: number }[])[0]!;
}

/** A store the client has made (its tables and the global project). */
async function madeStore(t: { teardown(fn: () => void): void; equal(a: unknown, b: unknown, msg: string): unknown }): Promise<ScratchStore> {
  const store = scratchStore();
  t.teardown(() => store.dispose());
  const r = await store.run(['session', 'list']);
  t.equal(r.code, 0, 'the client made its store');
  return store;
}


t.test("txcript's transaction on the client's store: a failure leaves nothing; a success is what opencode export prints, byte for byte", { skip }, async (t) => {
  const store = await madeStore(t);
  const engine = localEngine(store.db);
  if (!engine?.run) {
    t.pass('no SQLite on this machine to write with (node:sqlite or the sqlite3 command)');
    return;
  }
  for (const { scenario, file } of recordedOpencodeExports()) {
    const [info, ...messages] = docOf(file);
    const last = messages.at(-1)!;
    const broken = [...messages.slice(0, -1), { ...last, parts: [...last.parts, last.parts[0]!] }];
    t.throws(() => engine.run!(insertSessionScript(info, broken, { projectID: 'global', now: Date.now() })), `${scenario}: a part id used twice fails the script`);
    t.same(await rows(store, info.id), { s: 0, m: 0, p: 0 }, `${scenario}: and nothing of the session is in the store`);
    engine.run(insertSessionScript(info, messages, { projectID: 'global', now: Date.now() }));
    const r = await store.run(['export', info.id]);
    t.equal(r.stdout, readFileSync(file, 'utf8'), `${scenario}: written whole, exported as the recorded document`);
  }
});
t.test("reading the client's store gives the lines of opencode export, by the sqlite3 command (or node:sqlite) and by the client's own opencode db", { skip }, async (t) => {
  const store = await madeStore(t);
  const local = localEngine(store.db, { readonly: true });
  const client = opencodeDbCommand(opencodeBinary(), opencodeEnv(store.home));
  // The client's own shell starts the client for each query: three sessions are enough for it.
  const byClient = new Set(['tools', 'image', 'compaction-tail']);
  for (const { scenario, file } of recordedOpencodeExports()) {
    const r = await store.run(['import', file]);
    t.match(r.stdout, /Imported session/, `${scenario}: imported`);
    const [info] = docOf(file);
    const exported = (await store.run(['export', info.id])).stdout;
    const engines: SqlEngine[] = [...(local ? [local] : []), ...(byClient.has(scenario) ? [client] : [])];
    for (const engine of engines) {
      const lines = sessionLines(engine, info.id);
      t.equal(lines && [...exportDocumentOf(lines)].join(''), exported, `${scenario}: read by ${engine.name}`);
    }
  }
});
