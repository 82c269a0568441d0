/**
 * Issue 19 (3, 5): a bulk call costs its records against the quota, reserved before the work (so
 * calls cannot all pass a check made before any was counted); a call that ends in an error is
 * given back. Issue 26: for the rate a bulk call is one call, as the contract counts calls.
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

const malformed = (key: string) =>
  t.app.inject({ method: 'POST', url: `/v5/ei/bulk?api_key=${key}`, headers: { 'content-type': 'application/json' }, payload: '[{"email":"a@b.com"},' });

it('counts a full bulk call as one call for the rate: the next call, even a malformed one, is not 429', async () => {
  const key = (await t.key('full', { services: 'enrichment' })).key;
  expect((await bulk(key, 5_000)).statusCode).toBe(200);
  const next = await malformed(key);
  expect(next.statusCode).toBe(400);
  expect(next.json()).toEqual({ error_code: 400, error_msg: 'Invalid JSON' });
  expect((await bulk(key, 5_000)).statusCode).toBe(200);
});

it('still answers 429 past the key rate, counting each bulk call once', async () => {
  const key = (await t.key('r3', { services: 'enrichment', rate: '3' })).key;
  const codes: number[] = [];
  for (let i = 0; i < 4; i++) codes.push((await bulk(key, 20)).statusCode);
  expect(codes).toEqual([200, 200, 200, 429]);
  const limited = await bulk(key, 20);
  expect(limited.json()).toEqual({ error_code: 429, error_msg: 'Rate limit exceeded' });
  expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
});
