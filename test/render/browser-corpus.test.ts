// Every corpus transcript rendered and opened in headless Chromium: the page loads
// without an error and has one turn per message of the Common stream it came from.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { commonTool } from '../../lib/commands/common.js';
import { parseTool } from '../../lib/commands/parse.js';
import { renderTool } from '../../lib/commands/render.js';
import { corpusFiles, repo, runTool } from '../helpers.js';
import { browserMissing, launchChromium } from './browser.js';

const missing = browserMissing();
const corpus = corpusFiles('claude-code');
if (missing) {
  t.comment(`browser tests skipped: ${missing}`);
  t.pass('skipped: no browser');
} else if (corpus.length === 0) {
  t.comment('no corpus beside the checkout: corpus pages not opened');
  t.pass('skipped: no corpus');
} else {
  const SHOTS = repo('.tap', 'render');
  mkdirSync(SHOTS, { recursive: true });
  const { context, close } = await launchChromium();
  t.teardown(close);
  for (const file of corpus) {
    t.test(path.basename(file), async (t) => {
      const records = (await runTool(parseTool, [], [readFileSync(file)])).stdout;
      const common = (await runTool(commonTool, [], [records])).stdout;
      const expected = common.toString('utf8').split('\n').filter((l) => l.startsWith('{"type":"message"')).length;
      const r = await runTool(renderTool, [], [common]);
      t.equal(r.status, 0, 'exit 0');
      t.notMatch(r.stderr, /internal error/, 'no internal error');
      const page = path.join(SHOTS, `corpus-${path.basename(file, '.jsonl').slice(0, 60)}.html`);
      writeFileSync(page, r.stdout);
      const tab = await context.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      await tab.goto('file://' + page);
      t.equal(await tab.locator('.turn, .anchor-only').count(), expected, `${expected} turns and anchors of messages shown inside calls`);
      const turns = await tab.locator('.turn').count();
      t.equal(await tab.locator('#count').textContent(), `${turns} turns`, 'the page script ran and counted them');
      t.same(errors, [], 'no page errors');
      await tab.close();
    });
  }
}
