/**
 * tx-native --harness pi against the real pi client: every pi session the tests hold
 * (recorded, hand-written, public) goes `tx-parse | tx-common --active | tx-native
 * --harness pi --install` into the agent directory of a scratch HOME, and `pi -p --session
 * ID`, run in the working directory it was installed for, finds it and sends what the
 * original makes it send: the same user texts, assistant texts, thinking, tool calls and
 * results, in the same messages. The agent directory's models.json lists the mock's model
 * under its provider, so the writer names that provider for replies of that model (the
 * replies of the public sessions, of other models, name the provider their model
 * suggests, and are sent with their thinking as text either way).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import { conformanceSkip } from '../harness/index.js';
import { PI_MODEL, PI_PROVIDER, piSessions, resumeInstalled, resumeSession, writePiConfig, type PiResumeResult } from '../harness/pi/index.js';
import { filesUnder, pool, runTool } from '../helpers.js';
import { PI_PROMPT, clientConversation, essentials, type ApiMessage } from './pi-compare.js';

const skip = conformanceSkip();
const sessions = piSessions();
const SESSION = '0198f3a0-0000-7000-8000-00000000c0de';

/** What writing a session back and resuming it gave. */
interface Rewritten {
  status: number | null;
  stderr: string;
  /** What tx-native said when it first refused the session as too large, with nothing installed. */
  refused: string | null;
  installed: string[];
  /** The provider/model each reply of the written file names, each once. */
  sources: string[];
  resumed: PiResumeResult | null;
}

/** The provider/model pairs the replies of a written file name. */
function replySources(file: string): string[] {
  const found = new Set<string>();
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (!text) continue;
    const l = JSON.parse(text);
    if (l.type === 'message' && l.message?.role === 'assistant') found.add(`${l.message.provider}/${l.message.model}`);
  }
  return [...found];
}

/** A refusal because the conversation is larger than the target's window. */
const TOO_LARGE = /is about \d+ tokens, more than the 128000-token context window of pi/;

/**
 * Step "a second result for one call": pi answers a call before a failed reply with "No
 * result provided" and sends the result that comes after it too (fixtures/pi/failed-reply);
 * tx-native keeps one result per call (tx-native(1), Continuable) and the later one as the
 * labelled text of a result whose call is gone, which pi sends as a user message of its
 * own after the results.
 */
function secondResultsAsText(messages: ApiMessage[]): ApiMessage[] {
  const answered = new Set<string>();
  const out: ApiMessage[] = [];
  for (const m of messages) {
    if (m.role !== 'user') {
      out.push(m);
      continue;
    }
    const kept: any[] = [];
    const texts: any[] = [];
    for (const b of m.content) {
      if (b.type !== 'tool_result') kept.push(b);
      else if (!answered.has(b.tool_use_id)) {
        answered.add(b.tool_use_id);
        kept.push(b);
      } else {
        const label = `[result of tool call ${b.tool_use_id}, whose call is not in this conversation${b.is_error ? '; an error' : ''}]`;
        texts.push({ type: 'text', text: typeof b.content === 'string' ? `${label}\n${b.content}` : label });
      }
    }
    out.push({ role: 'user', content: kept });
    if (texts.length) out.push({ role: 'user', content: texts });
  }
  return out;
}

/** Through Common and back into a scratch store, then `pi --session ID` there. */
async function rewriteAndResume(file: string): Promise<Rewritten> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'txcript-pi-native-'));
  try {
    const home = path.join(scratch, 'home');
    const cwd = path.join(scratch, 'work');
    mkdirSync(cwd, { recursive: true });
    const agentDir = writePiConfig(home, 'http://127.0.0.1:9');
    const parsed = await runTool(parseTool, [file], []);
    const common = await runTool(commonTool, ['--active'], [parsed.stdout]);
    const args = ['--harness', 'pi', '--install', '--config-dir', agentDir, '--cwd', cwd, '--session-id', SESSION];
    let refused: string | null = null;
    let native = await runTool(nativeTool, args, [common.stdout]);
    if (native.status === 1 && TOO_LARGE.test(native.stderr) && filesUnder(path.join(agentDir, 'sessions')).length === 0) {
      // A real session larger than pi's window for a model it does not know: refused, nothing installed; told its model's larger window, it is compared all the same.
      refused = native.stderr;
      native = await runTool(nativeTool, [...args, '--context-window', '10000000'], [common.stdout]);
    }
    const installed = filesUnder(path.join(agentDir, 'sessions'));
    const out: Rewritten = { status: native.status, stderr: native.stderr, refused, installed, sources: installed.flatMap(replySources), resumed: null };
    if (native.status === 0 && installed.length === 1) out.resumed = await resumeInstalled({ home, cwd, id: SESSION }, { prompt: PI_PROMPT });
    return out;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

t.test('Common written back as a pi session and installed resumes with the same conversation', { skip }, async (t) => {
  t.ok(sessions.length >= 18, 'there are pi sessions to write back');
  const before = await pool(sessions, 2, (s) => resumeSession(s.file, { prompt: PI_PROMPT }));
  const after = await pool(sessions, 2, (s) => rewriteAndResume(s.file));
  sessions.forEach((s, i) => {
    t.test(`${s.scenario}/${path.basename(s.file)}`, async (t) => {
      const a = before[i]!;
      const b = after[i]!;
      if (b.refused) t.pass(`refused at first, saying why, nothing installed: ${b.refused.trim().split('\n').pop()}`);
      t.equal(b.status, 0, `installed ${b.stderr.trim().split('\n')[0] ?? ''}`);
      t.notMatch(b.stderr, /left out/, 'the writer left nothing out');
      t.equal(b.installed.length, 1, 'one session file in the store');
      for (const source of b.sources) if (source.endsWith(`/${PI_MODEL}`)) t.equal(source, `${PI_PROVIDER}/${PI_MODEL}`, "the mock's model names the provider models.json lists it under");
      if (!a.found) return t.fail(`the client did not load the original session: ${a.output.slice(0, 400)}`);
      if (!b.resumed || !b.resumed.found) return t.fail(`pi --session did not load the installed session: ${b.resumed && !b.resumed.found ? b.resumed.output.slice(0, 600) : ''}`);
      const original = secondResultsAsText(clientConversation(a.messages));
      const again = clientConversation(b.resumed.messages);
      t.same(essentials(again), essentials(original), 'the same user texts, assistant texts, tool calls and results, in order');
      t.equal(again.length, original.length, 'as many messages');
      for (let k = 0; k < Math.max(again.length, original.length); k++) if (!t.same(again[k], original[k], `message ${k + 1} (${original[k]?.role ?? again[k]?.role})`)) break;
    });
  });
});
