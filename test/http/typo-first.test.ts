/**
 * Issue 18, decision 1: a misspelt big-provider domain is a typo first. `caroline@gmial.com` is on
 * a disposable/typo-squat list, yet the person meant gmail.com: with corrections the answer is
 * 505 invalid with the fix, in both variants and as `corrected` in a list; without corrections
 * it stays what the list says (525 trap, legacy 505 invalid).
 */
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/multipart.js';
import { unzip } from '../helpers/unzip.js';

let t: TestApp;
beforeEach(async () => {
  // Depth syntax: gmail.com's own verdict (10, valid) needs no network.
  t = await makeTestApp();
});
afterEach(() => t.close());

async function ev(key: string, email: string) {
  const res = await t.app.inject({ url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}` });
  expect(res.statusCode).toBe(200);
  return res.json() as Record<string, Record<string, unknown>>;
}

describe('a misspelt big-provider domain', () => {
  it('is 505 invalid with the fix for keys with corrections, in both variants', async () => {
    const fixes = (await t.key('fixes', { services: 'verification,corrections' })).key;
    const legacy = (await t.key('legacy-fixes', { services: 'verification,corrections', variant: 'email_validation' })).key;
    expect(await ev(fixes, 'caroline@gmial.com')).toEqual({
      safe_to_send: { address: 'caroline@gmial.com', status: 'invalid', status_code: 505, domain_type: 'disposable', email_corrections: ['caroline@gmail.com'] },
    });
    expect(await ev(legacy, 'Caroline@GMIAL.com')).toEqual({
      email_validation: { address: 'caroline@gmial.com', status: 'invalid', status_code: 505, domain_type: 'disposable', email_corrections: ['caroline@gmail.com'] },
    });
  });

  it('keeps the list’s answer for keys without corrections', async () => {
    const plain = (await t.key('plain', { services: 'verification' })).key;
    const legacy = (await t.key('legacy', { services: 'verification', variant: 'email_validation' })).key;
    expect(await ev(plain, 'caroline@gmial.com')).toEqual({
      safe_to_send: { address: 'caroline@gmial.com', status: 'trap', status_code: 525, domain_type: 'disposable' },
    });
    expect(await ev(legacy, 'caroline@gmial.com')).toEqual({
      email_validation: { address: 'caroline@gmial.com', status: 'invalid', status_code: 505, domain_type: 'disposable' },
    });
  });

  it('is judged as typed when the meant address could not exist at the provider', async () => {
    // Gmail allows no underscore: the reading tamara_ortiz@gmail.com is impossible (125), so no fix.
    const fixes = (await t.key('fixes', { services: 'verification,corrections' })).key;
    expect((await ev(fixes, 'tamara_ortiz@gmial.com')).safe_to_send).toEqual({
      address: 'tamara_ortiz@gmial.com',
      status: 'trap',
      status_code: 525,
      domain_type: 'disposable',
    });
  });

  it('leaves real domains near a provider alone', async () => {
    const fixes = (await t.key('fixes', { services: 'verification,corrections' })).key;
    for (const email of ['caroline@gmail.com', 'caroline@mail.com', 'caroline@example.com']) {
      const body = (await ev(fixes, email)).safe_to_send!;
      expect(body.status_code).toBe(10);
      expect(body).not.toHaveProperty('email_corrections');
    }
  });

  it('is `corrected` in a list, with the fix in Valid Email', async () => {
    const key = (await t.key('lists', { services: 'verification,corrections,lists' })).key;
    const { payload, headers } = multipart([{ name: 'file', filename: 'people.csv', content: 'email\ncaroline@gmial.com\n' }]);
    const submitted = await t.app.inject({ method: 'POST', url: '/v5/list?header=true', headers: { ...headers, api_key: key }, payload });
    expect(submitted.statusCode).toBe(202);
    const { list_id } = submitted.json() as { list_id: number };
    await t.lists.idle();
    const zip = await t.app.inject({ url: `/v5/list/${list_id}/results`, headers: { api_key: key } });
    const rows = parse(Object.values(await unzip(zip.rawPayload))[0]!, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      expect.objectContaining({ email: 'caroline@gmial.com', 'Validation Status': 'corrected', 'Validation Code': '505', 'Valid Email': 'caroline@gmail.com' }),
    ]);
  });
});
