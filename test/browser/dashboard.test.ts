/**
 * Issue 16: the web dashboard in real headless Chromium against a real HTTPS server on loopback:
 * sign-in, a 1,000-row list from upload to the downloaded results, purchase, cancel, verify one
 * address, a bad key, an upload the API refuses; no request to another origin; a screenshot of each
 * page at 1280×800 in the folder printed at the end (MAILSURE_SCREENSHOT_DIR, default
 * test-output/dashboard/). Issue 26: progress as records, a 2,000-row report with every status
 * that fits at 1,280 and 390 px and says why records are unknown, no false "report appears here",
 * the new key's webhook secret.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';
import { launchBrowser, skipReason, type Browser } from '../helpers/browser.js';
import { unzip } from '../helpers/unzip.js';
import { LOW_CONTRAST, UNLABELLED } from '../helpers/page-checks.js';
import { CODE_ENTRIES } from '../../src/verification/codes.js';
import { newPerson } from '../../src/storage/contract/people-fixtures.js';
import { writeZip } from '../../src/lists/test-support.js';
import type { ListPatch } from '../../src/lists/list-record.js';
import { countValidation, validationReport } from '../../src/lists/reporting.js';
import type { ValidationOutcome } from '../../src/lists/validation-outcome.js';
import { peopleBatch } from '../helpers/people.js';

if (skipReason) console.warn(`dashboard browser tests skipped: ${skipReason}`);

const SCREENSHOTS = resolve(process.env.MAILSURE_SCREENSHOT_DIR ?? 'test-output/dashboard');
const ADMIN_TOKEN = 'dashboard-test-admin-token-0123456789abcdef';
/** Lists finish in a second or two here; the bound only stops a broken run from hanging. */
const LONG = 60_000;

let server: TlsTestApp;
let browser: Browser;
let origin: string;
/** Every URL any page of the browser asked for. */
const requested: string[] = [];
/** Every request with its method and when it left, for the polling pace. */
const timeline: { method: string; url: string; at: number }[] = [];

