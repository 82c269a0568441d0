/**
 * Issue 28: the dashboard's "Verify an address" page shows a verdict's evidence as a readable
 * timeline, in real headless Chromium against a real HTTPS server verifying in the test world
 * (real DNS and SMTP servers on loopback). Its screenshot is docs/images/dashboard-verify-evidence.png
 * (written again with MAILSURE_UPDATE_DOC_IMAGES=1).
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, skipReason, type Browser } from '../helpers/browser.js';
import { LOW_CONTRAST, UNLABELLED } from '../helpers/page-checks.js';
import { startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';

if (skipReason) console.warn(`dashboard evidence browser test skipped: ${skipReason}`);

const SCREENSHOTS = resolve(process.env.MAILSURE_SCREENSHOT_DIR ?? 'test-output/dashboard');
const DOC_IMAGE = resolve('docs/images/dashboard-verify-evidence.png');
const LONG = 60_000;

let world: TestWorld;
let server: TlsTestApp;
let browser: Browser;

describe.skipIf(skipReason !== null)('the verify page’s evidence in headless Chromium', () => {
  beforeAll(async () => {
    world = await startTestWorld();
    server = await startTlsTestApp({
      env: {
        ...world.env,
        MAILSURE_VERIFY_DEPTH: 'mailbox',
        MAILSURE_SMTP_FROM: 'verify@probe.mailsure-test.com',
        MAILSURE_SMTP_HELO: 'probe.mailsure-test.com',
      },
    });
    browser = await launchBrowser();
    await mkdir(SCREENSHOTS, { recursive: true });
  }, LONG);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await world?.close();
  });

  it('shows the rule, the stages and this call’s SMTP conversation as a timeline', { timeout: LONG }, async () => {
    const { key } = await server.t.key('explained', { services: 'verification', evidence: true });
    const page = await browser.context.newPage();
    await page.goto(`https://127.0.0.1:${server.port}/dashboard`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Verify an address' }).click();
    await page.getByLabel('Email address').fill(world.addresses.unknown);
    await page.getByLabel(/Show the evidence/).check();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Why' }).waitFor({ timeout: LONG });

    expect(await page.locator('[data-rule]').getAttribute('data-rule')).toBe('mailbox.unknown-user');
    expect(await page.locator('[data-rule]').textContent()).toContain('the MX refused the address as unknown');
    expect(await page.locator('.stages li').evaluateAll((items) => items.map((li) => li.getAttribute('data-stage')))).toEqual([
      'syntax',
      'prober-health',
      'dns',
      'provider',
      'catch-all',
      'mailbox',
    ]);
    expect(await page.getByRole('heading', { name: /^mx\.mailbox-ok\.com/ }).textContent()).toContain('egress egress-1');
    const address = page.locator('.transcript li[data-role="address"]');
    expect(await address.textContent()).toMatch(new RegExp(`RCPT TO:<${world.addresses.unknown}>.*the address.*550 5\\.1\\.1`));
    expect(await page.locator('.transcript li[data-role="our-sender"]').textContent()).toContain(
      'MAIL FROM:<verify@probe.mailsure-test.com>',
    );
    expect(await page.locator('.transcript li[data-role="catch-all-probe"]').textContent()).toMatch(
      /RCPT TO:<[a-z0-9]{14}@mailbox-ok\.com>/,
    );
    expect(await page.evaluate(UNLABELLED)).toEqual([]);
    expect(await page.evaluate(LOW_CONTRAST)).toEqual([]);

    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.screenshot({ path: join(SCREENSHOTS, '12-verify-evidence.png'), fullPage: true });
    if (process.env.MAILSURE_UPDATE_DOC_IMAGES === '1') await page.screenshot({ path: DOC_IMAGE, fullPage: true });
    await page.close();
  });

  it('says so when the key has no evidence permission', { timeout: LONG }, async () => {
    const { key } = await server.t.key('plain', { services: 'verification' });
    const page = await browser.context.newPage();
    await page.goto(`https://127.0.0.1:${server.port}/dashboard`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Verify an address' }).click();
    await page.getByLabel('Email address').fill(world.addresses.known);
    await page.getByLabel(/Show the evidence/).check();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('No evidence: this key does not have the evidence permission.').waitFor({ timeout: LONG });
    expect(await page.locator('[data-code]').textContent()).toMatch(/^Code 50:/);
    await page.close();
  });
});
