// run(): what every bin shares. Here: arguments reach a tool as typed, and a flag
// that takes no value refuses one instead of dropping it.
import t from 'tap';
import type { Context, Tool } from '../../lib/core/tool.js';
import { filterTool } from '../../lib/commands/filter.js';
import { runTool } from '../helpers.js';

/** A tool that writes what it was given. */
const echo: Tool = {
  name: 'tx-echo',
  help: 'usage: tx-echo',
  options: { string: ['id'], boolean: ['flag'] },
  async main(ctx: Context) {
    await ctx.out.writeJson({ files: ctx.files, id: ctx.args.id ?? null, flag: ctx.args.flag });
  },
};

t.test('file names and ids that look like numbers stay as typed (007 is not 7, 1e3 is not 1000)', async (t) => {
  const r = await runTool(echo, ['007', '1e3', '0x10', '--id', '00042', '--', '-5', '1.50'], ['']);
  t.equal(r.status, 0);
  t.same(JSON.parse(r.stdout.toString()), { files: ['007', '1e3', '0x10', '-5', '1.50'], id: '00042', flag: false });
});

t.test('a flag that takes no value given one is a usage error naming the form to use', async (t) => {
  const r = await runTool(echo, ['--flag=yes'], ['']);
  t.equal(r.status, 2, 'exit 2');
  t.match(r.stderr, /tx-echo: --flag takes no value \(--flag=yes\)/);
  const f = await runTool(filterTool, ['--tool-calls=Bash'], ['']);
  t.equal(f.status, 2, 'tx-filter --tool-calls=Bash: exit 2, not every tool call');
  t.match(f.stderr, /--tool-calls takes no value \(--tool-calls=Bash\): write --tool-calls --name TOOL/);
  t.equal(f.stdout.length, 0, 'nothing written');
  const ok = await runTool(echo, ['--flag', '--', '--flag=x'], ['']);
  t.same(JSON.parse(ok.stdout.toString()).files, ['--flag=x'], 'after -- it is a file name');
});

t.test('what a tool is given is made of the same functions on every run (a worker runs one per file)', async (t) => {
  // A function or generator made anew per run undoes V8's optimized code that calls it
  // or loops over what it makes: on a worker that was a recompile of the read loop per file.
  const seen: Context[] = [];
  const keep: Tool = { ...echo, name: 'tx-keep', main: async (ctx) => void seen.push(ctx) };
  await runTool(keep, [], ['']);
  await runTool(keep, [], ['']);
  const [a, b] = seen;
  t.not(a, b, 'two runs, two contexts');
  for (const m of ['warn', 'note', 'noteOnce', 'inputs'] as const) t.equal(a[m], b[m], `ctx.${m} is one function`);
  t.equal(Object.getPrototypeOf(a.inputs()), Object.getPrototypeOf(b.inputs()), 'the inputs of both runs are one kind of generator');
});
