/**
 * Issue 19 (3, 5): a bulk call costs its records, for the quota and for the rate, and the quota is
 * reserved before the work (so calls cannot all pass a check made before any was counted); a
 * call that ends in an error is given back.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

const bulk = (key: string, records: number) =>
  t.app.inject({
    method: 'POST',
    url: `/v5/ei/bulk?api_key=${key}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(Array.from({ length: records }, (_, i) => ({ email: `p${i}@example.com` }))),
  });

it('counts a bulk call as its records against the quota, all or nothing', async () => {
  const key = (await t.key('q5', { services: 'enrichment', quota: '5' })).key;
  expect((await bulk(key, 3)).statusCode).toBe(200);
  const refused = await bulk(key, 3);
  expect(refused.statusCode).toBe(403);
  expect(refused.json()).toEqual({ error_code: 403, error_msg: 'Query limit exceeded' });
  expect((await bulk(key, 2)).statusCode).toBe(200);
  expect((await bulk(key, 1)).statusCode).toBe(403);
  await t.meter.flush();
  expect((await t.storage.keys.findByName('q5'))!.callsUsed).toBe(5);
});

it('lets no burst of concurrent calls past the quota', async () => {
  const key = (await t.key('q10', { services: 'enrichment', quota: '10' })).key;
  const answers = await Promise.all(Array.from({ length: 30 }, () => bulk(key, 2)));
  expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
  expect(answers.filter((a) => a.statusCode === 403)).toHaveLength(25);
});

it('gives back the calls of a request that ends in an error', async () => {
  const key = (await t.key('q2', { services: 'enrichment', quota: '2' })).key;
  const bad = await t.app.inject({ method: 'POST', url: `/v5/ei/bulk?api_key=${key}`, headers: { 'content-type': 'application/json' }, payload: '[{"email":"a@b.com"},' });
  expect(bad.statusCode).toBe(400);
  expect((await bulk(key, 2)).statusCode).toBe(200);
});
