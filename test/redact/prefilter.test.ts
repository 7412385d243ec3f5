// The byte pre-filter only saves time: a line redacted with the look at its raw bytes
// (skip it, or search its strings for the keywords the raw line holds) comes out as it
// does when every string of it is searched for every rule. Swept over the planted set
// and every corpus line.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { rewriteStrings } from '../../lib/core/json/field-path.js';
import { HomeMasker } from '../../lib/redact/home.js';
import { redactLine } from '../../lib/redact/redact-line.js';
import { TextRedactor, type Redaction } from '../../lib/redact/redact-text.js';
import { defaultRuleSet } from '../../lib/redact/rules.js';
import { Scanner } from '../../lib/redact/scan.js';
import { corpusFiles } from '../helpers.js';
import { plantedSession } from './planted.js';

const scanner = new Scanner(defaultRuleSet());

/** The line redacted with no pre-filter: every string, every rule; null when nothing changes. */
async function searchedWhole(line: string, redactor: TextRedactor): Promise<string | null> {
  return redactor.settle(() => searchedOnce(line, redactor));
}

function searchedOnce(line: string, redactor: TextRedactor): string | null {
  const found: Redaction[] = [];
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // Not JSON (two objects glued on one line): searched as text.
    const text = redactor.redact(line, found);
    return text === line ? null : text;
  }
  const result = rewriteStrings(value, [[]], (s) => redactor.redact(s, found));
  return result.changed ? JSON.stringify(result.value) : null;
}

async function compare(t: { equal: (a: unknown, b: unknown, m: string) => void }, name: string, lines: string[], home: boolean): Promise<void> {
  const fast = new TextRedactor(scanner, home ? new HomeMasker() : null);
  const whole = new TextRedactor(scanner, home ? new HomeMasker() : null);
  let differ = 0;
  let changed = 0;
  for (const line of lines) {
    if (!line.trim()) continue;
    const r = await redactLine(Buffer.from(line), fast, false);
    const got = r.kind === 'changed' ? (r.record ? null : r.text) : null;
    if (r.kind === 'changed' && r.record) continue;
    const want = await searchedWhole(line, whole);
    if (got !== null) changed++;
    if (got !== want) differ++;
  }
  t.equal(differ, 0, `${name}: ${changed} lines changed, none differently than with every string searched`);
}

t.test('the planted set', async (t) => {
  await compare(t, 'planted', plantedSession(7, 1).lines, false);
});

t.test('every corpus line, with and without --home', async (t) => {
  const files = [...corpusFiles('claude-code'), ...corpusFiles('codex')];
  if (files.length === 0) {
    t.pass('no corpus beside the repository (../shared/corpus): nothing to sweep');
    return;
  }
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    await compare(t, file.split('/').pop()!, lines, false);
    await compare(t, `${file.split('/').pop()!} --home`, lines, true);
  }
});

t.test('base64 text right after an escape, at each depth of JSON text in strings', async (t) => {
  // The raw line shows such a run with the escape's letters in front (`\nQUJD…` reads
  // `nQUJD…`), which decodes to nothing like text: the look at the raw line must try the
  // run without them, or the line would be passed through with its secret.
  const key = `sk-ant-api03-${'Kq7xW2mZ9vB4nR8tY3pL6hJ1dF5gC0sA'.repeat(2)}`;
  const before = ['\n', '\t', '\r', '\b', '\f', '\u0001', '\u001f', '\\', '"', 'é ', ' '];
  let lines = 0;
  let unchanged = 0;
  let differ = 0;
  for (const encoding of ['base64', 'base64url'] as const) {
    for (const tail of ['', 'x', 'xy']) {
      const run = Buffer.from(`VALUE=${key}\nMODE=prod${tail}\n`).toString(encoding);
      for (const b of before) {
        let content = `data:${b}${run}`;
        const depths: string[] = [];
        for (let depth = 0; depth < 3; depth++) {
          depths.push(JSON.stringify({ type: 'user', message: { role: 'user', content } }));
          content = JSON.stringify({ env: content });
        }
        // A writer other than JSON.stringify may escape a control character as \u00XX.
        depths.push(depths[0]!.replace(/\\n/g, '\\u000a').replace(/\\t/g, '\\u0009'));
        for (const line of depths) {
          lines++;
          const redactor = new TextRedactor(scanner, null);
          const r = await redactLine(Buffer.from(line), redactor, false);
          const got = r.kind === 'changed' ? r.text : null;
          if (got === null || got.includes(run)) unchanged++;
          if (got !== (await searchedWhole(line, new TextRedactor(scanner, null)))) differ++;
        }
      }
    }
  }
  t.equal(unchanged, 0, `every one of ${lines} lines had its base64 secret redacted`);
  t.equal(differ, 0, 'each came out as with every string searched');
});
