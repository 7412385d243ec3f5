// tiering.ts: a run that takes every core makes V8 wait longer before it optimizes a
// function, for a while; the effect is seen in processes of their own, where V8 says
// whether a function is optimized (--allow-natives-syntax).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { shouldTierLate } from '../../../lib/core/parallel/tiering.js';

const tiering = new URL('../../../lib/core/parallel/tiering.js', import.meta.url).href;
const workers = new URL('../../../lib/core/parallel/workers.js', import.meta.url).href;
const output = new URL('../../../lib/core/output/output.js', import.meta.url).href;
const pieces = new URL('./pieces-tool.js', import.meta.url).href;

/** Run an ES module script in a node of its own (a file: a worker would inherit -e's --input-type); its stdout parsed as JSON. */
function runScript(t: Test, script: string, flags: string[] = []): any {
  const dir = mkdtempSync(join(tmpdir(), 'tx-tiering-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'main.mjs'), script);
  const r = spawnSync(process.execPath, [...flags, join(dir, 'main.mjs')], { encoding: 'utf8' });
  t.equal(r.stderr, '', 'nothing on stderr');
  return JSON.parse(r.stdout);
}

t.test('a run tiers late only when its threads take every core, and not when node was given a budget of its own', async (t) => {
  t.equal(shouldTierLate(2, 2, []), true, '2 threads on 2 cores');
  t.equal(shouldTierLate(8, 4, []), true, 'more threads than cores');
  t.equal(shouldTierLate(2, 8, []), false, '2 threads on 8 cores: the compiler has cores of its own');
  t.equal(shouldTierLate(1, 1, []), false, 'one thread: no run on workers');
  t.equal(shouldTierLate(2, 2, ['--interrupt-budget=1000']), false, "node's own --interrupt-budget is left alone");
});

t.test('while the late budget lasts, a function V8 optimizes within 20,000 calls as usual is not optimized; a function first run after it ends is', async (t) => {
  // Compiled on this thread as soon as it is hot, so that the status is read when it is decided.
  const flags = ['--allow-natives-syntax', '--no-concurrent-recompilation'];
  const script = (lateMs: number | null) => `
    const { tierLate, isTieringLate } = await import(${JSON.stringify(tiering)});
    const optimized = (f) => (%GetOptimizationStatus(f) & 16) !== 0;
    // The calls to optimize f (up to 20,000), from a caller that is never optimized (it would inline f).
    const callsToOptimize = (f) => {
      let calls = 0;
      while (!optimized(f) && calls < 20000) {
        for (let i = 0; i < 1000; i++) f(i);
        calls += 1000;
      }
      return optimized(f) ? calls : null;
    };
    %NeverOptimizeFunction(callsToOptimize);
    const first = (x) => (x * 31 + 7) % 1000003;
    const second = (x) => (x * 17 + 3) % 1000033;
    ${lateMs === null ? '' : `tierLate(${lateMs});`}
    const during = callsToOptimize(first);
    const lateThen = isTieringLate();
    await new Promise((resolve) => setTimeout(resolve, ${lateMs === null ? 0 : lateMs + 200}));
    console.log(JSON.stringify({ during, lateThen, after: callsToOptimize(second), lateAfter: isTieringLate() }));`;
  const usual = runScript(t, script(null), flags);
  t.ok(usual.during !== null && usual.during <= 10000, `as usual, optimized after ${usual.during} calls`);
  t.equal(usual.lateThen, false, 'not late without tierLate');
  const late = runScript(t, script(300), flags);
  t.equal(late.lateThen, true, 'isTieringLate() says so while it lasts');
  t.equal(late.during, null, 'with the late budget, not optimized in 20,000 calls');
  t.ok(late.after !== null && late.after <= 10000, `after it, a function first run is optimized after ${late.after} calls`);
  t.equal(late.lateAfter, false, 'isTieringLate() says it ended');
});

t.test('runOnWorkers tiers late when its threads take every core, unless the tool asks for usual tiering (tx-stats)', async (t) => {
  const cores = availableParallelism();
  const script = (jobs: number, usual: boolean) => `
    import { Writable } from 'node:stream';
    import { runOnWorkers } from ${JSON.stringify(workers)};
    import { Output } from ${JSON.stringify(output)};
    import { isTieringLate } from ${JSON.stringify(tiering)};
    const out = new Output(new Writable({ write: (_chunk, _enc, cb) => cb() }));
    const files = Array.from({ length: ${jobs} }, (_, i) => 'f' + i + ':1:100');
    const before = isTieringLate();
    const status = await runOnWorkers({ url: ${JSON.stringify(pieces)}, name: 'tx-pieces' }, { _: [] }, files, ${jobs}, out, () => {}, { usualTiering: ${usual} });
    console.log(JSON.stringify({ status, before, after: isTieringLate() }));`;
  const jobs = Math.max(2, cores);
  const every = runScript(t, script(jobs, false));
  t.same(every, { status: 0, before: false, after: true }, `--jobs ${jobs} on ${cores} cores: late`);
  const usual = runScript(t, script(jobs, true));
  t.same(usual, { status: 0, before: false, after: false }, `--jobs ${jobs} with usualTiering: as usual`);
  if (cores > 2) t.same(runScript(t, script(2, false)), { status: 0, before: false, after: false }, `--jobs 2 on ${cores} cores: as usual`);
  else t.comment(`--jobs below the cores not run: this machine has ${cores}`);
});
