// The check behind test/conformance/opencode-native*.test.ts: a Common session written
// as OpenCode (the OpenCode writer, an export document, `opencode import`) loads in the
// real client, and the conversation `opencode run --session` then sends holds the same
// user texts, assistant texts, tool calls and results, in order. Differences, each named:
// what OpenCode cannot hold (slash commands, the API's own web searches: left out with a
// warning by the writer), and the client sending the reasoning of another model's
// messages as plain text (its rule in toModelMessages). The client resumes with the model
// of the last user message, so the writer is told to name the oracle's (`continueWith`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CommonLine, CommonMessage, CommonSession } from '../../lib/common.js';
import { commonTool } from '../../lib/commands/common.js';
import { parseTool } from '../../lib/commands/parse.js';
import { exportDocumentOf } from '../../lib/opencode/export-file.js';
import { OpencodeWriter } from '../../lib/opencode/from-common.js';
import { resumeExport } from '../harness/opencode/index.js';
import { runTool } from '../helpers.js';
import { itemsOf, type Item } from '../opencode/items.js';
import { clientSide } from './opencode-compare.js';

/** The model the oracle resumes with. */
const RESUMING_MODEL = 'claude-mock';

/** The Common (--active) of a Claude Code or Codex session file, through tx-parse | tx-common. */
export async function commonOfNative(file: string): Promise<CommonLine[]> {
  const records = await runTool(parseTool, [file], []);
  const common = await runTool(commonTool, ['--active'], [records.stdout]);
  return common.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CommonLine);
}

/** The items the client should send for a Common conversation once written as OpenCode. */
export function expectedItems(messages: CommonMessage[]): Item[] {
  const dropped = new Set<string>();
  const out: Item[] = [];
  for (const m of messages) {
    const kept = m.content.filter((b: any) => {
      if (b.type === 'tool_use' && (m.role === 'user' || b.native_type === 'web_search_call')) {
        dropped.add(b.id);
        return false;
      }
      return !(b.type === 'tool_result' && dropped.has(b.tool_use_id));
    });
    // Reasoning of a message of another model goes as text.
    const other = m.role === 'assistant' && (m.model ?? 'unknown') !== RESUMING_MODEL;
    const blocks = other ? kept.flatMap((b: any) => (b.type === 'thinking' ? (b.thinking.trim() ? [{ type: 'text', text: b.thinking }] : []) : b.type === 'redacted_thinking' ? [] : [b])) : kept;
    out.push(...itemsOf([{ role: m.role, content: blocks }]));
  }
  return out;
}

/** A tap test's calls this check makes. */
interface Check {
  teardown(fn: () => void): void;
  fail(msg: string): void;
  same(a: unknown, b: unknown, msg: string): void;
}

/** Write a Common session as OpenCode, load it in the client, and check the conversation it sends. */
export async function checkWrittenSession(t: Check, common: CommonLine[]): Promise<void> {
  const session = common.find((l): l is CommonSession => l.type === 'session')!;
  const messages = common.filter((l): l is CommonMessage => l.type === 'message');
  const writer = new OpencodeWriter(session, { continueWith: { providerID: 'anthropic', modelID: RESUMING_MODEL } });
  const lines: object[] = [writer.info()];
  for (const m of messages) lines.push(...writer.message(m));
  lines.push(...writer.finish());
  const dir = mkdtempSync(path.join(os.tmpdir(), 'txcript-opencode-native-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'session.json');
  writeFileSync(file, [...exportDocumentOf(lines)].join(''));
  const resumed = await resumeExport(file);
  if (!resumed.found) {
    t.fail(`the client did not load the written session: ${resumed.output.slice(0, 600)}`);
    return;
  }
  t.same(resumed.request.model, RESUMING_MODEL, 'the client continues with the model the writer named');
  t.same(itemsOf(clientSide(resumed.messages)), expectedItems(messages), 'the same items, in order');
}
