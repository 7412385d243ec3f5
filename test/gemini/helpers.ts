/**
 * Reading a Gemini chat file through the codec modules directly (the registry does not
 * know the harness yet): each line parsed as tx-parse would (a line that is not JSON
 * is passed over, as the client passes it over), fed to the converter or the writer.
 */
import { readFileSync } from 'node:fs';
import type { CommonLine, CommonMessage, CommonSession } from '../../lib/common.js';
import { CommonToGemini } from '../../lib/gemini/from-common.js';
import { GeminiToCommon } from '../../lib/gemini/to-common.js';

/** The parsed JSON lines of a file (lines that are not JSON left out). */
export function jsonLines(file: string): unknown[] {
  const out: unknown[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // as the client: an unreadable line is skipped
    }
  }
  return out;
}

/** The Common stream of parsed chat lines: the session line, then the messages. */
export function commonOfLines(lines: unknown[], active: boolean, src?: string): { session: CommonSession; messages: CommonMessage[] } {
  const c = new GeminiToCommon({ src, active });
  try {
    for (const l of lines) c.push(l);
    const out = [...c.finish()].map((s) => JSON.parse(s) as CommonLine);
    return { session: out[0] as CommonSession, messages: out.slice(1) as CommonMessage[] };
  } finally {
    c.dispose();
  }
}

/** The Common stream of a chat file. */
export function geminiCommonOf(file: string, active = true): { session: CommonSession; messages: CommonMessage[] } {
  return commonOfLines(jsonLines(file), active, file);
}

/** A Common session written as chat lines (each line as the JSON object the writer made), with the writer's warnings. */
export function writeGemini(session: CommonSession, messages: CommonMessage[], sessionId: string, cwd?: string): { lines: object[]; warnings: string[] } {
  const w = new CommonToGemini(session, { sessionId, cwd });
  const lines: object[] = [];
  for (const m of messages) lines.push(...w.message(m));
  lines.push(...w.finish());
  return { lines, warnings: w.warnings };
}
