// The store's rows and the lines, both ways; the SQL literals; and the one transaction
// that writes a session: whole, or (when a statement fails) nothing at all. The last
// runs on whatever SQLite this machine has (node:sqlite or the sqlite3 command) against
// tables made here with the client's columns; the conformance tests run it on the
// client's own database.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { messageOfRows, messageRows, sessionOfRow, sessionRow } from '../../lib/opencode/db-rows.js';
import { checkedSessionId, insertSessionScript, literal, sessionPlacedIn } from '../../lib/opencode/db-sql.js';
import type { MessageWithParts, SessionInfo } from '../../lib/opencode/shape.js';
import { localEngine } from '../../lib/opencode/sqlite-engines.js';
import { listSessions, opencodeDbPath, sessionLines } from '../../lib/opencode/store.js';
import { recordedExports, recordedLines, SCHEMA } from './build.js';

t.test('every recorded session goes to rows and back to the same lines, key for key', (t) => {
  for (const { scenario, file } of recordedExports()) {
    const [info, ...messages] = recordedLines(file) as [SessionInfo, ...MessageWithParts[]];
    // Rows come back from a driver with JSON columns as text, as sessionRow writes them.
    t.equal(JSON.stringify(sessionOfRow(sessionRow(info, info.projectID))), JSON.stringify(info), `${scenario}: the session`);
    for (const m of messages) {
      const rows = messageRows(m, info.id);
      t.equal(JSON.stringify(messageOfRows(rows.message, rows.parts)), JSON.stringify(m), `${scenario}: ${m.info.id}`);
    }
  }
  t.end();
});

t.test('SQL literals: quotes doubled, NUL through a blob, numbers and NULL as they are', (t) => {
  t.equal(literal("it's"), "'it''s'");
  t.equal(literal('a\0b'), "CAST(X'610062' AS TEXT)");
  t.equal(literal(12.5), '12.5');
  t.equal(literal(null), 'NULL');
  t.throws(() => literal(Infinity));
  t.equal(checkedSessionId('ses_abc123'), 'ses_abc123');
  t.throws(() => checkedSessionId("ses_x' OR 1=1 --"), /not an OpenCode session id/);
  t.end();
});

t.test('a session placed in a folder gets its directory, and its path relative to the worktree, as import gives them', (t) => {
  const info = recordedLines(recordedExports()[0]!.file)[0] as SessionInfo;
  t.match(sessionPlacedIn(info, '/home/u/app'), { id: info.id, directory: '/home/u/app', path: 'home/u/app' });
  t.match(sessionPlacedIn(info, '/repo/sub', '/repo'), { directory: '/repo/sub', path: 'sub' });
  t.equal(info.directory.startsWith('/tmp/'), true, 'the original is left as it was');
  t.end();
});

t.test("the store's place follows the client: XDG_DATA_HOME, else ~/.local/share; OPENCODE_DB absolute or under the data folder", (t) => {
  t.equal(opencodeDbPath({ HOME: '/h' }), '/h/.local/share/opencode/opencode.db');
  t.equal(opencodeDbPath({ HOME: '/h', XDG_DATA_HOME: '/x' }), '/x/opencode/opencode.db');
  t.equal(opencodeDbPath({ HOME: '/h', XDG_DATA_HOME: 'relative' }), '/h/.local/share/opencode/opencode.db', 'a relative XDG_DATA_HOME is ignored, as the XDG spec says');
  t.equal(opencodeDbPath({ HOME: '/h', OPENCODE_DB: 'other.db' }), '/h/.local/share/opencode/other.db');
  t.equal(opencodeDbPath({ HOME: '/h', OPENCODE_DB: '/abs/x.db' }), '/abs/x.db');
  t.end();
});


t.test('the write is one transaction: a session is in the store whole, or not at all', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'txcript-opencode-db-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = path.join(dir, 'opencode.db');
  const engine = localEngine(db);
  if (!engine?.run) {
    t.pass('no SQLite on this machine (node:sqlite or the sqlite3 command): the conformance tests write with the client');
    return;
  }
  engine.run(SCHEMA);
  const doc = recordedExports().find((d) => d.scenario === 'tools')!;
  const [info, ...messages] = recordedLines(doc.file) as [SessionInfo, ...MessageWithParts[]];

  // A part id used twice: the last statement fails, after every other row was inserted.
  const last = messages.at(-1)!;
  const broken = [...messages.slice(0, -1), { ...last, parts: [...last.parts, { ...last.parts[0]! }] }];
  t.throws(() => engine.run!(insertSessionScript(info, broken, { projectID: 'global', now: 1 })), /UNIQUE|constraint/i, 'the script fails');
  t.same(engine.query('SELECT (SELECT count(*) FROM session) AS s, (SELECT count(*) FROM message) AS m, (SELECT count(*) FROM part) AS p, (SELECT count(*) FROM project) AS pr'), [{ s: 0, m: 0, p: 0, pr: 0 }], 'and nothing of it is in the store');

  engine.run(insertSessionScript(info, messages, { projectID: 'global', now: 1 }));
  t.same(sessionLines(engine, info.id), [info, ...messages], 'the whole session reads back as the same lines');
  t.match(listSessions(engine), [{ id: info.id, title: info.title, messages: messages.length }], 'and is listed');
  t.throws(() => engine.run!(insertSessionScript(info, messages, { projectID: 'global', now: 2 })), /UNIQUE|constraint/i, 'a session already there is not written over');
  t.equal(sessionLines(engine, 'ses_nosuchsession'), null, 'an unknown id reads as none');
});
