/**
 * The recorded fixtures are what the recorder says they are: made by the pinned
 * CLI, one folder per scenario, each showing what its scenario promises.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_VERSION, recordedFixtures, recordedRoot } from '../harness/index.js';
import { missingExpectations, scenarios } from '../harness/record.js';

const root = recordedRoot();

t.test('fixtures/recorded/CLI_VERSION names the pinned CLI version', async (t) => {
  t.equal(readFileSync(path.join(root, 'CLI_VERSION'), 'utf8').trim(), CLI_VERSION);
});

t.test('every recorded line that names a CLI version names the pinned one', async (t) => {
  const seen = new Set<string>();
  for (const f of recordedFixtures()) {
    for (const line of readFileSync(f.file, 'utf8').split('\n')) {
      if (!line) continue;
      const v = (JSON.parse(line) as { version?: unknown }).version;
      if (typeof v === 'string') seen.add(v);
    }
  }
  t.same([...seen], [CLI_VERSION]);
});

t.test('fixtures/recorded/README.md has a section for every scenario', async (t) => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  for (const sc of scenarios) t.ok(readme.includes(`### ${sc.name}\n`), sc.name);
});

for (const sc of scenarios) {
  t.test(`recorded fixture ${sc.name} shows ${sc.expects.join(', ')}`, async (t) => {
    const dir = path.join(root, sc.name);
    t.ok(existsSync(dir), `${dir} exists`);
    t.same(missingExpectations(sc, dir), [], 'nothing promised is missing');
  });
}
