// tx-stats CLI cases: each folder of fixtures/stats/ holds input.jsonl (native lines)
// and expected.stdout, run as `tx-parse input.jsonl | tx-stats` in its folder.
// one-session shows every counter and coverage note; interleaved-sessions shows
// grouping by sessionId when sessions' lines alternate.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { findInGuides } from '../guides.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CASES = join(ROOT, 'fixtures', 'stats');
const bin = (name: string) => join(ROOT, 'build', 'bin', `${name}.js`);

for (const name of readdirSync(CASES).sort()) {
  const dir = join(CASES, name);
  if (!existsSync(join(dir, 'expected.stdout'))) continue;
  t.test(name, async (t) => {
    const script = `"${process.execPath}" "${bin('tx-parse')}" input.jsonl 2>/dev/null | "${process.execPath}" "${bin('tx-stats')}"`;
    const r = spawnSync('sh', ['-c', script], { cwd: dir, encoding: 'utf8' });
    t.equal(r.stdout, readFileSync(join(dir, 'expected.stdout'), 'utf8'), 'stdout is exactly expected.stdout');
    t.equal(r.stderr, '', 'nothing on stderr');
    t.equal(r.status, 0, 'exit status 0');
  });
}

t.test('a line that is not a record is reported with its place and skipped', async (t) => {
  const r = spawnSync(process.execPath, [bin('tx-stats')], { input: 'not a record\n', encoding: 'utf8' });
  t.equal(r.stderr, 'tx-stats: stdin:1: not a record, skipped\n');
  t.equal(r.stdout, '', 'no session, no output');
  t.equal(r.status, 0, 'not an error without --strict');
  const strict = spawnSync(process.execPath, [bin('tx-stats'), '--strict'], { input: 'not a record\n', encoding: 'utf8' });
  t.equal(strict.status, 1, '--strict makes it exit 1');
});

const SUBAGENT_SESSION = join(ROOT, 'fixtures', 'recorded', 'subagent', 'projects', '-tmp-txcript-rec-subagent-work', '00000000-0000-4000-8000-0000000000d1.jsonl');
// A shell where the tools go by their installed names.
const tools = ['tx-parse', 'tx-stats'].map((name) => `${name}() { "${process.execPath}" "${bin(name)}" "$@"; }`).join('\n');
const sh = (script: string) => spawnSync('bash', ['-o', 'pipefail', '-c', `${tools}\n${script}`], { cwd: ROOT, encoding: 'utf8' });

t.test("--subagents reads the transcripts beside a session's file and adds subagent_totals; the session's own counters stay its own", async (t) => {
  const r = sh(`tx-parse ${SUBAGENT_SESSION} | tx-stats --subagents`);
  t.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.stdout);
  t.same(s.tool_calls, { total: 1, by_name: { Agent: 1 } }, 'the main file spawned the agent');
  t.match(s.subagent_totals, { transcripts: 1, tool_calls: { total: 1, by_name: { Bash: 1 } }, tool_errors: 0, api_messages: 2, models: ['claude-opus-5-5'] });
  t.match(s.subagent_totals.files[0], /\/subagents\/agent-[0-9a-f]+\.jsonl$/);
  t.ok(s.subagent_totals.tokens.output_tokens > 0, 'the subagent used tokens');
  const without = JSON.parse(sh(`tx-parse ${SUBAGENT_SESSION} | tx-stats`).stdout);
  t.equal(without.subagent_totals, undefined, 'without --subagents, no subagent_totals');
});

t.test('--subagents does not count a transcript twice when it was among the input files', async (t) => {
  const r = sh(`tx-parse ${SUBAGENT_SESSION} ${SUBAGENT_SESSION.replace(/\.jsonl$/, '')}/subagents/agent-*.jsonl | tx-stats --subagents`);
  const s = JSON.parse(r.stdout);
  t.same(s.tool_calls.by_name, { Agent: 1, Bash: 1 }, 'handed the file, its lines count with the session (one sessionId)');
  t.equal(s.subagent_totals.transcripts, 0, 'and not again');
});

t.test("the guides' recipe for what the subagents did prints their tool calls on a current session", async (t) => {
  const found = findInGuides(/\$ (tx-parse s\.jsonl \| tx-stats --subagents \| jq [^\n#]+?)\s+# what the subagents did/);
  t.ok(found, 'a guide (README.md, docs/*.md) has the recipe');
  if (!found) return;
  const r = sh(found.match[1].replace('s.jsonl', SUBAGENT_SESSION));
  t.equal(r.status, 0, r.stderr);
  t.same(JSON.parse(r.stdout), { total: 1, by_name: { Bash: 1 } });
});
