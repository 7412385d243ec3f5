// tx-render --usage opened in real headless Chromium: uPlot draws both charts from the
// page's data under its Content-Security-Policy (nothing refused, no page error, no
// request), the legend names the models, the tables hold every bucket. The page's
// screenshot is kept in .tap/render/usage.png for a person to look at.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { repo, runBin } from '../helpers.js';
import { usageFiles } from '../usage/events.js';
import { browserMissing, launchChromium } from './browser.js';

const missing = browserMissing();
if (missing) {
  t.comment(`browser tests skipped: ${missing}`);
  t.pass('skipped: no browser');
} else {
  const SHOTS = repo('.tap', 'render');
  mkdirSync(SHOTS, { recursive: true });
  const { context, close } = await launchChromium();
  t.teardown(close);

  t.test('the usage page of every real session by day: both charts drawn, every bucket in the table', async (t) => {
    const stats = await runBin('tx-stats', ['--by', 'day', '--tz', 'UTC', ...usageFiles()]);
    const buckets = stats.stdout.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const r = await runBin('tx-render', ['--usage'], stats.stdout);
    t.equal(r.status, 0, 'tx-render --usage exits 0');
    t.equal(r.stderr, '', 'nothing on stderr');
    const file = path.join(SHOTS, 'usage.html');
    writeFileSync(file, r.stdout);
    const page = await context.newPage();
    const messages: string[] = [];
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => messages.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (req) => {
      if (!req.url().startsWith('file:') && !req.url().startsWith('data:')) requests.push(req.url());
    });
    await page.goto('file://' + file);
    await page.waitForSelector('#cost-chart canvas');
    t.same(errors, [], 'no page errors');
    t.same(messages.filter((m) => /Content Security Policy|Refused/i.test(m)), [], 'the policy refuses nothing on the page');
    t.same(requests, [], 'the page asks the network for nothing');
    t.equal(await page.locator('.chart canvas').count(), 2, 'two charts');
    // A chart is drawn when its canvas has pixels of more than one colour.
    const colours = await page.locator('#cost-chart canvas').evaluate((c) => {
      const canvas = c as HTMLCanvasElement;
      const d = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < d.length; i += 4 * 97) seen.add((d[i] << 24) | (d[i + 1] << 16) | (d[i + 2] << 8) | d[i + 3]);
      return seen.size;
    });
    t.ok(colours > 3, `the cost chart has bars (${colours} colours)`);
    const models = new Set(buckets.flatMap((b) => Object.keys(b.models)));
    const legend = await page.locator('#cost-chart .u-legend').textContent();
    t.ok([...models].every((m) => legend!.includes(m)), `the legend names the ${models.size} models`);
    t.equal(await page.locator('#buckets tbody tr').count(), buckets.length, `${buckets.length} rows, one per bucket`);
    const total = buckets.reduce((a, b) => a + b.cost_usd, 0);
    t.equal(await page.locator('#buckets tfoot td').last().textContent(), total.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }), 'the total row sums the buckets');
    await page.screenshot({ path: path.join(SHOTS, 'usage.png'), fullPage: false });
    await page.close();
  });

  t.test('a model named like markup is shown as text, and runs nothing', async (t) => {
    const name = '<img src=x onerror=alert(1)></script><script>alert(2)</script>';
    const b = { by: 'day', key: '2026-03-01', sessions: 1, messages: 1, tokens: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, cost_usd: 0, models: { [name]: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, messages: 1, cost_usd: null } }, unpriced_models: { [name]: 1 }, session_ids: ['claude-code:s'] };
    const r = await runBin('tx-render', ['--usage'], JSON.stringify(b) + '\n');
    const file = path.join(SHOTS, 'usage-markup.html');
    writeFileSync(file, r.stdout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto('file://' + file);
    await page.waitForSelector('#cost-chart canvas');
    t.same(errors, [], 'no dialog, no error');
    t.equal(await page.locator('#models tbody td').first().textContent(), name, 'the name as text in the table');
    t.ok((await page.locator('#cost-chart .u-legend').textContent())!.includes(name), 'and in the legend');
    t.equal(await page.locator('img').count(), 0, 'no element made from it');
    await page.close();
  });
}
