/**
 * Issue 19 (12), CSV injection: cells of an uploaded list that a spreadsheet would run as formulas
 * come back in the results file as text (a leading `'`), over the List API as a user calls it.
 */
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/multipart.js';
import { unzip } from '../helpers/unzip.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

it('neutralises formulas in the results, and leaves signed numbers and addresses alone', async () => {
  const key = (await t.key('lists', { services: 'verification,lists' })).key;
  const csv = 'email,note,balance\nann@example.com,"=HYPERLINK(""http://evil.example"",""click"")",-12.50\n=cmd@example.com,+cmd|\' /C calc\'!A0,@SUM(1+1)\n';
  const { payload, headers } = multipart([{ name: 'file', filename: 'people.csv', content: csv }]);
  const submitted = await t.app.inject({ method: 'POST', url: '/v5/list?header=true', headers: { ...headers, api_key: key }, payload });
  expect(submitted.statusCode).toBe(202);
  const { list_id } = submitted.json() as { list_id: number };
  await t.lists.idle();
  const zip = await t.app.inject({ url: `/v5/list/${list_id}/results`, headers: { api_key: key } });
  const rows = parse(Object.values(await unzip(zip.rawPayload))[0]!) as string[][];
  expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([
    ['ann@example.com', `'=HYPERLINK("http://evil.example","click")`, '-12.50'],
    ["'=cmd@example.com", "'+cmd|' /C calc'!A0", "'@SUM(1+1)"],
  ]);
});
