// Feeding a pi session file to the codec's converter directly, for the unit tests (the
// conformance tests run the tools): each line parsed (a line that is not JSON is skipped, as
// tx-parse makes it an invalid record the converter never sees), then pushed in order.
import { readFileSync } from 'node:fs';
import type { CommonLine, CommonMessage, CommonSession } from '../../lib/common.js';
import { PiToCommon } from '../../lib/pi/to-common.js';

/** The parsed lines of a session file (numbered from 1), without the ones that are not JSON. */
export function piLines(file: string): { n: number; line: unknown }[] {
  const out: { n: number; line: unknown }[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (text.trim() === '') return;
      try {
        out.push({ n: i + 1, line: JSON.parse(text) });
      } catch {
        // an invalid record
      }
    });
  return out;
}

/** The Common stream of parsed lines (one session). */
export function commonOfLines(lines: unknown[], active: boolean, src?: string): CommonLine[] {
  const c = new PiToCommon({ active, src });
  try {
    lines.forEach((line, i) => c.push(line, i + 1));
    const out: CommonLine[] = [];
    for (const text of c.finish()) out.push(JSON.parse(text) as CommonLine);
    return out;
  } finally {
    c.dispose();
  }
}

/** The Common session line and messages of a session file. */
export function piCommonOf(file: string, active = true): { session: CommonSession; messages: CommonMessage[] } {
  const c = new PiToCommon({ active, src: file });
  try {
    for (const { n, line } of piLines(file)) c.push(line, n);
    const lines = [...c.finish()].map((t) => JSON.parse(t) as CommonLine);
    return { session: lines[0] as CommonSession, messages: lines.slice(1) as CommonMessage[] };
  } finally {
    c.dispose();
  }
}
