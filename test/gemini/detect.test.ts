// Gemini detection is specific: every line the real client wrote is a Gemini line, and no
// line of a Claude Code or Codex file is (Claude Code takes any object no other harness
// claims, so a Gemini test that accepted too much would steal its lines); Codex's
// detection does not claim Gemini lines either, so the two may be asked in any order.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { isCodexLine } from '../../lib/codex/detect.js';
import { isGeminiLine, isMessageRecord, isMetadataLine, isRewindLine, isSetLine } from '../../lib/gemini/detect.js';
import { recordedFixtures } from '../harness/index.js';
import { recordedCodexRollouts } from '../harness/codex/index.js';
import { recordedGeminiChats } from '../harness/gemini/index.js';
import { corpusFiles, repo } from '../helpers.js';

function objects(file: string): unknown[] {
  const out: unknown[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // not a JSON line: no harness claims it
    }
  }
  return out;
}

t.test('every line of every recorded Gemini chat file is a Gemini line, and none is a Codex line', (t) => {
  const chats = recordedGeminiChats();
  t.ok(chats.length > 0, 'there are recordings');
  let n = 0;
  for (const c of chats) {
    for (const line of objects(c.file)) {
      n++;
      if (!isGeminiLine(line)) t.fail(`${c.scenario}: not recognised: ${JSON.stringify(line).slice(0, 120)}`);
      if (isCodexLine(line)) t.fail(`${c.scenario}: taken for Codex: ${JSON.stringify(line).slice(0, 120)}`);
    }
  }
  t.ok(n > 50, `${n} lines checked`);
  t.end();
});

t.test('no line of a Claude Code or Codex file is taken for a Gemini line', (t) => {
  const classify = readdirSync(repo('fixtures', 'classify'))
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => repo('fixtures', 'classify', f));
  const files = [...classify, ...recordedFixtures().map((f) => f.file), ...recordedCodexRollouts().map((r) => r.file), ...corpusFiles('claude-code'), ...corpusFiles('codex')];
  if (corpusFiles('claude-code').length === 0) t.comment('the shared corpus is absent beside this checkout: fixtures only');
  let n = 0;
  for (const f of files) {
    for (const line of objects(f)) {
      n++;
      if (isGeminiLine(line)) t.fail(`${path.basename(f)}: taken for Gemini: ${JSON.stringify(line).slice(0, 160)}`);
    }
  }
  t.ok(n > 500, `${n} lines checked`);
  t.end();
});

t.test('each shape on its own', (t) => {
  t.ok(isMetadataLine({ sessionId: 's', projectHash: 'h', startTime: 't', kind: 'main' }), 'the metadata line');
  t.notOk(isMetadataLine({ sessionId: 's', projectHash: 'h', type: 'user' }), 'not with a type');
  t.ok(isSetLine({ $set: { lastUpdated: 't' } }), 'an update');
  t.notOk(isSetLine({ $set: 'x' }), 'not when $set is no object');
  t.ok(isRewindLine({ $rewindTo: 'id' }), 'a rewind');
  t.ok(isMessageRecord({ id: 'a', timestamp: 't', type: 'gemini', content: '' }), 'a gemini record');
  t.ok(isMessageRecord({ id: 'a', timestamp: 't', type: 'info', content: 'Request cancelled.' }), 'an info record');
  t.ok(isMessageRecord({ id: 'a', timestamp: 't', type: 'later-kind', content: [] }), 'a record of a type a later client may write');
  t.notOk(isMessageRecord({ id: 'a', type: 'user', content: 'x', uuid: 'u' }), "not with Claude Code's uuid");
  t.notOk(isMessageRecord({ id: 'a', type: 'user', message: { content: 'x' } }), "not with Claude Code's message");
  t.notOk(isMessageRecord({ id: 'a', type: 'user', content: 'x', sessionId: 's' }), 'not with a session id (Claude Code names its session on every line)');
  t.notOk(isMessageRecord({ id: 'a', type: 'message', payload: {} }), "not with Codex's payload");
  t.notOk(isGeminiLine({ type: 'summary', summary: 'x', leafUuid: 'u' }), 'a Claude Code summary line is not');
  t.notOk(isGeminiLine([]), 'an array is not');
  t.end();
});
