/**
 * Records fixtures/recorded-pi/: runs each scenario with the pinned pi client against
 * the mock Messages API, in a fixed scratch folder /tmp/txcript-rec-pi/<scenario>
 * (HOME `home/`, cwd `work/`), then copies the sessions it wrote
 * (`$HOME/.pi/agent/sessions/`) into fixtures/recorded-pi/<scenario>/sessions/.
 *
 *   node build/test/harness/pi/record.js [--out DIR] [SCENARIO…]     (npm run record:pi)
 *   node build/test/harness/pi/record.js --readme
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { jsonlFiles } from '../fixtures.js';
import { repoRoot } from '../pinned.js';
import { startMockApi } from '../mock-api.js';
import { PI_VERSION, classifyPiRequest, piEntry, sessionsDir, writePiConfig } from './cli.js';
import { piScenarios, type PiScenario, type PiScenarioDirs } from './scenarios.js';
import { runIfMain } from '../record-main.js';

export { piScenarios } from './scenarios.js';
export type { PiScenario, PiScenarioDirs } from './scenarios.js';

const REC_ROOT = '/tmp/txcript-rec-pi';

/**
 * What a scenario's sessions show, as tokens: `type:T` (entry types), `role:R` (message
 * roles), `block:B` (content blocks, `block:toolResult>B` inside tool results), `tool:N`
 * (tool calls by name), `error:toolResult`, `stop:S` (assistant stop reasons),
 * `parallel:N` (most tool calls in one message), `compactions:N`, `models:N`
 * (distinct models answering), `branches:N` (entries with the most children), `last:T`
 * (the type of a file's last entry: the leaf).
 */
export function piCensus(dir: string): Set<string> {
  const tokens = new Set<string>();
  for (const file of jsonlFiles(dir)) {
    let compactions = 0;
    const models = new Set<string>();
    const children = new Map<string, number>();
    let last: string | null = null;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as Record<string, any>;
      tokens.add(`type:${e.type}`);
      last = e.type;
      if (typeof e.parentId === 'string') children.set(e.parentId, (children.get(e.parentId) ?? 0) + 1);
      if (e.type === 'compaction') compactions++;
      const m = e.type === 'message' ? e.message : null;
      if (!m) continue;
      tokens.add(`role:${m.role}`);
      if (m.role === 'assistant') {
        models.add(`${m.provider}/${m.model}`);
        tokens.add(`stop:${m.stopReason}`);
      }
      if (m.role === 'toolResult' && m.isError) tokens.add('error:toolResult');
      const blocks = Array.isArray(m.content) ? m.content : [];
      let calls = 0;
      for (const b of blocks) {
        tokens.add(m.role === 'toolResult' ? `block:toolResult>${b.type}` : `block:${b.type}`);
        if (b.type === 'toolCall') {
          calls++;
          tokens.add(`tool:${b.name}`);
        }
      }
      if (calls > 0) tokens.add(`parallel:${calls}`);
    }
    if (compactions > 0) tokens.add(`compactions:${compactions}`);
    if (last !== null) tokens.add(`last:${last}`);
    if (models.size > 0) tokens.add(`models:${models.size}`);
    tokens.add(`branches:${Math.max(1, ...children.values())}`);
  }
  return tokens;
}

/** The expected tokens a recorded scenario folder does not show. */
export function missingPiExpectations(sc: PiScenario, dir: string): string[] {
  const have = piCensus(dir);
  return sc.expects.filter((t) => !have.has(t));
}

/** Run one scenario and copy its sessions into `outRoot/<name>/sessions/`. */
export async function recordPiScenario(sc: PiScenario, outRoot: string): Promise<void> {
  const root = path.join(REC_ROOT, sc.name);
  rmSync(root, { recursive: true, force: true });
  const dirs: PiScenarioDirs = { root, home: path.join(root, 'home'), cwd: path.join(root, 'work') };
  mkdirSync(dirs.cwd, { recursive: true });
  const mock = await startMockApi({ ...sc.script, classify: classifyPiRequest });
  writePiConfig(dirs.home, mock.url, sc.config);
  sc.setup?.(dirs);
  try {
    await sc.run(dirs, mock);
  } finally {
    await mock.close();
    writeFileSync(path.join(root, 'requests.json'), JSON.stringify(mock.requests));
  }
  const sessions = sessionsDir(dirs.home);
  if (!existsSync(sessions)) throw new Error(`${sc.name}: the client wrote no sessions/ folder`);
  const dest = path.join(outRoot, sc.name);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  cpSync(sessions, path.join(dest, 'sessions'), { recursive: true });
  const missing = missingPiExpectations(sc, dest);
  if (missing.length) throw new Error(`recorded, but the sessions do not show ${missing.join(', ')}`);
}

function readme(outRoot: string): string {
  const rows = piScenarios.map((sc) => {
    const have = existsSync(path.join(outRoot, sc.name)) ? [...piCensus(path.join(outRoot, sc.name))].sort() : [];
    const types = have.filter((t) => t.startsWith('type:') || t.startsWith('role:')).map((t) => '`' + t + '`').join(', ');
    return `| ${sc.name} | ${sc.shows.replace(/\|/g, '\\|')} | ${types || '—'} |`;
  });
  return [
    '# Recorded pi sessions',
    '',
    `Sessions written by the real pi coding agent ${PI_VERSION} (\`@mariozechner/pi-coding-agent\`, see`,
    'CLI_VERSION), driven offline with `pi -p` and `pi --mode rpc` against the scripted mock',
    'Messages API in test/harness/mock-api.ts (a custom provider `mock` in models.json).',
    'Re-record all with `npm run record:pi` (or `npm run build && node build/test/harness/pi/record.js NAME…`).',
    'Each scenario ran in `/tmp/txcript-rec-pi/<scenario>/` (HOME `home/`, cwd `work/`), so paths',
    "in the files are stable; session ids, entry ids and timestamps change on every recording. Each",
    "folder mirrors pi's `~/.pi/agent/sessions/--<cwd>--/<timestamp>_<id>.jsonl`. Nothing was",
    'scrubbed or edited by hand. docs/harnesses/pi.md describes the format.',
    '',
    '| scenario | shows | entry types and message roles |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

runIfMain(import.meta.url, {
  tag: 'record:pi',
  outRoot: path.join(repoRoot(), 'fixtures', 'recorded-pi'),
  scenarios: piScenarios,
  version: PI_VERSION,
  install: piEntry,
  record: recordPiScenario,
  readme,
});
