// tx-stats over every corpus file and recorded fixture, checked against a separate,
// straightforward JSON.parse loop written here: token totals are the sum of usage over
// distinct API messages (the last line of a message.id wins), and tool calls, tool
// errors and API message counts agree, session by session.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { recordedSessionFiles } from '../harness/index.js';
import { corpusFiles } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'claude-code');
const bin = (name: string) => join(ROOT, 'build', 'bin', `${name}.js`);
const FIELDS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'];

/** The JSON objects on one physical line: one, or several glued (`}{`), or none. */
function objectsOn(text: string): any[] {
  try {
    return [JSON.parse(text)];
  } catch {
    for (let i = text.indexOf('}{'); i >= 0; i = text.indexOf('}{', i + 1)) {
      try {
        return [JSON.parse(text.slice(0, i + 1)), ...objectsOn(text.slice(i + 1))];
      } catch {
        // not this boundary
      }
    }
    return [];
  }
}

interface Expected {
  messages: Map<string, number[]>;
  anonymous: number[][];
  toolCalls: number;
  toolErrors: number;
}

function expectedBySession(files: string[]): Map<string, Expected> {
  const sessions = new Map<string, Expected>();
  for (const file of files) {
    let current: string | null = null;
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      for (const line of objectsOn(text.replace(/^\uFEFF/, ''))) {
        if (!line || typeof line !== 'object') continue;
        if (typeof line.sessionId === 'string' && line.sessionId !== '') current = line.sessionId;
        const key = current ?? file;
        if (!sessions.has(key)) sessions.set(key, { messages: new Map(), anonymous: [], toolCalls: 0, toolErrors: 0 });
        const s = sessions.get(key)!;
        const content = Array.isArray(line.message?.content) ? line.message.content : [];
        if (line.type === 'assistant') {
          s.toolCalls += content.filter((b: any) => b?.type === 'tool_use').length;
          const usage = line.message?.usage;
          if (usage && typeof usage === 'object') {
            const counts = FIELDS.map((f) => (typeof usage[f] === 'number' ? usage[f] : 0));
            if (typeof line.message.id === 'string') s.messages.set(line.message.id, counts);
            else s.anonymous.push(counts);
          }
        }
        if (line.type === 'user') s.toolErrors += content.filter((b: any) => b?.type === 'tool_result' && b.is_error === true).length;
      }
    }
  }
  return sessions;
}

const files = [...corpusFiles('claude-code'), ...recordedSessionFiles()];
if (!existsSync(CORPUS)) t.comment(`no corpus at ${CORPUS}: recorded fixtures only`);

t.test('tokens, API messages, tool calls and tool errors per session equal an independent count', async (t) => {
  const parsed = spawnSync(process.execPath, [bin('tx-parse'), ...files], { maxBuffer: 1 << 30 });
  t.equal(parsed.status, 0, 'tx-parse reads every file');
  const stats = spawnSync(process.execPath, [bin('tx-stats')], { input: parsed.stdout, maxBuffer: 1 << 28, encoding: 'utf8' });
  t.equal(stats.status, 0, 'tx-stats runs');
  t.equal(stats.stderr, '', 'tx-stats says nothing on stderr');
  const expected = expectedBySession(files);
  const got = stats.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  const keys = new Set(got.map((s) => s.session ?? s.files[0]));
  t.equal(keys.size, got.length, 'one summary per session');
  const missed = [...expected].filter(([k, e]) => !keys.has(k) && (e.messages.size + e.anonymous.length + e.toolCalls + e.toolErrors > 0)).map(([k]) => k);
  t.same(missed, [], 'every session with API messages or tool calls has a summary');
  let checkedTokens = 0;
  for (const s of got) {
    const key = s.session ?? s.files[0];
    const e = expected.get(key);
    if (!t.ok(e, `session ${key} is expected`)) continue;
    const all = [...e!.messages.values(), ...e!.anonymous];
    const sums = FIELDS.map((_, i) => all.reduce((a, c) => a + c[i], 0));
    t.same(
      FIELDS.map((f) => s.tokens[f]),
      sums,
      `${key}: token totals are the sum over distinct API messages`,
    );
    const byModel = FIELDS.map((f) => Object.values(s.tokens.by_model as Record<string, any>).reduce((a, m) => a + m[f], 0));
    t.same(byModel, sums, `${key}: tokens by model add up to the totals`);
    t.equal(s.api_messages, all.length, `${key}: API messages`);
    t.equal(s.tool_calls.total, e!.toolCalls, `${key}: tool calls`);
    t.equal(s.tool_errors, e!.toolErrors, `${key}: tool errors`);
    checkedTokens += sums.reduce((a, b) => a + b, 0);
  }
  t.ok(files.length === 0 || checkedTokens > 0, 'the sweep compared real token counts');
  t.comment(`${got.length} sessions from ${files.length} files, ${checkedTokens} tokens compared`);
});
