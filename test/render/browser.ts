// Debian's Chromium driven by playwright-core, for the tests that open rendered pages.
// No browser is ever downloaded: without /usr/bin/chromium the tests skip.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';

/** Where Debian's chromium package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null when they can. */
export function browserMissing(): string | null {
  return existsSync(CHROMIUM) ? null : `no ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;
}

/** A headless Chromium with a fresh, empty profile and nothing that talks to the network; close() removes the profile. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(path.join(tmpdir(), 'tx-render-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1100, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export type { Browser };
