// Data names no keys: tool, skill, hook, model and line-type names such as `__proto__`,
// `constructor`, `valueOf` and `toString` are counted and shown like any other name,
// never crash a tool, and never lose or corrupt a total.
import t from 'tap';
import { filterTool } from '../../lib/commands/filter.js';
import { parseTool } from '../../lib/commands/parse.js';
import { statsTool } from '../../lib/commands/stats.js';
import { runTool } from '../helpers.js';

const NAMES = ['__proto__', 'constructor', 'valueOf', 'toString', 'hasOwnProperty'];
const L = (o: object) => JSON.stringify(o) + '\n';
const base = { sessionId: 's1', version: '2.1.100', cwd: '/w', timestamp: '2026-03-01T10:00:00.000Z' };

function session(): string {
  let text = L({ type: '__proto__', uuid: 'x0' }) + L({ ...base, type: 'user', uuid: 'u0', parentUuid: null, message: { role: 'user', content: 'go' } });
  let parent = 'u0';
  NAMES.forEach((name, i) => {
    text += L({ ...base, type: 'assistant', uuid: `a${i}`, parentUuid: parent, message: { id: `m${i}`, model: name, role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name, input: {} }, { type: 'tool_use', id: `s${i}`, name: 'Skill', input: { skill: name } }, { type: 'tool_use', id: `g${i}`, name: 'Task', input: { subagent_type: name, prompt: 'p', description: name } }], usage: { input_tokens: 1, output_tokens: 2 } } });
    text += L({ ...base, type: 'attachment', uuid: `h${i}`, parentUuid: `a${i}`, attachment: { type: 'hook_success', hookName: name, hookEvent: name, exitCode: 0 } });
    text += L({ ...base, type: 'user', uuid: `p${i}`, parentUuid: `h${i}`, [name]: { [name]: name }, message: { role: 'user', content: `prompt ${name}` } });
    parent = `p${i}`;
  });
  return text;
}

t.test('tx-stats counts names that are Object.prototype members like any other name', async (t) => {
  const parsed = await runTool(parseTool, [], [session()]);
  const r = await runTool(statsTool, [], [parsed.stdout]);
  t.equal(r.status, 0, 'exit 0');
  t.notMatch(r.stderr, /internal error/);
  const s = JSON.parse(r.stdout.toString());
  const each = Object.fromEntries(NAMES.map((n) => [n, 1]));
  t.same(s.tool_calls, { total: 15, by_name: { ...each, Skill: 5, Task: 5 } }, 'tool calls by name, total');
  t.same(s.skills, each, 'skills');
  t.same(s.subagents, { total: 5, by_type: each }, 'subagents');
  t.same(Object.keys(s.hooks.by_name).sort(), [...NAMES].sort(), 'hooks by name');
  t.same(Object.keys(s.tokens.by_model).sort(), [...NAMES].sort(), 'tokens by model');
  t.equal(s.tokens.output_tokens, 10);
  t.equal(s.coverage.unknown_line_types.__proto__?.['2.1.100'] ?? s.coverage.unknown_line_types.__proto__?.unknown, 1, 'a line of type __proto__ is an unknown line type');
  t.same(Object.keys(s.coverage.unknown_fields).sort(), [...NAMES].sort(), 'unknown fields named like prototype members');
});

t.test('tx-filter views keep a __proto__ key of the data as a key', async (t) => {
  const parsed = await runTool(parseTool, [], [session()]);
  const r = await runTool(filterTool, ['--tool-calls', '--view', '--name', '__proto__'], [parsed.stdout]);
  t.equal(r.status, 0);
  const views = r.stdout.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  t.equal(views.length, 1, 'the tool named __proto__ is found by name');
  const grep = await runTool(filterTool, ['--type', 'user', '--view', '--human-prompts'], [parsed.stdout]);
  t.equal(grep.status, 0);
});
