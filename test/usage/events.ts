// The usage events the stats counters emit for a set of session files, read as
// tx-parse reads them, for tests that check what is done with each message.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusFiles, repo } from '../helpers.js';
import { facetOf, loadAll } from '../../lib/codecs.js';
import type { SessionCounter } from '../../lib/codec.js';
import { physicalLine } from '../../lib/core/input/lines.js';
import { parsePhysicalLine } from '../../lib/records/parse-line.js';
import type { Harness } from '../../lib/record.js';
import type { UsageEvent } from '../../lib/usage/event.js';

await loadAll('codec-stats');

/** Every message's usage event (with the cost its counter gave it) in the files, each file on its own counters. */
export function eventsOf(files: string[]): { file: string; event: UsageEvent; nanos: number | null }[] {
  const out: { file: string; event: UsageEvent; nanos: number | null }[] = [];
  for (const file of files) {
    const counters = new Map<string, SessionCounter>();
    let harness: Harness = 'claude-code';
    const text = readFileSync(file);
    const lines: Buffer[] = [];
    for (let start = 0; start < text.length; ) {
      const nl = text.indexOf(0x0a, start);
      lines.push(text.subarray(start, nl < 0 ? text.length : nl));
      start = nl < 0 ? text.length : nl + 1;
    }
    for (const [i, bytes] of lines.entries()) {
      const physical = physicalLine(bytes, i + 1, true);
      for (const parsed of parsePhysicalLine(physical, file, harness)) {
        if (parsed.header.kind === 'invalid') continue;
        harness = parsed.header.harness;
        const codec = facetOf(harness, 'codec-stats');
        let c = counters.get(harness);
        if (!c) counters.set(harness, (c = codec.stats('s', (event, nanos) => out.push({ file, event, nanos }))));
        c.add(parsed.header, parsed.value);
      }
    }
    for (const c of counters.values()) c.flush?.();
  }
  return out;
}

/** Every .jsonl under a folder, sorted (subagent transcripts too). */
function jsonlUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => join(dir, f))
    .sort();
}

/** The real sessions a usage sweep reads: both corpora beside the checkout (when there) and every recording. */
export function usageFiles(): string[] {
  return [...corpusFiles('claude-code'), ...corpusFiles('codex'), ...jsonlUnder(repo('fixtures', 'recorded')), ...jsonlUnder(repo('fixtures', 'recorded-codex'))];
}
