// tx-filter --human-prompts against the session-store guide's own jq recipes, over
// every corpus file and every recorded fixture. jq stops at a line that is not one
// JSON object, so it gets only the lines tx-parse kept as exactly one object (line
// numbers mapped back). Every line where tx-filter and the recipes disagree must be
// explained by a named rule; each rule has its own fixture in fixtures/filter/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { recordedSessionFiles } from '../harness/index.js';
import { corpusFiles } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'claude-code');
const bin = (name: string) => join(ROOT, 'build', 'bin', `${name}.js`);

// The guide's recipes, changed only to print input_line_number.
const PROMPTS_RECIPE = `select(.type=="user" and .isMeta!=true and ((.message.content|type)=="string" or .message.content[0].type=="text"))
       | select((.message.content|if type=="string" then . else (.[0].text // "") end)
                | test("^(<task-notification>|<command-name>|<local-command-stdout>|<system-reminder>|This session is being continued)") | not)
       | "\\(input_line_number)"`;
const QUEUED_RECIPE = `select(.type=="attachment" and .attachment.type=="queued_command" and .attachment.origin.kind=="human")
       | "\\(input_line_number)"`;

const ENVELOPE_TAG = '(command-name|command-message|command-args|command-contents|bash-input|local-command-stdout|local-command-stderr|bash-stdout|bash-stderr|local-command-caveat)';

/** A body made only of slash-command envelope elements (checked here independently of lib/). */
function isWholeEnvelope(text: string): boolean {
  const element = new RegExp(`^\\s*<${ENVELOPE_TAG}>[\\s\\S]*?</\\1>`);
  let rest = text;
  let found = false;
  for (let m = element.exec(rest); m; m = element.exec(rest)) {
    rest = rest.slice(m[0].length);
    found = true;
  }
  return found && rest.trim() === '';
}

function leading(line: any): string {
  const c = line?.message?.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c) && c[0] && c[0].type === 'text') return String(c[0].text ?? '');
  return '';
}

/** Why the recipes select a line tx-filter leaves out. */
function whyRecipeOnly(line: any): string | null {
  if (line.isSidechain === true) return 'sidechain: the user role is the parent agent';
  if (line.isCompactSummary === true) return 'compact summary';
  const text = leading(line);
  if (text.startsWith('[Request interrupted by user')) return 'interrupted';
  if (isWholeEnvelope(text)) return 'envelope: slash command, its output, or the caveat';
  if (Array.isArray(line.message?.content) && line.message.content.some((b: any) => b?.type === 'tool_result')) return 'tool result after a text block';
  return null;
}

/** Why tx-filter selects a line the recipes leave out. */
function whyOursOnly(line: any): string | null {
  if (line.type === 'attachment' && line.attachment?.type === 'queued_command' && line.attachment.origin === undefined) return 'queued command without origin (older CLI)';
  const c = line.message?.content;
  if (Array.isArray(c) && c[0]?.type === 'image') return 'image first';
  const text = leading(line);
  if (/^(<command-name>|<local-command-stdout>)/.test(text) && !isWholeEnvelope(text)) return 'quotes envelope markup but is not an envelope';
  return null;
}

const files = [...corpusFiles('claude-code'), ...recordedSessionFiles()];
if (!existsSync(CORPUS)) t.comment(`no corpus at ${CORPUS}: sweeping recorded fixtures only`);
const jq = spawnSync('jq', ['--version']);
if (jq.error) {
  t.test('the recipes run with jq', { skip: 'jq is not installed' }, async () => {});
} else {
  const tmp = mkdtempSync(join(tmpdir(), 'tx-filter-recipe-'));
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
  const reasons = new Map<string, number>();
  t.after(() => t.comment(`differences by rule: ${JSON.stringify(Object.fromEntries(reasons))}`));
  for (const file of files) {
    t.test(file.slice(file.lastIndexOf('/') + 1), async (t) => {
      const records = spawnSync(process.execPath, [bin('tx-parse'), file], { maxBuffer: 1 << 30 });
      t.equal(records.status, 0, 'tx-parse reads the file');
      const perLine = new Map<number, string[]>();
      for (const rec of records.stdout.toString('utf8').split('\n')) {
        if (rec === '') continue;
        const { n, kind } = JSON.parse(rec);
        perLine.set(n, [...(perLine.get(n) ?? []), kind]);
      }
      // Physical lines as jq sees them (split on LF; a CR before it is JSON whitespace).
      const lines = readFileSync(file).toString('utf8').split('\n');
      const fed: number[] = [];
      const parsed = new Map<number, any>();
      for (let i = 0; i < lines.length; i++) {
        const kinds = perLine.get(i + 1);
        if (!kinds || kinds.length !== 1 || kinds[0] === 'invalid') continue;
        const value = JSON.parse(lines[i].replace(/^\uFEFF/, ''));
        if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
        fed.push(i + 1);
        parsed.set(i + 1, value);
      }
      const input = join(tmp, 'lines.jsonl');
      writeFileSync(input, fed.map((n) => lines[n - 1].replace(/^\uFEFF/, '')).join('\n') + '\n');
      const recipe = new Set<number>();
      for (const program of [PROMPTS_RECIPE, QUEUED_RECIPE]) {
        const r = spawnSync('jq', ['-r', program, input], { encoding: 'utf8', maxBuffer: 1 << 28 });
        t.equal(r.status, 0, `jq runs the recipe (${r.stderr.trim()})`);
        for (const l of r.stdout.split('\n')) if (l !== '') recipe.add(fed[Number(l) - 1]);
      }
      const filtered = spawnSync(process.execPath, [bin('tx-filter'), '--human-prompts'], { input: records.stdout, maxBuffer: 1 << 30 });
      t.equal(filtered.status, 0, 'tx-filter runs');
      const ours = new Set<number>();
      for (const rec of filtered.stdout.toString('utf8').split('\n')) if (rec !== '') ours.add(JSON.parse(rec).n);
      const unexplained: string[] = [];
      for (const n of recipe) {
        if (ours.has(n)) continue;
        const why = whyRecipeOnly(parsed.get(n));
        if (why) reasons.set(why, (reasons.get(why) ?? 0) + 1);
        else unexplained.push(`line ${n}: the recipe selects it, tx-filter does not`);
      }
      for (const n of ours) {
        if (recipe.has(n)) continue;
        const line = parsed.get(n);
        const why = line ? whyOursOnly(line) : 'not fed to jq (glued or not one object)';
        if (why) reasons.set(why, (reasons.get(why) ?? 0) + 1);
        else unexplained.push(`line ${n}: tx-filter selects it, the recipe does not`);
      }
      t.same(unexplained, [], 'every difference from the recipe is a named rule');
    });
  }
}
