/**
 * Issue 32: the operator view's accuracy from outcomes in real headless Chromium: a chart per
 * verdict class of what the ESPs reported later, in all and for one ESP, over a real HTTPS server
 * whose outcome store holds known accuracy counts.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutcomeWrite } from '../../src/outcomes/outcome-store.js';
import { launchBrowser, skipReason, type Browser } from '../helpers/browser.js';
import { startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';

const ADMIN_TOKEN = 'dashboard-outcomes-admin-token-0123456789abcdef';
const LONG = 60_000;
let server: TlsTestApp;
let browser: Browser;

/** `count` accuracy writes: outcomes of `kind` reported by `source` after a verdict of `code`. */
function outcomes(
  prefix: string,
  count: number,
  code: number,
  kind: 'bounce' | 'delivery' | 'complaint',
  source: 'sendgrid' | 'ses',
): OutcomeWrite[] {
  const day = new Date().toISOString().slice(0, 10);
  return Array.from({ length: count }, (_, i) => ({ eventId: `${prefix}-${i}`, accuracy: { day, code, kind, source } }));
}

describe.skipIf(skipReason !== null)(`the dashboard's accuracy from outcomes${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  beforeAll(async () => {
    server = await startTlsTestApp({ env: { MAILSURE_ADMIN_TOKEN: ADMIN_TOKEN } });
    const keyId = (await server.t.key('sender')).record.id;
    await server.t.storage.outcomes.apply(
      keyId,
      [
        ...outcomes('a', 7, 50, 'delivery', 'sendgrid'),
        ...outcomes('b', 2, 50, 'bounce', 'sendgrid'),
        ...outcomes('c', 3, 50, 'bounce', 'ses'),
        ...outcomes('d', 4, 45, 'delivery', 'ses'),
        ...outcomes('e', 1, 400, 'delivery', 'ses'),
        ...outcomes('f', 1, 410, 'complaint', 'sendgrid'),
      ],
      new Date().toISOString(),
    );
    browser = await launchBrowser();
  }, LONG);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A chart's bars by label, as the page shows them. */
  async function bars(page: Page, chart: string): Promise<Record<string, number>> {
    const rows = page.locator(`[data-chart="${chart}"] tr[data-label]`);
    const out: Record<string, number> = {};
    for (const row of await rows.all()) out[(await row.getAttribute('data-label'))!] = Number(await row.getAttribute('data-count'));
    return out;
  }
  const kinds = (bounce: number, delivery: number, complaint = 0) => ({
    'hard bounce': bounce,
    'soft bounce': 0,
    blocked: 0,
    complaint,
    delivered: delivery,
  });

  it('shows, per verdict class, what every ESP or one of them reported later', async () => {
    const page = await browser.context.newPage();
    await page.goto(`https://127.0.0.1:${server.port}/dashboard/#/operator`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Open the operator view' }).click();
    await page.getByRole('heading', { name: 'Accuracy from outcomes' }).waitFor({ timeout: LONG });
    expect(await page.locator('[data-outcomes-total]').getAttribute('data-outcomes-total')).toBe('18');
    expect(await bars(page, '50-safe-to-send')).toEqual(kinds(5, 7));
    expect(await bars(page, '45-catch-all')).toEqual(kinds(0, 4));
    expect(await bars(page, 'invalid-every-invalid-code-')).toEqual(kinds(0, 1, 1));
    expect(await bars(page, '5-no-answer-in-time')).toEqual(kinds(0, 0));

    await page.getByLabel('ESP').selectOption('ses');
    await expect.poll(() => bars(page, '50-safe-to-send')).toEqual(kinds(3, 0));
    expect(await bars(page, 'invalid-every-invalid-code-')).toEqual(kinds(0, 1));
    await page.getByLabel('ESP').selectOption('sendgrid');
    await expect.poll(() => bars(page, '50-safe-to-send')).toEqual(kinds(2, 7));
    expect(await bars(page, '45-catch-all')).toEqual(kinds(0, 0));
    await page.close();
  });
});
