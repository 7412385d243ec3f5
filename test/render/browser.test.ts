// tx-render's pages opened in real headless Chromium: every Common message is a turn,
// tool calls open and close, search filters, the page's own script runs under its CSP
// while nothing from the transcript runs. A screenshot of each page is kept in
// .tap/render/ for a person to look at.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { repo, runBin } from '../helpers.js';
import { recordedSessionFiles } from '../harness/index.js';
import { browserMissing, launchChromium } from './browser.js';

const missing = browserMissing();
if (missing) {
  t.comment(`browser tests skipped: ${missing}`);
  t.pass('skipped: no browser');
  t.end();
} else {
  const SHOTS = repo('.tap', 'render');
  mkdirSync(SHOTS, { recursive: true });
  const { context, close } = await launchChromium();
  t.teardown(close);

  /** Messages in the Common stream tx-common makes of the same files with the same flags. */
  const commonMessages = async (files: string[], flags: string[]): Promise<number> => {
    const parsed = await runBin('tx-parse', files);
    const common = await runBin('tx-common', flags, parsed.stdout);
    return common.stdout.toString('utf8').split('\n').filter((l) => l.startsWith('{"type":"message"')).length;
  };

  /** Render to a file and open it; collects what the page said on its console and whether it was told to stop anything. */
  const open = async (name: string, args: string[]) => {
    const r = await runBin('tx-render', ['--format', 'html', ...args]);
    const file = path.join(SHOTS, `${name}.html`);
    writeFileSync(file, r.stdout);
    const page = await context.newPage();
    const console: string[] = [];
    const errors: string[] = [];
    page.on('console', (m) => console.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    const requests: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith('file:') && !req.url().startsWith('data:')) requests.push(req.url());
    });
    await page.goto('file://' + file);
    return { page, r, console, errors, requests, file };
  };

  const fixtures = recordedSessionFiles().map((f) => ({ name: 'recorded-' + path.basename(f.split('/projects/')[0]), files: [f] }));
  for (const { name, files } of fixtures) {
    t.test(`${name}: one turn per Common message, calls open and close, search filters`, async (t) => {
      const flags = name.endsWith('subagent') ? ['--subagents'] : [];
      const expected = await commonMessages(files, flags);
      const { page, r, errors, requests } = await open(name, [...flags, ...files]);
      t.equal(r.status, 0, 'tx-render exits 0');
      t.equal(await page.locator('.turn').count(), expected, `${expected} turns, as tx-common has messages`);
      t.same(errors, [], 'no page errors');
      t.same(requests, [], 'the page asks the network for nothing');
      const calls = page.locator('details.tool');
      if ((await calls.count()) > 0) {
        const first = calls.first();
        const summary = first.locator(':scope > summary');
        const before = await first.evaluate((d) => (d as HTMLDetailsElement).open);
        await summary.click();
        t.equal(await first.evaluate((d) => (d as HTMLDetailsElement).open), !before, 'a click on its summary opens the call');
        await summary.click();
        t.equal(await first.evaluate((d) => (d as HTMLDetailsElement).open), before, 'a second click closes it');
      }
      // Search: the first user turn's first word that is not in every turn.
      const total = await page.locator('.turn').count();
      await page.fill('#q', 'zz-no-turn-holds-this-zz');
      await page.waitForFunction(() => document.querySelectorAll('.turn:not(.hidden)').length === 0);
      t.equal(await page.locator('.turn:not(.hidden)').count(), 0, 'a term no turn holds hides every turn');
      const needle = ((await page.locator('.turn .prose').last().textContent()) ?? '').split(/\s+/).find((w) => w.length > 5) ?? 'assistant';
      await page.fill('#q', needle);
      await page.waitForFunction(() => document.querySelectorAll('.turn:not(.hidden)').length > 0);
      const shown = await page.locator('.turn:not(.hidden)').count();
      t.ok(shown > 0 && shown <= total, `"${needle}" shows ${shown} of ${total} turns`);
      t.match(await page.locator('#count').innerText(), total === shown ? `${total} turns` : `${shown} of ${total} turns`, 'the count says how many match');
      await page.fill('#q', '');
      await page.waitForFunction((n) => document.querySelectorAll('.turn:not(.hidden)').length === n, total);
      t.equal(await page.locator('.turn:not(.hidden)').count(), total, 'an empty search shows every turn again');
      await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
      await page.close();
    });
  }

  t.test('subagent: its transcript is moved under the Agent call that dispatched it', async (t) => {
    const file = recordedSessionFiles().find((f) => f.includes('/subagent/'));
    if (!file) return void t.pass('skipped: no recorded subagent fixture');
    const { page } = await open('subagent-nested', ['--subagents', file]);
    const nested = page.locator('details.tool .subagent-slot > section.subagent');
    t.equal(await nested.count(), 1, 'one subagent section inside a tool call');
    const dispatch = await nested.evaluate((s) => s.closest('details.tool')!.querySelector('.tool-name')!.textContent);
    t.equal(dispatch, 'Agent', 'inside the Agent call');
    t.ok((await nested.locator('.turn').count()) > 0, 'with its turns');
    await page.close();
  });

  t.test('image: the PNG a Read returned is shown inline, decoded under the CSP', async (t) => {
    const file = recordedSessionFiles().find((f) => f.includes('/image/'));
    if (!file) return void t.pass('skipped: no recorded image fixture');
    const { page } = await open('image-inline', [file]);
    const img = page.locator('img.inline');
    t.equal(await img.count(), 1, 'one inline image');
    t.equal(await img.getAttribute('src').then((s) => s?.startsWith('data:image/png;base64,')), true, 'as a data: URL');
    await img.evaluate((i) => (i as HTMLImageElement).decode());
    t.ok((await img.evaluate((i) => (i as HTMLImageElement).naturalWidth)) > 0, 'and the browser decoded it');
    await page.close();
  });

  t.test('hostile transcript: markup stays text and nothing from it runs', async (t) => {
    const { page, console, errors, r } = await open('hostile', [repo('fixtures', 'render', 'hostile.common.jsonl')]);
    t.equal(r.status, 0);
    t.equal(await page.locator('.turn').count(), 5, 'five turns for five messages');
    t.equal(await page.evaluate(() => (window as any).__pwned), undefined, 'no content script set the global');
    t.equal(await page.title(), "Hostile </title><script>console.log('PWNED')</script> session", 'the title is the session title, as text');
    t.same(console.filter((m) => m.includes('PWNED')), [], 'no content script wrote to the console');
    t.same(errors, [], 'no page errors, no dialogs');
    t.equal(await page.locator('main script, main img[onerror], main svg, main iframe, main a[href^="javascript"]').count(), 0, 'no script, handler image, svg or script link inside the page body');
    t.equal(await page.locator('img').count(), 0, 'no image shown: the SVG and the malformed ones are only named');
    const text = await page.locator('main').innerText();
    t.ok(text.includes("<script>window.__pwned=1;document.title='PWNED';console.log('PWNED')</script>"), 'the script is shown as text');
    t.ok(text.includes("/tmp/<svg onload=console.log('PWNED')>.html"), 'the file name is shown as text');
    t.ok(text.includes('[click](javascript:'), 'the script link is shown as text');
    // The page's own script did run (by its hash): search works.
    await page.fill('#q', 'orphan');
    await page.waitForFunction(() => document.querySelectorAll('.turn:not(.hidden)').length === 1);
    t.pass('the page script, allowed by hash, filters turns');
    await page.screenshot({ path: path.join(SHOTS, 'hostile.png'), fullPage: true });
    await page.close();
  });

  t.test('dark: the page follows the reader’s colour scheme', async (t) => {
    const file = recordedSessionFiles().find((f) => f.includes('/tools/'));
    if (!file) return void t.pass('skipped: no recorded tools fixture');
    const { page } = await open('tools-dark', [file]);
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    t.not(dark, light, `dark ${dark} differs from light ${light}`);
    await page.click('#theme');
    t.equal(await page.evaluate(() => document.documentElement.getAttribute('data-theme')), 'dark', 'the toggle switches to dark');
    await page.screenshot({ path: path.join(SHOTS, 'tools-dark.png'), fullPage: true });
    await page.close();
  });

  t.test('the screenshot of docs/tx-render.md: the tools fixture with its Bash and Edit calls open (docs/tx-render.png is a copy)', async (t) => {
    const file = recordedSessionFiles().find((f) => f.includes('/tools/'));
    if (!file) return void t.pass('skipped: no recorded tools fixture');
    const { page } = await open('readme', [file]);
    await page.setViewportSize({ width: 900, height: 1500 });
    for (const id of ['#t-toolu_01BashOk000000000000001', '#t-toolu_01Edit0000000000000000001']) await page.locator(`${id} > summary`).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, 'readme.png') });
    t.equal(await page.locator('details.tool[open]').count(), 2, 'two calls open');
    await page.close();
  });
}
