// The Common stream's invariants on every real transcript and recorded session: each
// tool_use answered at most once, each tool_result answering an earlier tool_use,
// roles alternating (a compaction restarts the conversation), no empty message, one
// message per API message id; in the whole history, with --active and with --sidechains.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { parseTool } from '../../lib/commands/parse.js';
import { corpusFiles, repo, runTool } from '../helpers.js';
import { readFileSync } from 'node:fs';

function recordedFiles(dir = repo('fixtures', 'recorded')): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  for (const name of names.sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(recordedFiles(p));
    else if (name.endsWith('.jsonl')) out.push(p);
  }
  return out;
}

/** Every way the stream breaks the invariants; empty when it holds them. */
function violations(stream: any[]): string[] {
  const problems: string[] = [];
  let uses = new Set<string>();
  let answered = new Set<string>();
  let ids = new Set<string>();
  let previous: string | null = null;
  for (const l of stream) {
    if (l.type === 'session') {
      uses = new Set();
      answered = new Set();
      ids = new Set();
      previous = null;
      continue;
    }
    if (!Array.isArray(l.content) || l.content.length === 0) problems.push(`empty message ${l.id}`);
    if (l.role === 'assistant' && ids.has(l.id)) problems.push(`API message ${l.id} written twice`);
    ids.add(l.id);
    if (l.sidechain) continue;
    if (l.after_compaction) previous = null;
    if (previous === l.role) problems.push(`${l.role} after ${l.role} at ${l.id}`);
    previous = l.role;
    for (const b of l.content) {
      if (b.type === 'tool_use' || b.type === 'artifact') {
        if (uses.has(b.id)) problems.push(`tool_use ${b.id} twice`);
        uses.add(b.id);
      }
      if (b.type === 'tool_result') {
        if (!uses.has(b.tool_use_id)) problems.push(`tool_result ${b.tool_use_id} answers no earlier tool_use`);
        if (answered.has(b.tool_use_id)) problems.push(`tool_use ${b.tool_use_id} answered twice`);
        answered.add(b.tool_use_id);
      }
    }
  }
  return problems;
}

const files = [...corpusFiles('claude-code'), ...recordedFiles()];

t.test('every real transcript and recorded session converts without error and keeps the invariants', async (t) => {
  if (files.length === 0) {
    t.plan(0, 'no corpus beside this checkout and no recorded fixtures');
    return;
  }
  for (const f of files) {
    const parsed = await runTool(parseTool, [], [readFileSync(f)]);
    for (const args of [[], ['--active'], ['--sidechains']]) {
      const r = await runTool(commonTool, args, [parsed.stdout]);
      t.equal(r.status, 0, `${f} ${args.join(' ')}: exit 0`);
      t.notMatch(r.stderr, /internal error/, `${f} ${args.join(' ')}: no internal error`);
      const stream = r.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      t.equal(stream[0]?.type, 'session', `${f} ${args.join(' ')}: opens with a session line`);
      t.same(violations(stream), [], `${f} ${args.join(' ')}: invariants hold`);
    }
  }
});

t.test('the invariant checker itself catches each kind of break', async (t) => {
  const s = { type: 'session' };
  const m = (id: string, role: string, content: any[]) => ({ type: 'message', id, role, content });
  t.same(violations([s, m('1', 'user', [])]), ['empty message 1']);
  t.same(violations([s, m('1', 'user', [{ type: 'text', text: 'a' }]), m('2', 'user', [{ type: 'text', text: 'b' }])]), ['user after user at 2']);
  t.same(violations([s, m('1', 'user', [{ type: 'tool_result', tool_use_id: 'x', content: '' }])]), ['tool_result x answers no earlier tool_use']);
  t.same(
    violations([s, m('1', 'assistant', [{ type: 'tool_use', id: 'x', name: 'n', input: {} }]), m('2', 'user', [{ type: 'tool_result', tool_use_id: 'x', content: '' }, { type: 'tool_result', tool_use_id: 'x', content: '' }])]),
    ['tool_use x answered twice'],
  );
});
