// The size rule, end to end on native sessions as users meet it: `tx-parse | tx-common
// --active | tx-native`. A session written for its own client is never refused (the
// client loaded it before, and can compact it); the context a reply recorded counts
// exactly; another client refuses only what no model of it could hold.
import t from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import { runTool } from '../helpers.js';

const S = '2f0d5b7e-3c1a-4e8b-9d6f-0a1b2c3d4e5f';
let position = 0;
/** One Claude Code line of the session, chained to the one before. */
function claudeLine(type: 'user' | 'assistant', message: Record<string, unknown>): string {
  const uuid = `00000000-0000-4000-8000-${String(++position).padStart(12, '0')}`;
  const parentUuid = position === 1 ? null : `00000000-0000-4000-8000-${String(position - 1).padStart(12, '0')}`;
  return JSON.stringify({ parentUuid, isSidechain: false, userType: 'external', cwd: '/home/u/app', sessionId: S, version: '2.1.100', gitBranch: 'main', type, message, uuid, timestamp: '2026-03-01T10:00:00.000Z' }) + '\n';
}
const reply = (id: string, content: unknown[], context: number, model = 'claude-opus-4-6') => claudeLine('assistant', { id, type: 'message', role: 'assistant', model, content, stop_reason: content.some((b: any) => b.type === 'tool_use') ? 'tool_use' : 'end_turn', usage: { input_tokens: 4, cache_read_input_tokens: context - 504, cache_creation_input_tokens: 500, output_tokens: 80 } });

/** The pipeline of the man page, in this process: the session's active conversation written back. */
async function writeBack(session: string, args: string[] = []) {
  const records = await runTool(parseTool, [], [session]);
  const common = await runTool(commonTool, ['--active'], [records.stdout]);
  return runTool(nativeTool, args, [common.stdout]);
}

t.test('a 4 MB session with two 2 MB tool results is written for Claude Code, which loads it, with a note naming --from-compaction', async (t) => {
  position = 0;
  const payload = 'line of a large file\n'.repeat(100_000);
  const session = [
    claudeLine('user', { role: 'user', content: 'read both logs' }),
    reply('msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/home/u/app/a.log' } }], 20_000),
    claudeLine('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: payload }] }),
    reply('msg_2', [{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: '/home/u/app/b.log' } }], 24_000),
    claudeLine('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: payload }] }),
  ].join('');
  t.ok(session.length > 4_000_000, 'a 4 MB session');
  const written = await writeBack(session);
  t.equal(written.status, 0, written.stderr);
  t.equal(written.stdout.toString('utf8').split('\n').filter(Boolean).length, 5, 'every line written');
  t.match(written.stderr, /^tx-native: session \S+ is about \d+ tokens \(24080 recorded at its last reply, \d+ estimated after it\), more than the 200000-token context window of claude-opus-4-6 in claude-code, and it has no compaction for --from-compaction to start from: written; the client may have to compact it before it goes on, or refuse it\n$/);
  const strict = await writeBack(session, ['--strict-size']);
  t.equal(strict.status, 1, '--strict-size refuses it');
  t.match(strict.stderr, /: not written \(--strict-size\)/);
  t.equal(strict.stdout.length, 0, 'and writes nothing');
});

t.test('a session whose last reply recorded 283,962 tokens ran with the 1M window: written for Claude Code without a word, for Codex with a note', async (t) => {
  position = 0;
  const session = [claudeLine('user', { role: 'user', content: 'go on' }), reply('msg_1', [{ type: 'text', text: 'Done.' }], 283_962), claudeLine('user', { role: 'user', content: 'thanks' })].join('');
  const own = await writeBack(session);
  t.equal(own.status, 0, own.stderr);
  t.equal(own.stderr, '', 'fits the window its model ran with');
  const codex = await writeBack(session, ['--harness', 'codex']);
  t.equal(codex.status, 0, 'Codex runs models with larger windows: written');
  t.match(codex.stderr, /is about 2840\d\d tokens \(284042 recorded at its last reply, \d+ estimated after it\), more than the 258400-token context window of codex, and it has no compaction for --from-compaction to start from: written/);
  const strict = await writeBack(session, ['--harness', 'codex', '--strict-size']);
  t.equal(strict.status, 1);
  const roomy = await writeBack(session, ['--harness', 'codex', '--context-window', '400000']);
  t.equal(roomy.stderr, '', '--context-window names the window of the model the target runs');
});

t.test('another client refuses only what no model of it could hold', async (t) => {
  // A Codex session of over 4 MB of text: about 1.25M tokens (its JSON escapes each newline), more than Claude Code's largest window.
  const meta = { timestamp: '2026-03-01T10:00:00.000Z', type: 'session_meta', payload: { id: '019c8a4c-ed82-79a1-aa28-7738fc5ab61a', timestamp: '2026-03-01T10:00:00.000Z', cwd: '/home/u/app', originator: 'codex_cli_rs', cli_version: '0.169.0', model_provider: 'openai' } };
  const pasted = { timestamp: '2026-03-01T10:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'log line\n'.repeat(500_000) }] } };
  const session = [meta, pasted].map((l) => JSON.stringify(l) + '\n').join('');
  const r = await writeBack(session);
  t.equal(r.status, 1);
  t.match(r.stderr, /tx-native: session \S+ is about 12\d{5} tokens \(estimated from its bytes\), more than the 200000-token context window of claude-code, and it has no compaction for --from-compaction to start from: not written, no model of claude-code has a window that large \(1000000 tokens at most\)/);
  t.equal(r.stdout.length, 0, 'nothing written');
  const own = await writeBack(session, ['--harness', 'codex']);
  t.equal(own.status, 0, 'its own client: written, with a note');
  t.match(own.stderr, /more than the 258400-token context window of codex, and it has no compaction for --from-compaction to start from: written/);
});
