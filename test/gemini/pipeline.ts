/**
 * A Gemini chat file the way a user handles it, through the tools in process:
 * `tx-parse FILE | tx-common [--active]` to Common, and a Common stream through
 * `tx-native --harness gemini` (on stdout, or `--install` into a store).
 */
import { commonTool } from '../../lib/commands/common.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import type { CommonLine, CommonMessage, CommonSession } from '../../lib/common.js';
import { runTool, type BinResult } from '../helpers.js';

/** The Common stream of a session file: tx-parse FILE | tx-common [--active]. */
export async function commonOf(file: string, active = true): Promise<{ session: CommonSession; messages: CommonMessage[]; text: Buffer }> {
  const parsed = await runTool(parseTool, [file], []);
  const common = await runTool(commonTool, active ? ['--active'] : [], [parsed.stdout]);
  const lines = common.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CommonLine);
  return { session: lines[0] as CommonSession, messages: lines.filter((l): l is CommonMessage => l.type === 'message'), text: common.stdout };
}

/** A Common stream written by tx-native --harness gemini with `args` (`--install …`, `--session-id …`). */
export function nativeGemini(common: Buffer | string, args: string[]): Promise<BinResult> {
  return runTool(nativeTool, ['--harness', 'gemini', ...args], [common]);
}
