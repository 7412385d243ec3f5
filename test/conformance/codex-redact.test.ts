/**
 * tx-redact against the real Codex client: a rollout with secrets planted in its prompts
 * and tool outputs, redacted through records (`tx-parse f | tx-redact | tx-native`), still
 * loads in `codex exec resume`, and the client sends the same input it sends for the
 * unredacted rollout, with each secret replaced by its placeholder and nothing else changed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { conformanceSkip, repoRoot } from '../harness/index.js';
import { recordedCodexRollouts, resumeRollout } from '../harness/codex/index.js';

const skip = conformanceSkip();
const bin = (name: string) => path.join(repoRoot(), 'build', 'bin', `${name}.js`);
// Made-up secrets of two shapes: a GitHub token (secretlint's rule) and a database password (tx-redact's).
const TOKEN = 'ghp_Zr4TgH8kQ2wX7mN1pL5vB9cD3fJ6sA0eYuIo';
const PASSWORD = 'Xq9fT2vLm8RwK3pZ';
const PLANTED = ` (use token ${TOKEN} and postgres://app:${PASSWORD}@db.internal/app)`;
// Each rollout costs two resumes of the real client.
t.setTimeout(30 * 60 * 1000);

/** The rollout with the planted text after every human prompt (wherever the rollout repeats it) and every string tool output; null when there is none. */
function plant(text: string): string | null {
  const prompts = new Set<string>();
  const lines = text.split('\n');
  for (const line of lines) {
    try {
      const o = JSON.parse(line);
      const p = o?.payload;
      if (o?.type === 'response_item' && p?.type === 'message' && p.role === 'user' && Array.isArray(p.content)) {
        for (const c of p.content) if (c?.type === 'input_text' && typeof c.text === 'string' && c.text.trim() && !c.text.startsWith('<')) prompts.add(c.text);
      }
    } catch {
      // not a JSON line: nothing to plant in
    }
  }
  let planted = 0;
  const out = lines.map((line) => {
    let next = line;
    for (const prompt of prompts) {
      const inner = JSON.stringify(prompt).slice(1, -1);
      if (next.includes(`"${inner}"`)) {
        next = next.split(`"${inner}"`).join(JSON.stringify(prompt + PLANTED));
        planted++;
      }
    }
    try {
      const o = JSON.parse(next);
      if (o?.type === 'response_item' && o.payload?.type === 'function_call_output' && typeof o.payload.output === 'string') {
        o.payload.output += PLANTED;
        planted++;
        return JSON.stringify(o);
      }
    } catch {
      // kept as it is
    }
    return next;
  });
  return planted > 0 ? out.join('\n') : null;
}

/**
 * The input less what each resume adds of its own: the scratch folder the oracle made
 * for it (in the environment and skill messages) and the ids of the messages it writes
 * at resume time (ids the rollout does not hold).
 */
function comparable(input: unknown[], rolloutText: string): unknown[] {
  const scratchFree = JSON.parse(JSON.stringify(input).replace(/txcript-codex-oracle-[A-Za-z0-9]+/g, 'txcript-codex-oracle-SCRATCH')) as Record<string, unknown>[];
  return scratchFree.map((item) => {
    if (item && typeof item.id === 'string' && !rolloutText.includes(item.id)) {
      const { id: _, ...rest } = item;
      return rest;
    }
    return item;
  });
}

const scratch = mkdtempSync(path.join(tmpdir(), 'tx-redact-codex-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

for (const rollout of recordedCodexRollouts()) {
  t.test(`${rollout.scenario}: a redacted rollout resumes as the same input less its secrets`, { skip }, async (t) => {
    const text = plant(readFileSync(rollout.file, 'utf8'));
    if (text === null) {
      t.pass('no prompt or string tool output to plant a secret in');
      return;
    }
    const dir = path.join(scratch, rollout.scenario);
    mkdirSync(path.join(dir, 'planted'), { recursive: true });
    mkdirSync(path.join(dir, 'redacted'), { recursive: true });
    const planted = path.join(dir, 'planted', path.basename(rollout.file));
    const redactedFile = path.join(dir, 'redacted', path.basename(rollout.file));
    writeFileSync(planted, text);
    const parsed = spawnSync(process.execPath, [bin('tx-parse'), planted], { maxBuffer: 1 << 30 });
    const redacted = spawnSync(process.execPath, [bin('tx-redact')], { input: parsed.stdout, maxBuffer: 1 << 30 });
    const native = spawnSync(process.execPath, [bin('tx-native')], { input: redacted.stdout, maxBuffer: 1 << 30 });
    writeFileSync(redactedFile, native.stdout);
    const redactedText = native.stdout.toString('utf8');
    t.notOk(redactedText.includes(TOKEN) || redactedText.includes(PASSWORD), 'no planted secret is left in the rollout');
    t.equal(redactedText.split('\n').length, text.split('\n').length, 'as many lines');
    const original = await resumeRollout(planted);
    if (!original.found) {
      t.fail(`the client did not load the planted rollout: ${original.output.slice(0, 400)}`);
      return;
    }
    const copy = await resumeRollout(redactedFile);
    t.equal(copy.found, true, 'the client loads the redacted rollout');
    if (!copy.found) return;
    const expected = JSON.parse(JSON.stringify(comparable(original.input, text)).split(TOKEN).join('[REDACTED:github]').split(PASSWORD).join('[REDACTED:url-password]'));
    t.same(comparable(copy.input, redactedText), expected, 'the same input, each secret replaced by its placeholder');
    t.notOk(JSON.stringify(copy.request).includes(TOKEN), 'the client sends no planted secret');
  });
}
