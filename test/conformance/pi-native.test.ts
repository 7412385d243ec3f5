/**
 * pi's writer against the real pi client: every recorded session and hand-written file of
 * fixtures/pi, converted to Common under --active and written back as a pi session file
 * (lib/pi, called directly until the registry wires pi into tx-native), makes `pi -p --session FILE` send what the original
 * makes it send: the same user texts, assistant texts, thinking, tool calls and results,
 * in the same messages. The file is written for the mock's provider and model, as
 * tx-native would be told to for the model a person resumes with.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { CommonToPi } from '../../lib/pi/from-common.js';
import { conformanceSkip } from '../harness/index.js';
import { PI_PROVIDER, recordedPiSessions, resumeSession } from '../harness/pi/index.js';
import { pool, repo } from '../helpers.js';
import { piCommonOf } from '../pi/convert.js';
import { PI_PROMPT, clientConversation, essentials } from './pi-compare.js';

const skip = conformanceSkip();
const handWritten = readdirSync(repo('fixtures', 'pi'))
  .filter((f) => f.endsWith('.jsonl'))
  .sort()
  .map((f) => ({ scenario: 'fixtures/pi', file: repo('fixtures', 'pi', f) }));
const sessions = [...recordedPiSessions(), ...handWritten];
const SESSION = '0198f3a0-0000-7000-8000-00000000c0de';

/** Write the Common of `file` back as a pi session file in a scratch folder (its cwd beside it); returns the file and the writer's warnings. */
function rewrite(file: string, scratch: string): { file: string; warnings: string[] } {
  const { session, messages } = piCommonOf(file, true);
  const cwd = path.join(scratch, 'work');
  mkdirSync(cwd, { recursive: true });
  const writer = new CommonToPi(session, { sessionId: SESSION, cwd, modelProvider: PI_PROVIDER });
  const lines: object[] = [];
  for (const m of messages) lines.push(...writer.message(m));
  lines.push(...writer.finish());
  const out = path.join(scratch, `2026-01-01T00-00-00-000Z_${SESSION}.jsonl`);
  writeFileSync(out, lines.map((l) => JSON.stringify(l) + '\n').join(''));
  return { file: out, warnings: writer.warnings };
}

t.test('Common written back as a pi session resumes with the same conversation', { skip }, async (t) => {
  t.ok(sessions.length > 0, 'there are recorded sessions to write back');
  const scratch = mkdtempSync(path.join(tmpdir(), 'txcript-pi-native-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const rewritten = sessions.map((s, i) => rewrite(s.file, mkdtempSync(path.join(scratch, `${i}-`))));
  const before = await pool(sessions, 2, (s) => resumeSession(s.file, { prompt: PI_PROMPT }));
  const after = await pool(rewritten, 2, (r) => resumeSession(r.file, { prompt: PI_PROMPT }));
  sessions.forEach((s, i) => {
    t.test(`${s.scenario}/${path.basename(s.file)}`, async (t) => {
      const a = before[i]!;
      const b = after[i]!;
      t.same(rewritten[i]!.warnings, [], 'the writer left nothing out');
      if (!a.found) return t.fail(`the client did not load the recorded session: ${a.output.slice(0, 400)}`);
      if (!b.found) return t.fail(`the client did not load the rewritten session: ${b.output.slice(0, 600)}`);
      const original = clientConversation(a.messages);
      const again = clientConversation(b.messages);
      t.same(essentials(again), essentials(original), 'the same user texts, assistant texts, tool calls and results, in order');
      t.equal(again.length, original.length, 'as many messages');
      for (let k = 0; k < Math.max(again.length, original.length); k++) if (!t.same(again[k], original[k], `message ${k + 1} (${original[k]?.role ?? again[k]?.role})`)) break;
    });
  });
});
