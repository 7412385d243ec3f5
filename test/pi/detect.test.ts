// Recognising pi's lines: every line the real client wrote (and the hand-written files) is
// pi's, no line of Claude Code or Codex is, and neither is a line of txcript's own streams.
// Claude Code's codec takes any object no other claims, so pi's test is the one that must
// be specific; Codex's early bare `message` items share pi's entry type, so pi is asked first.
import t from 'tap';
import { detectHarness } from '../../lib/codecs.js';
import { isCodexLine } from '../../lib/codex/detect.js';
import { isPiLine } from '../../lib/pi/detect.js';
import { corpusDir } from '../helpers.js';
import { objectsOf, otherHarnessFiles, piFiles } from './lines.js';

t.test('every line of every pi session file is recognised as pi', (t) => {
  const lines = objectsOf(piFiles());
  t.ok(lines.length > 100, `the pi fixtures hold lines (${lines.length})`);
  const missed = lines.filter((l) => !isPiLine(l.line)).map((l) => l.where);
  t.same(missed, [], 'none missed');
  t.end();
});

t.test('no line of Claude Code or Codex is taken for pi', (t) => {
  if (!corpusDir('claude-code') || !corpusDir('codex')) t.comment('the shared corpus is not beside this checkout: only the recorded files are swept');
  const { claude, codex } = otherHarnessFiles();
  const others = objectsOf([...claude, ...codex]);
  t.ok(others.length > 500, `there are other harnesses' lines to sweep (${others.length})`);
  t.same(others.filter((l) => isPiLine(l.line)).map((l) => l.where), [], 'none taken');
  t.end();
});

t.test("the registry's detection (pi asked before Codex) gives every recorded and corpus line the harness that wrote it", (t) => {
  const { claude, codex } = otherHarnessFiles();
  t.same(objectsOf(codex).filter((l) => detectHarness(l.line) !== 'codex').map((l) => l.where), [], 'Codex lines stay Codex');
  t.same(objectsOf(claude).filter((l) => detectHarness(l.line) !== 'claude-code').map((l) => l.where), [], 'Claude Code lines stay Claude Code');
  t.same(objectsOf(piFiles()).filter((l) => detectHarness(l.line) !== 'pi').map((l) => l.where), [], 'pi lines are pi');
  t.end();
});

t.test("Codex's test alone takes pi's message entries, so pi must be asked before Codex", (t) => {
  const messages = objectsOf(piFiles()).filter((l) => l.line.type === 'message');
  t.ok(messages.length > 0 && messages.every((l) => isCodexLine(l.line)), 'an early rollout bare item and a pi entry share type "message"');
  t.end();
});

t.test('the shapes pi tells apart', (t) => {
  const ts = '2026-03-01T10:00:00.000Z';
  t.ok(isPiLine({ type: 'session', version: 3, id: '0195a000-0000-7000-8000-000000000001', timestamp: ts, cwd: '/w' }), 'the header');
  t.ok(isPiLine({ type: 'session', id: 'x', timestamp: ts, cwd: '/w' }), 'a version 1 header (no version)');
  t.ok(isPiLine({ type: 'message', timestamp: ts, message: { role: 'user', content: 'hi' } }), 'a version 1 entry (no id)');
  t.ok(isPiLine({ type: 'later_entry', id: 'ab12cd34', parentId: null, timestamp: ts }), 'an entry type of a later client, by its links');
  t.notOk(isPiLine({ type: 'later_entry', timestamp: ts }), 'an unknown type without the links');
  t.notOk(isPiLine({ type: 'message', id: 'ab12cd34', parentId: null, message: { role: 'user', content: 'hi' } }), 'an entry without a timestamp');
  t.notOk(isPiLine({ type: 'message', id: 'ab12cd34', parentId: null, timestamp: ts, message: 'hi' }), 'a message entry whose message is no object');
  t.notOk(isPiLine({ type: 'custom', customType: 'x', id: 'ab12cd34', parentId: null, timestamp: ts, uuid: 'u' }), 'a line with a Claude Code uuid');
  t.notOk(isPiLine({ type: 'compaction', id: 'ab12cd34', parentId: null, timestamp: ts, summary: 's', firstKeptEntryId: 'x', payload: {} }), 'a line with a Codex payload');
  t.notOk(isPiLine({ type: 'summary', summary: 's', leafUuid: 'u' }), "Claude Code's summary line");
  t.notOk(isPiLine({ type: 'session', harness: 'pi', id: 's', cwd: '/w' }), 'the session line of a Common stream');
  t.notOk(isPiLine({ type: 'message', id: 'm', role: 'user', timestamp: ts, content: [] }), 'a message line of a Common stream');
  t.notOk(isPiLine({ harness: 'pi', n: 1, kind: 'meta', line: {} }), 'a record');
  t.notOk(isPiLine([{ type: 'session', id: 'x' }]), 'an array');
  t.notOk(isPiLine({ type: 'model_change', id: 'ab12cd34', parentId: null, timestamp: ts }), 'a known type without its fields');
  t.end();
});
