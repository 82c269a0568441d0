/**
 * Real headless Chromium for the dashboard's browser tests: Debian's `chromium` package (or the
 * binary MAILSURE_CHROMIUM names) driven by playwright-core, with a fresh profile per launch.
 * Without a browser the tests are skipped, and `skipReason` says why and how to get one.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.MAILSURE_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null when they can. */
export const skipReason: string | null = existsSync(CHROMIUM)
  ? null
  : `no browser at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium; .ci/run does) or set MAILSURE_CHROMIUM to a Chromium binary`;

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A 1280×800 browser trusting the test server's self-signed certificate, with a fresh user-data-dir. */
export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'mailsure-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    ignoreHTTPSErrors: true,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
