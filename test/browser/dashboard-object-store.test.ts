/**
 * Issue 16: with MAILSURE_LIST_STORE_REDIRECT the results route answers with a redirect to the
 * object store, another origin the dashboard never calls: the page says so in words (and what to
 * use instead) rather than following it. Real Chromium, real HTTPS server, real S3 server (s3rver).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, skipReason, type Browser } from '../helpers/browser.js';
import { startTestS3, type TestS3 } from '../helpers/s3-server.js';
import { startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';

const LONG = 60_000;
let s3: TestS3;
let server: TlsTestApp;
let browser: Browser;
const saved: Record<string, string | undefined> = {};
/** Requests that got an answer, and those that ended without one. */
const finished: string[] = [];
const failed: { url: string; error: string }[] = [];

describe.skipIf(skipReason !== null)(
  `the dashboard with results in an object store${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    beforeAll(async () => {
      s3 = await startTestS3();
      // The AWS credential chain reads the process's environment, as it does in production.
      for (const [name, value] of Object.entries(s3.env(''))) {
        if (!name.startsWith('AWS_')) continue;
        saved[name] = process.env[name];
        process.env[name] = value;
      }
      const storeEnv = Object.fromEntries(Object.entries(s3.env('dashboard')).filter(([name]) => name.startsWith('MAILSURE_')));
      server = await startTlsTestApp({ env: { ...storeEnv, MAILSURE_LIST_STORE_REDIRECT: '1' } });
      browser = await launchBrowser();
      browser.context.on('requestfinished', (request) => finished.push(request.url()));
      browser.context.on('requestfailed', (request) => failed.push({ url: request.url(), error: request.failure()?.errorText ?? '' }));
    }, LONG);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await s3?.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    it('explains that the results are handed out by the object store, and never calls it', async () => {
      const { key } = await server.t.key('ops', { services: 'verification,lists' });
      const origin = `https://127.0.0.1:${server.port}`;
      const page = await browser.context.newPage();
      // Whether the server has an operator view is asked once, before the page offers one.
      const asked = page.waitForResponse(`${origin}/v5/admin/health`);
      await page.goto(`${origin}/dashboard/`);
      // Without MAILSURE_ADMIN_TOKEN there is none: no operator sign-in, no Operator page (issue 26).
      expect((await asked).status()).toBe(404);
      expect(await page.getByRole('link', { name: /Operator/ }).count()).toBe(0);
      await page.getByLabel('API key').fill(key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page
        .getByLabel(/^File/)
        .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from('email\nann@example.com\n') });
      await page.getByRole('button', { name: 'Submit list' }).click();
      await page.getByText(/^List \d+ submitted/).waitFor({ timeout: LONG });
      expect(await page.getByRole('navigation').getByRole('link').allTextContents()).toEqual([
        'Lists',
        'Verify an address',
        'Look a person up',
      ]);
      await page.locator('tbody tr a').first().click();
      await page.getByRole('button', { name: 'Download results' }).waitFor({ timeout: LONG });
      await page.getByRole('button', { name: 'Download results' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent(), { timeout: LONG })
        .toBe(
          'The server hands these results out from its object store (MAILSURE_LIST_STORE_REDIRECT), which this page does not reach: download them with `mailsure lists download` or the API.',
        );
      // Nothing from another origin was answered: the redirect's target was dropped by the browser
      // (Playwright reports it as a request aborted at once), not fetched.
      expect(finished.length).toBeGreaterThan(5);
      expect(finished.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
      expect(failed.map(({ url, error }) => [new URL(url).origin, error])).toEqual([[s3.endpoint, 'net::ERR_ABORTED']]);
      await page.close();
    });
  },
);
