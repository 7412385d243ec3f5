/**
 * Records fixtures/recorded-opencode/: runs each scenario with the pinned OpenCode client
 * against the mock Messages API, in a fixed scratch folder
 * /tmp/txcript-rec-opencode/<scenario> (HOME `home/`, cwd `work/`, outside any git
 * repository), then writes `opencode export ID` of every session the client stored as
 * fixtures/recorded-opencode/<scenario>/<ID>.json, byte for byte as the client printed it.
 *
 *   node build/test/harness/opencode/record.js [--out DIR] [SCENARIO…]     (npm run record:opencode)
 *   node build/test/harness/opencode/record.js --readme
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../pinned.js';
import { OPENCODE_VERSION, opencodeBinary, runOpencode, writeOpencodeHome } from './cli.js';
import { startOpencodeMock } from './mock.js';
import { exportCensus } from './census.js';
import { opencodeScenarios, type OpencodeScenario, type OpencodeScenarioDirs } from './scenarios.js';
import { runIfMain } from '../record-main.js';

const REC_ROOT = '/tmp/txcript-rec-opencode';


/** Every session id of the scratch store, oldest first (through the client's own `opencode db`). */
async function storedSessions(dirs: OpencodeScenarioDirs): Promise<string[]> {
  const r = await runOpencode({ args: ['db', '--format', 'json', 'SELECT id FROM session ORDER BY time_created, id'], home: dirs.home, cwd: dirs.cwd });
  if (r.code !== 0) throw new Error(`opencode db failed: ${r.stderr.slice(0, 1000)}`);
  return (JSON.parse(r.stdout) as { id: string }[]).map((row) => row.id);
}

/** Record one scenario into `outRoot/<name>/<session id>.json`. */
export async function recordOpencodeScenario(sc: OpencodeScenario, outRoot: string): Promise<void> {
  const root = path.join(REC_ROOT, sc.name);
  rmSync(root, { recursive: true, force: true });
  const dirs: OpencodeScenarioDirs = { root, home: path.join(root, 'home'), cwd: path.join(root, 'work') };
  mkdirSync(dirs.cwd, { recursive: true });
  const mock = await startOpencodeMock(sc.script, sc.subagentPrompts);
  writeOpencodeHome(dirs.home, mock.url, sc.config);
  sc.setup?.(dirs);
  try {
    await sc.run(dirs, mock);
  } finally {
    await mock.close();
    writeFileSync(path.join(root, 'requests.json'), JSON.stringify(mock.requests));
  }
  if (existsSync(path.join(dirs.home, '.npm'))) throw new Error(`${sc.name}: the client reached for the npm registry (${dirs.home}/.npm exists)`);
  const dest = path.join(outRoot, sc.name);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  for (const id of await storedSessions(dirs)) {
    const r = await runOpencode({ args: ['export', id], home: dirs.home, cwd: dirs.cwd });
    if (r.code !== 0) throw new Error(`opencode export ${id} failed: ${r.stderr.slice(0, 1000)}`);
    writeFileSync(path.join(dest, `${id}.json`), r.stdout);
  }
  const have = exportCensus(dest);
  const missing = sc.expects.filter((e) => !have.has(e));
  if (missing.length) throw new Error(`recorded, but the sessions do not show ${missing.join(', ')}`);
}

function readme(outRoot: string): string {
  const rows = opencodeScenarios.map((sc) => {
    const dir = path.join(outRoot, sc.name);
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).length : 0;
    const parts = existsSync(dir) ? [...exportCensus(dir)].filter((t) => t.startsWith('part:')).sort().map((t) => '`' + t.slice(5) + '`').join(', ') : '';
    return `| ${sc.name} | ${sc.shows.replace(/\|/g, '\\|')} | ${files} | ${parts || '—'} |`;
  });
  return [
    '# Recorded OpenCode sessions',
    '',
    `Sessions stored by the real OpenCode client ${OPENCODE_VERSION} (see CLI_VERSION), driven offline with`,
    '`opencode run` (and, for aborts and asked-for compactions, its headless server) against the scripted',
    'mock Messages API in test/harness/opencode/mock.ts. Re-record all with `npm run record:opencode`',
    '(or `npm run build && node build/test/harness/opencode/record.js NAME…`).',
    'Each scenario ran in `/tmp/txcript-rec-opencode/<scenario>/` (HOME `home/`, cwd `work/`), so paths in',
    'the files are stable; ids and timestamps change on every recording.',
    '',
    'Each file is `opencode export ID` of one session of the scratch store, byte for byte as the client',
    'printed it (`<ID>.json`); a scenario with a subagent has the child session too. The export document',
    'is what the client itself reads back (`opencode import FILE`); the SQLite store it came from is binary,',
    'holds every other table of the client (an event log, migrations, projects) and is not reproducible',
    'byte for byte, so it is not kept. Nothing was scrubbed or edited by hand.',
    '',
    '| scenario | shows | sessions | part types |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

runIfMain(import.meta.url, {
  tag: 'record:opencode',
  outRoot: path.join(repoRoot(), 'fixtures', 'recorded-opencode'),
  scenarios: opencodeScenarios,
  version: OPENCODE_VERSION,
  install: opencodeBinary,
  record: recordOpencodeScenario,
  readme,
});

