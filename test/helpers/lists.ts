/** Lists through the List API by inject(): submit addresses, wait for the run, read the report and the results file. */
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { multipart } from './multipart.js';
import type { TlsTestApp } from './tls-app.js';
import { unzip } from './unzip.js';

/** The email_validation service's reporting in a list's status. */
export interface ListReport {
  statuses: Record<string, number>;
  status_codes: Record<string, number>;
  verification_limited?: Record<string, number>;
  outcome_hits?: Record<string, number>;
}

export interface ListOptions {
  /** Put an `Email` header row above the addresses (and submit with `header=true`). */
  header?: boolean;
}

/** An app of makeTestApp, or of startTlsTestApp (driven by inject() all the same). */
type AnyTestApp = TestApp | TlsTestApp;

const testApp = (app: AnyTestApp): TestApp => ('t' in app ? app.t : app);

/** Submits `emails` as a list, one a line, with `key`, and answers its id. */
export async function submitList(app: AnyTestApp, key: string, emails: readonly string[], options: ListOptions = {}): Promise<number> {
  const content = `${options.header ? 'Email\n' : ''}${emails.join('\n')}\n`;
  const { payload, headers } = multipart([{ name: 'file', filename: 'list.csv', content }]);
  const url = options.header ? '/v5/list?header=true' : '/v5/list';
  const submitted = await testApp(app).app.inject({ method: 'POST', url, headers: { ...headers, api_key: key }, payload });
  expect(submitted.statusCode).toBe(202);
  return (submitted.json() as { list_id: number }).list_id;
}

/** Waits for the app's lists, then answers this one's report and its results rows (header row first). */
export async function finishedList(app: AnyTestApp, key: string, listId: number): Promise<{ report: ListReport; rows: string[][] }> {
  const t = testApp(app);
  await t.lists.idle();
  const status = (await t.app.inject({ url: `/v5/list/${listId}`, headers: { api_key: key } })).json() as {
    status: string;
    services: { email_validation: { reporting: ListReport } };
  };
  expect(status.status).toBe('Results');
  const results = await t.app.inject({ url: `/v5/list/${listId}/results`, headers: { api_key: key } });
  expect(results.statusCode).toBe(200);
  const files = await unzip(results.rawPayload);
  return {
    report: status.services.email_validation.reporting,
    rows: parse(Object.values(files)[0]!, { relax_column_count: true }) as string[][],
  };
}

/** Submits `emails` as a list and waits for it: its report and results rows (header row first). */
export async function runList(
  app: AnyTestApp,
  key: string,
  emails: readonly string[],
  options: ListOptions = {},
): Promise<{ report: ListReport; rows: string[][] }> {
  return finishedList(app, key, await submitList(app, key, emails, options));
}

/** Each results row's Validation Code, by the row's address (its first column). */
export function validationCodes(rows: string[][]): Map<string, number> {
  const code = rows[0]!.indexOf('Validation Code');
  return new Map(rows.slice(1).map((row) => [row[0]!, Number(row[code])]));
}
