// tx-stats leaves the strings named in STATS_UNREAD unparsed. This proves the counters
// never read them: every corpus session counted from skimmed lines has the summary it
// has when counted from fully parsed lines.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import t from 'tap';
import { claudeEnvelope } from '../../lib/claude-code/codec.js';
import { SessionStats, STATS_UNREAD } from '../../lib/claude-code/session-stats.js';
import { parseSkimmed } from '../../lib/core/skim.js';
import { parsePhysicalLine } from '../../lib/parse-line.js';
import { corpusFiles } from '../helpers.js';

const files = corpusFiles('claude-code');

t.test('skimmed lines count as whole lines do, over the corpus', { skip: files.length === 0 ? 'no ../shared/corpus/claude-code beside the checkout' : false }, async (t) => {
  for (const file of files) {
    const whole = new SessionStats(null);
    const skimmed = new SessionStats(null);
    const text = readFileSync(file);
    let n = 0;
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf(0x0a, start);
      if (end < 0) end = text.length;
      const bytes = text.subarray(start, end);
      n++;
      for (const rec of parsePhysicalLine({ bytes, n, bom: false, crlf: false, eol: true } as any, file, 'claude-code')) {
        if (rec.header.kind === 'invalid' || !rec.lineBytes) continue;
        const line = parseSkimmed(rec.lineBytes, 0, rec.lineBytes.length, STATS_UNREAD);
        t.equal(claudeEnvelope(line).session, claudeEnvelope(rec.value).session);
        whole.add(rec.header, rec.value);
        skimmed.add(rec.header, line);
      }
      start = end + 1;
    }
    t.same(skimmed.summary(), whole.summary(), basename(file));
  }
});