describe.skipIf(skipReason !== null)(`the dashboard in headless Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  beforeAll(async () => {
    server = await startTlsTestApp({ env: { MAILSURE_LIST_MAX_MB: '5', MAILSURE_ADMIN_TOKEN: ADMIN_TOKEN } });
    origin = `https://127.0.0.1:${server.port}`;
    browser = await launchBrowser();
    browser.context.on('request', (request) => {
      requested.push(request.url());
      timeline.push({ method: request.method(), url: request.url(), at: Date.now() });
    });
    await mkdir(SCREENSHOTS, { recursive: true });
  }, LONG);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    console.log(`dashboard screenshots (1280×800): ${SCREENSHOTS}`);
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

  async function signIn(key: string): Promise<Page> {
    const page = await browser.context.newPage();
    await page.goto(`${origin}/dashboard`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in once the shell shows: a caller's own page.goto before then would load the page
    // afresh while the sign-in call is in flight, and the key would not be kept (seen under load).
    await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: LONG });
    return page;
  }

  async function upload(page: Page, name: string, content: string | Buffer, options: { report?: boolean; drop?: boolean } = {}) {
    const bytes = Buffer.from(content);
    if (options.drop) {
      // Dropped on the drop zone, as a person drags a file from their desktop.
      const file = `new File([new Uint8Array(${JSON.stringify([...bytes])})], ${JSON.stringify(name)})`;
      const dataTransfer = await page.evaluateHandle(`(() => { const dt = new DataTransfer(); dt.items.add(${file}); return dt; })()`);
      await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer });
      await page.getByText(`Selected: ${name}`).waitFor();
    } else {
      await page.getByLabel(/^File/).setInputFiles({ name, mimeType: 'text/csv', buffer: bytes });
    }
    if (options.report) await page.getByLabel(/Report only/).check();
    await page.getByRole('button', { name: 'Submit list' }).click();
  }

  /** Submits, then opens the new list from the table. */
  async function submitAndOpen(
    page: Page,
    name: string,
    content: string | Buffer,
    options: { report?: boolean; drop?: boolean } = {},
  ): Promise<number> {
    await upload(page, name, content, options);
    const status = page.getByRole('status');
    await expect.poll(() => status.textContent(), { timeout: LONG }).toMatch(/^List \d+ submitted/);
    const id = Number(/List (\d+)/.exec((await status.textContent())!)![1]);
    await page.locator(`tr[data-list-id="${id}"] a`).click();
    return id;
  }

  const state = (page: Page) => page.locator('#list-state [data-state]').getAttribute('data-state');

  /**
   * A list put in the store in a given state, as the pipeline leaves lists there: for states a real
   * list passes too quickly to catch (Pending part-way, Cancelled before any report) and reports
   * no test-world list gives whole. `committed`: records of the chunks done, the running services' progress.
   */
  async function storedList(keyId: number, name: string, patch: ListPatch, committed = 0): Promise<number> {
    const lists = server.t.storage.lists;
    const list = await lists.create({
      keyId,
      name,
      format: 'csv',
      delimiter: null,
      header: true,
      emailColumn: null,
      report: false,
      fields: null,
      callbackUrl: null,
      sizeBytes: 4_096,
      createdAt: new Date().toISOString(),
    });
    await lists.update(list.id, patch);
    if (committed) await lists.commitChunk(list.id, { index: 0, records: committed, counts: {}, results: '' });
    return list.id;
  }

  /** No horizontal scroll: the page is no wider than the window. */
  const overflow = (page: Page) =>
    page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

  it('refuses a bad key with the API’s message, and stays on the sign-in page', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${origin}/dashboard/`);
    await shot(page, '01-sign-in');
    await page.getByLabel('API key').fill('not-a-key-0123456789');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: LONG }).toBe('Invalid API key');
    expect(await page.getByLabel('API key').isVisible()).toBe(true);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await page.close();
  });

  it('takes a 1,000-row list from upload to Results, charts its report and downloads its rows', async () => {
    const { key } = await server.t.key('ops', { services: 'verification,lists' });
    const rows = Array.from({ length: 1000 }, (_, i) =>
      i % 10 === 9 ? `broken${i}-at-example.com,Bad ${i}` : `person${i}@example.com,Person ${i}`,
    );
    const csv = `Email,Name\n${rows.join('\n')}\n`;

    const page = await signIn(key);
    await page.getByRole('heading', { name: 'Lists', exact: true }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('mailsure.apiKey')")).toBe(key);
    expect(await page.evaluate('localStorage.length')).toBe(0);
    const id = await submitAndOpen(page, 'people.csv', csv);

    await expect.poll(() => state(page), { timeout: LONG, interval: 250 }).toBe('Results');
    // The progress bar is full, and the report is drawn from the API's own numbers.
    const bar = page.getByRole('progressbar');
    expect(await bar.getAttribute('value')).toBe('1000');
    expect(await bar.getAttribute('max')).toBe('1000');
    const api = (await server.t.app.inject({ url: `/v5/list/${id}`, headers: { api_key: key } })).json() as {
      services: { email_validation: { reporting: { statuses: Record<string, number> } } };
    };
    const statuses = page.locator('[data-chart="statuses"] tbody tr');
    const drawn = Object.fromEntries(
      await statuses.evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-label'), Number(tr.getAttribute('data-count'))])),
    );
    expect(drawn).toEqual(api.services.email_validation.reporting.statuses);
    expect(drawn.Invalid).toBe(100);
    expect(await page.locator('[data-chart="invalid-categories"] tr[data-label="Syntax Errors"]').getAttribute('data-count')).toBe('100');
    await shot(page, '03-list-report');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download results' }).click()]);
    expect(download.suggestedFilename()).toBe(`people-${id}-Service.zip`);
    const files = await unzip(await readFile((await download.path())!));
    const lines = files[`people-${id}-Service.csv`]!.trim().split(/\r?\n/);
    expect(lines).toHaveLength(1001);
    expect(lines[0]).toBe('Email,Name,Validation Status,Validation Code,Domain Type,Role Account,Duplicate,Valid Email');
    expect(lines[1]!.startsWith('person0@example.com,Person 0,')).toBe(true);
    expect(lines[10]!.startsWith('broken9-at-example.com,Bad 9,invalid,')).toBe(true);
    expect(lines.filter((line) => line.split(',')[2] === 'invalid')).toHaveLength(100);

    await page.getByRole('link', { name: '← All lists' }).click();
    await page.locator(`tr[data-list-id="${id}"] [data-state="Results"]`).waitFor();
    await shot(page, '02-lists');
    await page.close();
  });

  it('purchases a report-only list: Processed, then Results', async () => {
    const { key } = await server.t.key('buyer', { services: 'verification,enrichment,lists', fields: 'age' });
    const page = await signIn(key);
    const id = await submitAndOpen(page, 'report.csv', 'email,first\nkate@example.com,Kate\njoe@example.com,Joe\n', { report: true });
    await expect.poll(() => state(page), { timeout: LONG, interval: 250 }).toBe('Processed');
    expect(await page.locator('[data-chart="matched-enrichment-fields"]').isVisible()).toBe(true);
    // Two records through two services: two records done, not four (issue 26), and each service's own.
    expect(await page.locator('#list-state ~ .progress [data-progress]').textContent()).toBe('2 of 2 records');
    expect(await page.locator('#list-state ~ .progress [data-service-progress]').textContent()).toBe(
      'Verification 2 of 2 · Enrichment 2 of 2',
    );
    await shot(page, '04-purchase');
    // Let the page poll the waiting list once more (Processed still has a Retry-After) before buying.
    const statusGets = () => timeline.filter((r) => r.method === 'GET' && r.url === `${origin}/v5/list/${id}`).length;
    await expect.poll(statusGets, { timeout: LONG, interval: 250 }).toBeGreaterThanOrEqual(2);
    await page.getByRole('button', { name: 'Purchase results' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: LONG }).toBe('Purchased: the list is being completed.');
    await expect.poll(() => state(page), { timeout: LONG, interval: 250 }).toBe('Results');
    expect(await page.getByRole('button', { name: 'Download results' }).isVisible()).toBe(true);
    // Polling kept to the server's Retry-After (5 s): two status requests in a row, with nothing
    // done to the list between them, are at least that far apart (a loaded machine only widens it).
    const calls = timeline.filter((r) => r.url.startsWith(`${origin}/v5/list/${id}`));
    const gaps = calls.slice(1).flatMap((r, i) => (r.method === 'GET' && calls[i]!.method === 'GET' ? [r.at - calls[i]!.at] : []));
    expect(gaps.length).toBeGreaterThan(0);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(4_900);
    await page.close();
  });

  it('cancels a zipped list dropped on the page, after asking, and offers no download', async () => {
    const { key } = await server.t.key('canceller', { services: 'verification,enrichment,lists', fields: 'age' });
    const zipPath = join(server.t.dataDir, 'cancel.zip');
    await writeZip(zipPath, [{ name: 'cancel.csv', data: 'email,first\nkate@example.com,Kate\n' }]);
    const page = await signIn(key);
    await page.getByRole('heading', { name: 'Lists', exact: true }).waitFor();
    const id = await submitAndOpen(page, 'cancel.zip', await readFile(zipPath), { report: true, drop: true });
    await expect.poll(() => page.locator('main h1').textContent(), { timeout: LONG }).toBe('cancel.zip');
    await expect.poll(() => state(page), { timeout: LONG, interval: 250 }).toBe('Processed');
    await page.getByRole('button', { name: 'Cancel list' }).click();
    await page.getByRole('button', { name: 'Yes, cancel the list' }).click();
    await expect.poll(() => state(page), { timeout: LONG }).toBe('Cancelled');
    expect(await page.getByRole('button', { name: 'Download results' }).count()).toBe(0);
    expect(((await server.t.app.inject({ url: `/v5/list/${id}`, headers: { api_key: key } })).json() as { status: string }).status).toBe(
      'Cancelled',
    );
    await page.close();
  });

  it('reads progress as records: the least advanced service, each service’s own, and “in progress” beside Pending', async () => {
    const { key: apiKey, record } = await server.t.key('progress', { services: 'verification,enrichment,email_append,lists' });
    const running = { status: 'Processing' as const };
    const id = await storedList(
      record.id,
      'running.csv',
      {
        status: 'Pending',
        records: 298,
        services: {
          email_validation: { ...running, inputCount: 298 },
          email_intelligence: { ...running, inputCount: 298 },
          email_append: { ...running, inputCount: 120 },
        },
      },
      150,
    );
    const waiting = await storedList(record.id, 'waiting.csv', {
      status: 'Pending',
      records: 10,
      services: { email_validation: { status: 'Pending', inputCount: 10 } },
    });
    const page = await signIn(apiKey);
    const row = page.locator(`tr[data-list-id="${id}"]`);
    await row.waitFor({ timeout: LONG });
    // This server has MAILSURE_ADMIN_TOKEN: its Operator page is offered (hidden without it: dashboard-object-store.test.ts).
    await page.getByRole('navigation').getByRole('link', { name: 'Operator' }).waitFor({ timeout: LONG });
    expect(await row.locator('[data-state]').textContent()).toBe('Pending');
    expect(await row.locator('[data-in-progress]').textContent()).toBe(' in progress');
    expect(await row.locator('[data-progress]').textContent()).toBe('150 of 298 records');
    expect(await row.locator('[data-service-progress]').textContent()).toBe(
      'Verification 150 of 298 · Enrichment 150 of 298 · Email append 120 of 120',
    );
    const bar = row.getByRole('progressbar');
    expect([await bar.getAttribute('value'), await bar.getAttribute('max')]).toEqual(['150', '298']);
    // Not begun: Pending alone.
    expect(await page.locator(`tr[data-list-id="${waiting}"] [data-in-progress]`).count()).toBe(0);
    expect(await page.locator(`tr[data-list-id="${waiting}"] [data-progress]`).textContent()).toBe('0 of 10 records');
    await shot(page, '09-progress');
    await row.locator('a').click();
    await page.locator('#list-state [data-in-progress]').waitFor({ timeout: LONG });
    expect(await page.locator('#list-state ~ .progress [data-progress]').textContent()).toBe('150 of 298 records');
    await page.close();
  });

  it('fits a 2,000-row report with every status code at 1,280 and 390 px, with short labels, and says why records are unknown', async () => {
    const { key: apiKey, record } = await server.t.key('wide', { services: 'verification,lists' });
    // One row of every code the catalogue has (in its list status), one corrected, six whose
    // mailbox was not checked (port 25 blocked), and the rest unknown because our resolver failed.
    const types = ['freeisp', 'biz', 'disposable', 'edu', undefined] as const;
    const outcomes: ValidationOutcome[] = [...CODE_ENTRIES.values()].map((entry, i) => ({
      status: entry.legacy,
      code: entry.code,
      domainType: types[i % types.length],
      roleAccount: i % 7 === 0,
    }));
    outcomes.push({ status: 'corrected', code: 505, domainType: 'freeisp', roleAccount: false });
    while (outcomes.length < 40) outcomes.push({ status: 'unknown', code: 20, roleAccount: false, limit: 'smtp-egress' });
    while (outcomes.length < 2_000) outcomes.push({ status: 'unknown', code: 5, roleAccount: false, limit: 'resolver' });
    const report = validationReport(countValidation(outcomes));
    const id = await storedList(record.id, 'every-status-with-a-rather-long-file-name-from-the-crm-export.csv', {
      status: 'Results',
      records: 2_000,
      services: { email_validation: { status: 'Completed', inputCount: 2_000, completedCount: 2_000, reporting: report } },
    });
    const page = await signIn(apiKey);
    await page.goto(`${origin}/dashboard/#/lists/${id}`);
    const codes = page.locator('[data-chart="status-codes"] tbody tr');
    await codes.first().waitFor({ timeout: LONG });
    expect(await codes.count()).toBe(CODE_ENTRIES.size);
    // Short words on the bar, the catalogue's meaning on hover.
    const misspelt = page.locator('[data-chart="status-codes"] tr[data-label="505 misspelt or refused domain"]');
    expect(await misspelt.getAttribute('data-count')).toBe('2');
    expect(await misspelt.locator('th').getAttribute('title')).toBe(`505: ${CODE_ENTRIES.get(505)!.meaning.replace(/`/g, '')}`);
    // Why 1,966 records are unknown, in words, pointing to the operator's page.
    const limited = page.locator('[data-limited]');
    expect(await limited.getAttribute('data-limited')).toBe('1966');
    expect(await limited.locator('li').allTextContents()).toEqual([
      '1,960 not verified: our DNS resolver is failing — see Operator',
      '6 mailbox not checked: our port 25 is blocked — see Operator',
    ]);
    expect(await limited.getByRole('link', { name: 'Operator' }).evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '#/operator',
      '#/operator',
    ]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, '10-report-every-status');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction('document.documentElement.clientWidth === 390');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENSHOTS, '11-report-390px.png'), fullPage: true });
    await page.goto(`${origin}/dashboard/#/lists`);
    await page.locator(`tr[data-list-id="${id}"]`).waitFor({ timeout: LONG });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.close();
  });

  it('says why there is no report on an Invalid list and on a Cancelled one, not that one is coming', async () => {
    const { key: apiKey, record } = await server.t.key('no-report', { services: 'verification,lists' });
    const page = await signIn(apiKey);
    const invalid = await submitAndOpen(page, 'no-email.csv', 'name,phone\nKate,555-0100\n');
    await expect.poll(() => state(page), { timeout: LONG, interval: 250 }).toBe('Invalid');
    const reason = ((await server.t.app.inject({ url: `/v5/list/${invalid}`, headers: { api_key: apiKey } })).json() as { error: string })
      .error;
    expect(reason.length).toBeGreaterThan(0);
    expect(await page.locator('[data-no-report]').textContent()).toBe(`No report: the file could not be processed (${reason}).`);
    const cancelled = await storedList(record.id, 'stopped.csv', {
      status: 'Cancelled',
      records: 10,
      services: { email_validation: { status: 'Cancelled', inputCount: 10 } },
    });
    await page.goto(`${origin}/dashboard/#/lists/${cancelled}`);
    await expect.poll(() => state(page), { timeout: LONG }).toBe('Cancelled');
    expect(await page.locator('[data-no-report]').textContent()).toBe('Cancelled: no report.');
    await page.close();
  });

  it('shows the API’s message for an upload it refuses (422), and stores nothing', async () => {
    const { key } = await server.t.key('refused', { services: 'verification,lists' });
    const page = await signIn(key);
    await page.getByRole('heading', { name: 'Lists', exact: true }).waitFor();
    await upload(page, 'data.csv', Buffer.from('email\nann@example.com\n\0\0\x01\x02\0', 'latin1'));
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: LONG }).toBe('The file is not a text file');
    await shot(page, '05-upload-refused');
    expect(((await server.t.app.inject({ url: '/v5/list', headers: { api_key: key } })).json() as { total: number }).total).toBe(0);
    await page.close();
  });

  it('verifies one address with its code in words, and follows a correction when clicked', async () => {
    const { key } = await server.t.key('fixer', { services: 'verification,corrections,lists' });
    const page = await signIn(key);
    await page.getByRole('link', { name: 'Verify an address' }).click();
    await page.getByLabel('Email address').fill('caroline@gmial.com');
    await page.getByLabel('Email address').press('Enter');
    await expect
      .poll(() => page.locator('[data-code]').textContent(), { timeout: LONG })
      .toBe(`Code 505: ${CODE_ENTRIES.get(505)!.meaning.replace(/`/g, '')}`);
    expect(await page.locator('[data-code]').textContent()).toMatch(/^Code 505: domain not accepted: a large provider's domain misspelt/);
    await shot(page, '06-verify');
    await page.getByRole('button', { name: 'caroline@gmail.com' }).click();
    await expect.poll(() => page.locator('[data-status]').getAttribute('data-status'), { timeout: LONG }).toBe('valid');
    expect(await page.getByLabel('Email address').inputValue()).toBe('caroline@gmail.com');
    await page.close();
  });

  it('looks a person up by address, with a key that has no List API', async () => {
    await server.t.storage.people.upsert(
      peopleBatch([
        newPerson('P1', {
          firstName: 'Katherine',
          lastName: 'Doe',
          address: '123 N Main St',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
          emails: ['kd@example.org'],
        }),
      ]),
    );
    const { key } = await server.t.key('postal', { services: 'postal_append' });
    const page = await signIn(key);
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: LONG }).toBe('API key is not permitted for this endpoint');
    await page.getByRole('link', { name: 'Look a person up' }).click();
    await page.getByLabel('Email address').fill('kd@example.org');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('heading', { name: 'Postal address found' }).waitFor({ timeout: LONG });
    const facts = await page.locator('.facts').textContent();
    expect(facts).toContain('Katherine');
    expect(facts).toContain('123 N Main St');
    await shot(page, '07-look-up');
    await page.getByLabel('Email address').fill('nobody@example.org');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('heading', { name: 'No match' }).waitFor({ timeout: LONG });
    await page.close();
  });

  it('opens the operator view with the admin token: health, keys with usage, create, revoke, every key’s lists', async () => {
    // Usage is what the meter has written (every few seconds): have it written now.
    await server.t.meter.flush();
    const page = await browser.context.newPage();
    await page.goto(`${origin}/dashboard/`);
    await page.getByRole('link', { name: 'Operator sign-in (admin token)' }).click();
    await page.getByLabel('Admin token').fill('wrong-token');
    await page.getByRole('button', { name: 'Open the operator view' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: LONG }).toBe('Invalid admin token');

    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Open the operator view' }).click();
    await page.getByRole('heading', { name: 'Prober health' }).waitFor({ timeout: LONG });
    expect(await page.locator('[data-concern="resolver"]').getAttribute('data-state')).toMatch(/^(ok|degraded|failed|unknown)$/);
    // The keys the earlier tests made, with their usage; the lists of all of them.
    await page.locator('tr[data-key-name="ops"]').waitFor();
    expect(await page.locator('tr[data-key-name="fixer"]').textContent()).toMatch(/verification: [1-9]/);
    expect(await page.locator('section[aria-labelledby="recent-title"] tbody tr').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('section[aria-labelledby="recent-title"]').textContent()).toContain('people.csv');

    await page.getByLabel('Name', { exact: true }).fill('from-browser');
    await page.getByLabel('Quota (calls in all; empty: unlimited)').fill('100');
    await page.getByRole('button', { name: 'Create key' }).click();
    const created = page.locator('[data-new-key]');
    await created.waitFor({ timeout: LONG });
    const newKey = (await created.textContent())!;
    expect((await server.t.app.inject({ url: `/v5/ev?email=ann@example.com&api_key=${newKey}` })).statusCode).toBe(200);
    // Its webhook secret too, once, as the admin API answered it (issue 26), and the services ticked.
    const stored = (await server.t.storage.keys.findByName('from-browser'))!;
    expect(await page.locator('[data-new-webhook-secret]').textContent()).toBe(stored.webhookSecret);
    expect(stored.services).toEqual(['verification', 'lists']);
    await page.locator('tr[data-key-name="from-browser"]').waitFor();
    await shot(page, '08-operator');

    await page.getByRole('button', { name: 'Revoke from-browser' }).click();
    await page.getByRole('button', { name: 'Yes, revoke from-browser' }).click();
    await page.locator('tr[data-key-name="from-browser"] [data-state="revoked"]').waitFor({ timeout: LONG });
    expect((await server.t.storage.keys.findByName('from-browser'))!.revokedAt).not.toBeNull();
    await page.close();
  });

  it('can be used by keyboard alone, labels every control and keeps text contrast at 4.5:1 or more', async () => {
    const { key } = await server.t.key('keyboard', { services: 'verification,lists' });
    const page = await browser.context.newPage();
    await page.goto(`${origin}/dashboard/`);
    // Sign in without the mouse: Tab to the field, type, Enter.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('api-key');
    await page.keyboard.type(key);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Lists', exact: true }).waitFor({ timeout: LONG });
    // Tab reaches the pages' links, and Enter follows one.
    let reached = '';
    for (let i = 0; i < 10 && reached !== 'Verify an address'; i++) {
      await page.keyboard.press('Tab');
      reached = (await page.evaluate('document.activeElement.textContent')) as string;
    }
    expect(reached).toBe('Verify an address');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Verify an address' }).waitFor();

    for (const route of ['#/lists', '#/verify', '#/lookup', '#/operator']) {
      await page.goto(`${origin}/dashboard/${route}`);
      await page.locator('main h1').waitFor();
      expect(await page.evaluate(UNLABELLED), route).toEqual([]);
      expect(await page.evaluate(LOW_CONTRAST), route).toEqual([]);
    }
    // Both checks do see a fault: pale text, and a control nobody labelled.
    await page.evaluate(
      `document.querySelector('main h1').style.color = '#bbbbbb'; document.querySelector('main').append(document.createElement('input'))`,
    );
    expect(await page.evaluate(LOW_CONTRAST)).toEqual([expect.stringMatching(/^H1 Operator 1\.\d\d$/)]);
    expect(await page.evaluate(UNLABELLED)).toEqual(['<input>']);
    await page.close();
  });

  it('asked nothing of any other origin', () => {
    expect(requested.length).toBeGreaterThan(20);
    const elsewhere = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('blob:') && !url.startsWith('data:'));
    expect(elsewhere).toEqual([]);
  });
});
