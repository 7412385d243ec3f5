/**
 * A session of another harness continued in Codex, with the real client: its file goes
 * through `tx-parse | tx-common --active | tx-native --harness codex --install` into a
 * scratch CODEX_HOME, and `codex exec resume ID` loads it. What the client must send is
 * the Common conversation made continuable and mapped as tx-native(1) documents
 * (mappedForCodex of codex-items.ts), compared in the normal form of codex-compare.ts.
 * Used by codex-native and gemini-to-codex.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test as Tap } from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import type { CommonLine, CommonMessage } from '../../lib/common.js';
import type { Harness } from '../../lib/record.js';
import { EXEC_FLAGS, runCodex, startMockResponses, writeCodexConfig } from '../harness/codex/index.js';
import type { InputItem } from '../harness/codex/index.js';
import { rolloutProvider } from '../harness/codex/oracle.js';
import { continued, filesUnder, runTool } from '../helpers.js';
import { CODEX_PROMPT, abortedAtCalls, clientSide, omittedImages } from './codex-compare.js';
import { mappedForCodex, pairedByClient, truncatedByClient } from './codex-items.js';

/** The id of the installed copy. */
export const SESSION = '7e1d0f5a-0000-4000-8000-00000000c0de';

/** What one conversion and resume gave, with the Common messages converted. */
export type Outcome = { messages: CommonMessage[] } & ({ installed: true; input: InputItem[] | null; output: string } | { installed: false; status: number | null; stderr: string; leftFiles: string[] });

/** A scratch HOME (CODEX_HOME = HOME/.codex) and working directory outside any repository. */
export function scratchHome(prefix: string): { scratch: string; home: string; codexHome: string; cwd: string } {
  const scratch = mkdtempSync(path.join(tmpdir(), prefix));
  const home = path.join(scratch, 'home');
  const cwd = path.join(scratch, 'work');
  mkdirSync(cwd, { recursive: true });
  return { scratch, home, codexHome: path.join(home, '.codex'), cwd };
}

/**
 * Convert `file` through Common (tx-parse | tx-common --active | tx-native --harness codex
 * --install, in process) into a scratch CODEX_HOME and resume it there. The home is
 * configured first, with the provider the original names (openai for a session of
 * another harness), as the original is resumed: the copy names the provider of the home
 * it is installed into.
 */
export async function convertAndResume(file: string): Promise<Outcome> {
  const { scratch, home, codexHome, cwd } = scratchHome('txcript-codex-native-');
  const mock = await startMockResponses({});
  try {
    writeCodexConfig(codexHome, mock.url, { provider: rolloutProvider(readFileSync(file, 'utf8')) });
    const parsed = await runTool(parseTool, [file], []);
    const common = await runTool(commonTool, ['--active'], [parsed.stdout]);
    const lines = common.stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CommonLine);
    const messages = lines.filter((l): l is CommonMessage => l.type === 'message');
    const native = await runTool(nativeTool, ['--harness', 'codex', '--install', '--config-dir', codexHome, '--cwd', cwd, '--session-id', SESSION], [common.stdout]);
    const left = filesUnder(path.join(codexHome, 'sessions'));
    if (native.status !== 0 || left.length === 0) return { messages, installed: false, status: native.status, stderr: native.stderr, leftFiles: left };
    const r = await runCodex({ args: ['exec', ...EXEC_FLAGS, 'resume', SESSION, CODEX_PROMPT], home, cwd });
    const req = mock.responsesRequests()[0];
    return { messages, installed: true, input: req?.body?.input ?? null, output: `exit ${r.code}\n${r.stdout}${r.stderr}` };
  } finally {
    await mock.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * What a session continued in Codex must show: a refusal said clearly with nothing left
 * behind, or the client sending the conversation of `harness`'s session, made continuable
 * and mapped, item for item.
 */
export function assertMapped(t: Tap, o: Outcome, harness: Harness): void {
  if (!o.installed) {
    // A session tx-native will not hand the client: said clearly, and nothing left behind.
    t.match(o.stderr, /^tx-native: .+/m, `refused with a message: ${o.stderr.trim().split('\n').pop()}`);
    if (o.status === 0) t.match(o.stderr, /has no message the client could load: not installed/, 'a session with nothing to load is said to be not installed');
    t.not(o.stderr, /\n\s+at .+\(.+:\d+:\d+\)/, 'no stack trace');
    t.same(o.leftFiles, [], 'nothing installed');
    return;
  }
  if (o.input === null) {
    t.fail(`the client sent nothing for the installed session: ${o.output.slice(0, 600)}`);
    return;
  }
  // tx-native writes the conversation made continuable (tx-native(1), Continuable): calls answered, stray results as text.
  const session = { type: 'session', harness, id: SESSION };
  const expected = abortedAtCalls(pairedByClient(mappedForCodex(continued([session, ...o.messages], 'codex').slice(1))));
  const client = clientSide(o.input, expected.length);
  t.ok(client.base, 'the request opens with the base instructions');
  const theirs = abortedAtCalls(client.items);
  const ours = truncatedByClient(omittedImages(expected, theirs), theirs);
  t.equal(theirs.length, ours.length, 'as many items as the mapped conversation');
  for (let k = 0; k < Math.max(ours.length, theirs.length); k++) if (!t.same(theirs[k], ours[k], `item ${k + 1} (${ours[k]?.type ?? theirs[k]?.type})`)) break;
}
