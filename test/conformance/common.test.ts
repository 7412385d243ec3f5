/**
 * tx-common against the real client: for every recorded session, `tx-common --active`
 * gives, message for message and block for block, the conversation Claude Code sends
 * when it resumes that file. The differences tx-common(1) documents under DIFFERENCES
 * FROM THE CLIENT are taken out of both sides first, each by its own named step, so a
 * difference that is not documented fails the test.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { conformanceSkip, recordedFixtures, repoRoot, resumeConversation } from '../harness/index.js';
import { envelopeKind } from '../../lib/claude-code/envelope.js';
import type { Block, CommonLine, CommonMessage } from '../../lib/common.js';

const skip = conformanceSkip();
const PROMPT = 'next';
// How the client frames a prompt typed while a turn ran (a queued_command attachment); Common keeps the prompt alone.
const QUEUED = /^(?:<system-reminder>\n)?The user sent a new message while you were working:\n([\s\S]*?)\n\nThis is how Claude Code surfaces messages[\s\S]*$/;

interface ApiMessage {
  role: string;
  content: any[];
}

/** The Common stream of a file: tx-parse | tx-common --active, run as a user would. */
function commonOf(file: string): CommonMessage[] {
  const root = repoRoot();
  const parsed = spawnSync(process.execPath, [path.join(root, 'build/bin/tx-parse.js'), file], { maxBuffer: 1 << 30 });
  const common = spawnSync(process.execPath, [path.join(root, 'build/bin/tx-common.js'), '--active'], { input: parsed.stdout, maxBuffer: 1 << 30 });
  if (common.status !== 0) throw new Error(`tx-common failed: ${common.stderr}`);
  const lines = common.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CommonLine);
  return lines.filter((l): l is CommonMessage => l.type === 'message');
}

function blocksOfContent(content: unknown): any[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

/** Deep copy without `cache_control` (the client marks cache breakpoints at request time). */
function withoutCacheControl(v: any): any {
  if (Array.isArray(v)) return v.map(withoutCacheControl);
  if (!v || typeof v !== 'object') return v;
  const out: any = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') out[k] = withoutCacheControl(x);
  return out;
}

/** Join neighbours of one role (what is left once other entries were taken out) and drop empty messages. */
function mergeRoles(messages: ApiMessage[]): ApiMessage[] {
  const out: ApiMessage[] = [];
  for (const m of messages) {
    if (m.content.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === m.role) last.content.push(...m.content);
    else out.push({ role: m.role, content: [...m.content] });
  }
  return out;
}

/** The client's side, less what it adds at resume time. */
function clientSide(messages: unknown[], commonTexts: Set<string>): ApiMessage[] {
  let msgs = (messages as { role: string; content: unknown }[])
    // 1. role:"system" entries (environment, reminders) are the client's own.
    .filter((m) => m.role !== 'system')
    .map((m) => ({ role: m.role, content: blocksOfContent(m.content).map(withoutCacheControl) }));
  msgs = msgs.map((m) => ({
    role: m.role,
    content: m.content
      // 5. A queued prompt: the client's framing around the person's words.
      .map((b) => {
        const queued = b.type === 'text' && typeof b.text === 'string' ? QUEUED.exec(b.text) : null;
        return queued ? { type: 'text', text: queued[1] } : b;
      })
      .filter((b) => {
      if (b.type !== 'text' || typeof b.text !== 'string') return true;
      // 2. <system-reminder> text the client injects at resume (not in the file).
      if (b.text.startsWith('<system-reminder>') && !commonTexts.has(b.text)) return false;
      // 3. Slash commands travel as their envelope text (caveat, command, output); Common has them as command tool_use/tool_result.
      if (envelopeKind(b.text.trim()) !== null) return false;
      return true;
    }),
  }));
  // 4. The prompt the oracle's `--resume` run appended.
  const last = msgs.at(-1);
  const tail = last?.content.at(-1);
  if (last && last.role === 'user' && tail?.type === 'text' && tail.text === PROMPT) last.content.pop();
  return mergeRoles(msgs);
}

/** Common's side, as API messages: without the typed views, command blocks and Common's own fields. */
function commonSide(messages: CommonMessage[]): ApiMessage[] {
  const commandIds = new Set<string>();
  for (const m of messages) for (const b of m.content) if (b.type === 'tool_use' && b.tool?.kind === 'command') commandIds.add(b.id);
  const api = (b: Block): any => {
    if (b.type === 'tool_use') return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
    if (b.type === 'tool_result') {
      const r: any = { type: 'tool_result', tool_use_id: b.tool_use_id, content: b.content };
      if (b.is_error) r.is_error = true;
      return r;
    }
    return b;
  };
  return mergeRoles(
    messages.map((m) => ({
      role: m.role,
      content: m.content.filter((b) => !(b.type === 'tool_use' && commandIds.has(b.id)) && !(b.type === 'tool_result' && commandIds.has(b.tool_use_id))).map(api),
    })),
  );
}

/** The client's tool_result blocks may say is_error:false where Common leaves it out. */
function normaliseResults(messages: ApiMessage[]): ApiMessage[] {
  return messages.map((m) => ({
    role: m.role,
    content: m.content.map((b) => {
      if (b.type !== 'tool_result' || b.is_error !== false) return b;
      const { is_error: _dropped, ...rest } = b;
      return rest;
    }),
  }));
}

const sessions = recordedFixtures().filter((f) => f.kind === 'session');

t.test('there are recorded sessions to compare against', (t) => {
  t.ok(sessions.length > 0, `${sessions.length} recorded sessions (fixtures/recorded; npm run record makes them)`);
  t.end();
});

for (const f of sessions) {
  t.test(`tx-common --active gives the conversation the real client resumes from ${f.scenario}/${path.basename(f.file)}`, { skip }, async (t) => {
    const r = await resumeConversation(f.file, { prompt: PROMPT });
    t.equal(r.found, true, 'the client found the session');
    if (!r.found) return;
    const ours = commonOf(f.file);
    const texts = new Set<string>();
    for (const m of ours) for (const b of m.content) if (b.type === 'text') texts.add(b.text);
    const expected = normaliseResults(clientSide(r.messages, texts));
    const actual = normaliseResults(commonSide(ours));
    t.equal(actual.length, expected.length, 'as many messages as the client');
    for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
      t.same(actual[i], expected[i], `message ${i + 1} (${expected[i]?.role ?? actual[i]?.role})`);
    }
  });
}
