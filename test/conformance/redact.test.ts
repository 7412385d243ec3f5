/**
 * tx-redact against the real client: a session with secrets planted in its prompts and
 * tool results, redacted through records (`tx-parse f | tx-redact | tx-native`), still
 * loads in `claude -p --resume`, and the client sends the same conversation it sends for
 * the unredacted file, with each secret replaced by its placeholder and nothing else
 * changed. Run for the recorded fixtures that carry secrets through different places
 * (prompts, tool results, a large tool result, slash commands, an image
 * whose base64 must come through untouched) and for every corpus file in which tx-redact
 * finds something (there the comparison is of the conversation's shape: roles and blocks).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { conformanceSkip, recordedFixtures, repoRoot, resumeConversation } from '../harness/index.js';
import { corpusFiles } from '../helpers.js';

const skip = conformanceSkip();
const root = repoRoot();
const bin = (name: string) => path.join(root, 'build', 'bin', `${name}.js`);
// Made-up secrets of two shapes: a GitHub token (secretlint's rule) and a database password (tx-redact's).
const TOKEN = 'ghp_Zr4TgH8kQ2wX7mN1pL5vB9cD3fJ6sA0eYuIo';
const PASSWORD = 'Xq9fT2vLm8RwK3pZ';
const PLANTED = ` (use token ${TOKEN} and postgres://app:${PASSWORD}@db.internal/app)`;

/** The file's lines with the planted text appended to every human prompt and string tool result; null when there is none. */
function plant(text: string): string | null {
  let planted = 0;
  const lines = text.split('\n').map((line) => {
    if (!line.trim()) return line;
    let o: any;
    try {
      o = JSON.parse(line);
    } catch {
      return line;
    }
    if (o?.type !== 'user' || !o.message) return line;
    const content = o.message.content;
    if (typeof content === 'string' && !content.startsWith('<') && !o.isMeta) {
      o.message.content = content + PLANTED;
      planted++;
      return JSON.stringify(o);
    }
    if (Array.isArray(content)) {
      let changed = false;
      for (const block of content) {
        if (block?.type === 'tool_result' && typeof block.content === 'string') {
          block.content += PLANTED;
          changed = true;
        }
      }
      if (changed) {
        planted++;
        return JSON.stringify(o);
      }
    }
    return line;
  });
  return planted > 0 ? lines.join('\n') : null;
}

/** `tx-parse file | tx-redact | tx-native` into `out`; returns tx-redact's report lines. */
function redact(file: string, out: string): { rule: string }[] {
  const parsed = spawnSync(process.execPath, [bin('tx-parse'), file], { maxBuffer: 1 << 30 });
  const redacted = spawnSync(process.execPath, [bin('tx-redact'), '--report'], { input: parsed.stdout, maxBuffer: 1 << 30 });
  const native = spawnSync(process.execPath, [bin('tx-native')], { input: redacted.stdout, maxBuffer: 1 << 30 });
  writeFileSync(out, native.stdout);
  return redacted.stderr
    .toString()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

/** Roles and block types of a conversation, in order. */
function shape(messages: unknown[]): string[] {
  return (messages as { role: string; content: unknown }[]).map((m) => `${m.role}:${typeof m.content === 'string' ? 'string' : (m.content as { type: string }[]).map((b) => b.type).join(',')}`);
}

// Each fixture costs two resumes of the real client; these cover the places secrets travel.
const SCENARIOS = new Set(['plain', 'tools', 'bigresult', 'commands', 'image']);
// Two resumes a session take minutes on a busy machine; tap's default of 10 is too short for all.
t.setTimeout(30 * 60 * 1000);

const scratch = mkdtempSync(path.join(tmpdir(), 'tx-redact-conf-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

for (const fixture of recordedFixtures().filter((f) => f.kind === 'session' && SCENARIOS.has(f.scenario))) {
  t.test(`${fixture.scenario}: a redacted session resumes as the same conversation less its secrets`, { skip }, async (t) => {
    const text = plant(readFileSync(fixture.file, 'utf8'));
    if (text === null) {
      t.pass('no prompt or string tool result to plant a secret in');
      return;
    }
    const dir = path.join(scratch, fixture.scenario, 'planted');
    const out = path.join(scratch, fixture.scenario, 'redacted');
    mkdirSync(dir, { recursive: true });
    mkdirSync(out, { recursive: true });
    const planted = path.join(dir, path.basename(fixture.file));
    writeFileSync(planted, text);
    const redactedFile = path.join(out, path.basename(fixture.file));
    const report = redact(planted, redactedFile);
    t.ok(report.length > 0, `tx-redact replaced ${report.length} secrets`);
    const redactedText = readFileSync(redactedFile, 'utf8');
    t.notOk(redactedText.includes(TOKEN) || redactedText.includes(PASSWORD), 'no planted secret is left in the file');
    const original = await resumeConversation(planted);
    if (!original.found) {
      t.fail(`the client did not load the planted original: ${original.output}`);
      return;
    }
    const copy = await resumeConversation(redactedFile);
    t.equal(copy.found, true, 'the client loads the redacted session');
    if (!copy.found) return;
    const expected = JSON.parse(JSON.stringify(original.messages).split(TOKEN).join('[REDACTED:github]').split(PASSWORD).join('[REDACTED:url-password]'));
    t.same(shape(copy.messages), shape(original.messages), 'the same roles and blocks');
    t.same(copy.messages, expected, 'the same messages, each secret replaced by its placeholder');
    t.notOk(JSON.stringify(copy.request).includes(TOKEN), 'the client sends no planted secret');
  });
}

for (const file of corpusFiles('claude-code')) {
  const check = spawnSync(process.execPath, [bin('tx-redact'), '--check', file]);
  if (check.status !== 1) continue;
  t.test(`${path.basename(file)}: redacted, it resumes with the same conversation shape`, { skip }, async (t) => {
    const out = path.join(scratch, 'corpus', path.basename(file, '.jsonl'));
    mkdirSync(out, { recursive: true });
    const redactedFile = path.join(out, path.basename(file));
    const report = redact(file, redactedFile);
    t.ok(report.length > 0, `tx-redact replaced ${report.length} secrets`);
    const original = await resumeConversation(file);
    if (!original.found) {
      t.pass(`the client does not load this corpus file itself, nothing to compare (${original.output.trim().slice(0, 80)})`);
      return;
    }
    const copy = await resumeConversation(redactedFile);
    t.equal(copy.found, true, 'the client loads the redacted session');
    if (!copy.found) return;
    t.same(shape(copy.messages), shape(original.messages), 'the same roles and blocks');
  });
}
