// The census of kinds over the whole corpus, committed as fixtures/census/*.tsv so a
// change of classification shows in review. TX_UPDATE_CENSUS=1 rewrites the files.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import t from 'tap';
import { parseTool } from '../lib/commands/parse.js';
import { corpusFiles, repo, runTool } from './helpers.js';

async function census(files: string[]): Promise<string> {
  const rows: string[] = ['file\tkind\tcount'];
  for (const f of files) {
    const parsed = await runTool(parseTool, [], [readFileSync(f)]);
    const counts = new Map<string, number>();
    for (const line of parsed.stdout.toString('utf8').split('\n')) {
      if (!line) continue;
      const kind = JSON.parse(line).kind as string;
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    for (const [kind, count] of [...counts].sort()) rows.push(`${basename(f)}\t${kind}\t${count}`);
  }
  return rows.join('\n') + '\n';
}

for (const harness of ['claude-code', 'codex'] as const) {
  t.test(`the census of kinds over the ${harness} corpus matches fixtures/census/${harness}.tsv`, async (t) => {
    const files = corpusFiles(harness);
    if (files.length === 0) {
      t.plan(0, 'no corpus beside this checkout');
      return;
    }
    const expectedFile = repo('fixtures', 'census', `${harness}.tsv`);
    const got = await census(files);
    if (process.env.TX_UPDATE_CENSUS === '1') writeFileSync(expectedFile, got);
    t.equal(got, readFileSync(expectedFile, 'utf8'));
  });
}
