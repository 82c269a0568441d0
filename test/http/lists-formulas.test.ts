/**
 * CSV injection (issue 19 (12), issue 26 (9)), over the List API as a user calls it: the columns
 * the results file adds from our own data have cells a spreadsheet would run as formulas written
 * as text (a leading `'`), while the customer's own cells and the addresses we add come back
 * exactly as they are, so the results join back to the customer's records.
 */
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { newPerson } from '../../src/storage/contract/people-fixtures.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/multipart.js';
import { unzip } from '../helpers/unzip.js';
import { peopleBatch } from '../helpers/people.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

it("keeps the customer's cells and our addresses exactly, and neutralises formulas in our other columns", async () => {
  // Our data can carry a formula too: an imported record's value.
  await t.storage.people.upsert(
    peopleBatch([
      newPerson('P1', {
        firstName: 'Ann',
        lastName: 'Lee',
        address: '1 Main St',
        fields: { occupation: "=cmd|' /C calc'!A0" },
        emails: ['+1234@example.com'],
      }),
    ]),
  );
  const key = (await t.key('lists', { services: 'verification,corrections,enrichment,email_append,lists', fields: 'occupation' })).key;
  const csv = [
    'email,note,balance,first,last,street,city,state,zip',
    '+1234@example.com,"=HYPERLINK(""http://evil.example"",""click"")",-12.50,Ann,Lee,1 Main St,Springfield,IL,62701',
    `=cmd@example.com,+cmd|' /C calc'!A0,@SUM(1+1),,,,,,`,
    '+5678@example..com,,,,,,,,',
  ].join('\n');
  const { payload, headers } = multipart([{ name: 'file', filename: 'people.csv', content: csv }]);
  const submitted = await t.app.inject({ method: 'POST', url: '/v5/list?header=true', headers: { ...headers, api_key: key }, payload });
  expect(submitted.statusCode).toBe(202);
  const { list_id } = submitted.json() as { list_id: number };
  await t.lists.idle();
  const zip = await t.app.inject({ url: `/v5/list/${list_id}/results`, headers: { api_key: key } });
  const [header, ...rows] = parse(Object.values(await unzip(zip.rawPayload))[0]!) as string[][];
  const column = (name: string) => rows.map((row) => row[header!.indexOf(name)]);

  // The customer's columns, cell for cell as sent.
  expect(rows.map((r) => r.slice(0, 3))).toEqual([
    ['+1234@example.com', '=HYPERLINK("http://evil.example","click")', '-12.50'],
    ['=cmd@example.com', "+cmd|' /C calc'!A0", '@SUM(1+1)'],
    ['+5678@example..com', '', ''],
  ]);
  // The addresses we add: the corrected address and the appended one, as they are.
  expect(column('Valid Email')).toEqual(['', '', '+5678@example.com']);
  expect(column('Append Email')).toEqual(['+1234@example.com', '', '']);
  // Our other columns: the imported formula as text.
  expect(column('occupation')).toEqual(["'=cmd|' /C calc'!A0", '', '']);
});
