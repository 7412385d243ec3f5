/**
 * tx-native against the real client: a session converted to Common and written back
 * (`tx-parse f | tx-common --active | tx-native --install`) loads in `claude -p --resume`
 * and makes the client send the same conversation that resuming the original file makes
 * it send. Run for every recorded fixture and every corpus file the client can resume.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { envelopeKind, parseEnvelope } from '../../lib/claude-code/envelope.js';
import { stripAnsi } from '../../lib/core/ansi.js';
import { PLACEHOLDER_OPENING, PLACEHOLDER_RESULT } from '../../lib/continuable/rules.js';
import { conformanceSkip, recordedFixtures, repoRoot, resumeConversation } from '../harness/index.js';
import { corpusFiles } from '../helpers.js';

const skip = conformanceSkip();
const root = repoRoot();
const PROMPT = 'next';
// The reply the client makes up where it decides a turn ended without one.
const NO_RESPONSE = 'No response requested.';
// The result the client makes up, on resume, for a call the file left without one.
const CLIENT_MISSING_RESULT = /^\[Tool call interrupted: the session ended before this call's result was recorded/;

/** Write `file` back through Common into a scratch store; returns the installed session file. */
function rewrite(file: string, config: string): { file: string | null; stderr: string } {
  const bin = (name: string) => path.join(root, 'build', 'bin', `${name}.js`);
  const parsed = spawnSync(process.execPath, [bin('tx-parse'), file], { maxBuffer: 1 << 30 });
  const common = spawnSync(process.execPath, [bin('tx-common'), '--active'], { input: parsed.stdout, maxBuffer: 1 << 30 });
  const native = spawnSync(process.execPath, [bin('tx-native'), '--install', '--config-dir', config, '--session-id', '7e1d0f5a-0000-4000-8000-000000000001'], { input: common.stdout, maxBuffer: 1 << 30 });
  const projects = path.join(config, 'projects');
  let installed: string | null = null;
  try {
    for (const dir of readdirSync(projects)) for (const f of readdirSync(path.join(projects, dir))) if (f.endsWith('.jsonl')) installed = path.join(projects, dir, f);
  } catch {
    installed = null;
  }
  return { file: installed, stderr: `${common.stderr}${native.stderr}` };
}

/**
 * What the API is sent, less what the client adds around the file's conversation at
 * resume time (tx-native(1), DIFFERENCES ON RESUME): cache breakpoints; role "system"
 * entries (the environment) and <system-reminder> texts, which the client replays from
 * bookkeeping lines of the original file where they were, and adds at the new prompt
 * for a file without them; string content is the same as one text block; a slash
 * command's envelope is compared by its elements (tx-native writes one layout, the
 * client wrote two, with and without an empty <command-args>) and without the ANSI
 * escapes Common strips from command output; the local-command
 * caveat is boilerplate (the client writes it before some commands and not others);
 * `is_error: false` is the same as no is_error; trailing whitespace of a text (the
 * client replays the original's api-request-blob records, which end prompts with a
 * newline); and the "No response requested." reply the client makes up
 * where it decides a turn ended without one. Where a file leaves a call without a result,
 * the client makes one up on resume and tx-native writes a placeholder (tx-native(1),
 * Continuable): both are the same "result missing"; so is the placeholder opening
 * tx-native writes before a conversation that begins with a reply, which the client sends as it is.
 */
function apiView(messages: unknown[]): { role: string; content: unknown[] }[] {
  const strip = (v: any): any => {
    if (Array.isArray(v)) return v.map(strip);
    if (!v || typeof v !== 'object') return v;
    const out: any = {};
    for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') out[k] = strip(x);
    return out;
  };
  const out: { role: string; content: unknown[] }[] = [];
  for (const m of messages as { role: string; content: unknown }[]) {
    if (m.role === 'system') continue;
    if (m.role === 'assistant' && JSON.stringify(m.content) === JSON.stringify([{ type: 'text', text: NO_RESPONSE }])) continue;
    const blocks = (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [])
      .map(strip)
      .filter((b: any) => !(b.type === 'text' && typeof b.text === 'string' && (b.text.startsWith('<system-reminder>') || b.text === PLACEHOLDER_OPENING)))
      .map((b: any) => {
        const parts = b.type === 'text' && typeof b.text === 'string' && envelopeKind(b.text) ? parseEnvelope(b.text) : null;
        if (!parts) {
          if (b.type === 'text' && typeof b.text === 'string') return { ...b, text: b.text.trimEnd() };
          if (b.type === 'tool_result' && b.is_error === true && typeof b.content === 'string' && (b.content === PLACEHOLDER_RESULT || CLIENT_MISSING_RESULT.test(b.content))) {
            return { type: 'tool_result', tool_use_id: b.tool_use_id, missing: true };
          }
          if (b.type === 'tool_result' && b.is_error === false) {
            const { is_error: _, ...rest } = b;
            return rest;
          }
          return b;
        }
        if (parts.every((p) => p.tag === 'local-command-caveat')) return null;
        const elements = parts.filter((p) => p.text.trim() !== '').map((p) => `${p.tag}=${stripAnsi(p.text)}`).sort();
        return { type: 'envelope', elements };
      })
      .filter((b: any) => b !== null);
    if (blocks.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === m.role) last.content.push(...blocks);
    else out.push({ role: m.role, content: blocks });
  }
  return out;
}

const sessions = [
  ...recordedFixtures()
    .filter((f) => f.kind === 'session')
    .map((f) => ({ name: `${f.scenario}/${path.basename(f.file)}`, file: f.file, recorded: true })),
  ...corpusFiles('claude-code').map((file) => ({ name: path.basename(file), file, recorded: false })),
];

for (const s of sessions) {
  t.test(`written back through Common, ${s.name} resumes as the same conversation`, { skip }, async (t) => {
    const original = await resumeConversation(s.file, { prompt: PROMPT });
    if (!original.found) {
      // Only corpus files may be out of the client's reach (old formats); every recorded one must load.
      if (s.recorded) t.fail(`the client did not load the recorded original: ${original.output}`);
      else t.pass(`the client does not load this corpus file itself, nothing to compare (${original.output.trim().slice(0, 80)})`);
      return;
    }
    const config = mkdtempSync(path.join(tmpdir(), 'tx-native-conf-'));
    t.teardown(() => rmSync(config, { recursive: true, force: true }));
    const written = rewrite(s.file, config);
    t.ok(written.file, `tx-native installed a session ${written.stderr}`);
    if (!written.file) return;
    const copy = await resumeConversation(written.file, { prompt: PROMPT });
    t.equal(copy.found, true, 'the client loads the written session');
    if (!copy.found) return;
    const a = apiView(original.messages);
    const b = apiView(copy.messages);
    t.equal(b.length, a.length, 'as many messages');
    for (let i = 0; i < Math.max(a.length, b.length); i++) t.same(b[i], a[i], `message ${i + 1} (${a[i]?.role ?? b[i]?.role})`);
  });
}
