// Recall on the planted set: every secret planted by the seeded generator, in every place
// a session carries one, is gone from tx-redact's output, and the report names it by a
// rule that claims its shape. The recall figure of docs/tx-redact.md is this test's.
import t from 'tap';
import { redactTool } from '../../lib/commands/redact.js';
import { runTool } from '../helpers.js';
import { PLACES, claimedRules, plantedSession } from './planted.js';

const SEED = 20261201;

t.test('every planted secret of every claimed rule, in every place, is redacted', async (t) => {
  const { lines, planted } = plantedSession(SEED);
  const res = await runTool(redactTool, ['--report'], [lines.join('\n') + '\n']);
  t.equal(res.status, 0, res.stderr.split('\n').filter((l) => !l.startsWith('{')).join('\n'));
  const out = res.stdout.toString('utf8');
  const outLines = out.split('\n');
  t.equal(outLines.length, lines.length + 1, 'one line out per line in');
  const missed = planted.filter((p) => out.includes(p.secret) || (p.secret.includes('\n') && out.includes(JSON.stringify(p.secret).slice(1, -1))));
  const perRule = new Map<string, { planted: number; missed: number }>();
  for (const p of planted) {
    const key = p.rules.join('|');
    const row = perRule.get(key) ?? { planted: 0, missed: 0 };
    row.planted++;
    if (missed.includes(p)) row.missed++;
    perRule.set(key, row);
  }
  for (const [rule, row] of perRule) t.comment(`${rule}: ${row.planted - row.missed}/${row.planted}`);
  t.same(
    missed.map((p) => `${p.rules[0]} in ${p.place}`),
    [],
    `recall ${planted.length - missed.length}/${planted.length}`,
  );
  const reported = new Set(res.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l).rule));
  for (const rule of claimedRules()) {
    // Where two rules take the same shape, either may name it.
    const shape = planted.find((p) => p.rules.includes(rule))!;
    t.ok(shape.rules.some((r) => reported.has(r)), `the report names ${shape.rules.join(' or ')}`);
  }
  for (const line of outLines.slice(0, -1)) JSON.parse(line);
  t.pass(`all ${outLines.length - 1} lines are JSON`);
  t.equal(PLACES.length, 8);
});
