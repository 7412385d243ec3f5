// Detection: every line of every recorded OpenCode session is OpenCode's, and no line of
// a recorded Claude Code session or Codex rollout (nor of the shared corpus, when it is
// beside the checkout) is; Codex's detector does not claim OpenCode's lines either.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { isCodexLine } from '../../lib/codex/detect.js';
import { isExportDocument, isMessageWithParts, isOpencodeLine, isSessionInfo } from '../../lib/opencode/detect.js';
import { jsonlFiles } from '../harness/fixtures.js';
import { corpusFiles, repo } from '../helpers.js';
import { recordedExports, recordedLines } from './build.js';

const otherLines = (files: string[]) =>
  files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as unknown];
        } catch {
          return [];
        }
      }),
  );

t.test('every line of a recorded OpenCode session is detected, the first as the session info, the others as messages', (t) => {
  const docs = recordedExports();
  t.ok(docs.length >= 10, 'the recorded sessions are found');
  for (const { scenario, file } of docs) {
    const [info, ...messages] = recordedLines(file);
    t.ok(isExportDocument(JSON.parse(readFileSync(file, 'utf8'))), `${scenario}: the document is an export document`);
    t.ok(isSessionInfo(info) && !isMessageWithParts(info), `${scenario}: line 1 is the session info`);
    t.ok(messages.every((m) => isMessageWithParts(m) && !isSessionInfo(m)), `${scenario}: the other lines are messages`);
  }
  t.end();
});

t.test("Codex's detector claims no OpenCode line (a part of type reasoning or message would look like an early rollout item, but parts are never lines)", (t) => {
  for (const { scenario, file } of recordedExports()) t.notOk(recordedLines(file).some(isCodexLine), scenario);
  t.end();
});

t.test('no line of a recorded Claude Code session or Codex rollout, nor of the corpus, is taken for OpenCode', (t) => {
  const sources = [
    ['fixtures/recorded', jsonlFiles(repo('fixtures', 'recorded'))],
    ['fixtures/recorded-codex', jsonlFiles(repo('fixtures', 'recorded-codex'))],
    ['corpus claude-code', corpusFiles('claude-code')],
    ['corpus codex', corpusFiles('codex')],
  ] as const;
  for (const [name, files] of sources) {
    const lines = otherLines([...files]);
    if (lines.length === 0) {
      t.pass(`${name}: absent in this checkout`);
      continue;
    }
    t.equal(lines.filter(isOpencodeLine).length, 0, `${name}: none of ${lines.length} lines`);
  }
  t.end();
});

t.test('near misses are not OpenCode lines: ids without the prefix, a message without parts, a Claude line with a slug', (t) => {
  t.notOk(isOpencodeLine({ info: { id: 'abc', role: 'user' }, parts: [] }), 'an info id without msg_');
  t.notOk(isOpencodeLine({ info: { id: 'msg_1', role: 'user' } }), 'no parts array');
  t.notOk(isOpencodeLine({ info: { id: 'msg_1', role: 'system' }, parts: [] }), 'a role the client has not');
  t.notOk(isOpencodeLine({ type: 'user', uuid: 'u', sessionId: 's', slug: 'happy-otter', version: '2.1.0', timestamp: 'x' }), 'a Claude Code line (it has a slug too)');
  t.notOk(isOpencodeLine({ id: 'ses_1', slug: 's', version: '1', time: { created: 1 } }), 'a session info without a project');
  t.ok(isOpencodeLine({ info: { id: 'msg_1', role: 'assistant' }, parts: [] }), 'a message with no parts yet is one');
  t.end();
});
