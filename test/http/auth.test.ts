import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

const evWith = (apiKey: string) => t.app.inject({ method: 'GET', url: `/v5/ev?email=jane@example.com&api_key=${apiKey}` });

describe('authentication on /v5/ev (plain-text 401)', () => {
  it.each([
    ['no key', '/v5/ev?email=jane@example.com'],
    ['an empty key', '/v5/ev?email=jane@example.com&api_key='],
    ['an unknown key', '/v5/ev?email=jane@example.com&api_key=ms_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a key with forbidden characters', '/v5/ev?email=jane@example.com&api_key=%3Cscript%3E'],
    ['an oversized key', `/v5/ev?email=jane@example.com&api_key=${'k'.repeat(10_000)}`],
  ])('answers %s with 401 Invalid API key as text', async (_what, url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('Invalid API key');
  });

  it('refuses a revoked key', async () => {
    const { key } = await t.key('gone');
    await t.storage.keys.revoke('gone', new Date().toISOString());
    const fresh = await makeTestApp({ storage: t.storage });
    const res = await fresh.app.inject({ method: 'GET', url: `/v5/ev?email=jane@example.com&api_key=${key}` });
    await fresh.close();
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('Invalid API key');
  });

  it('refuses a key without the verification service', async () => {
    const { key } = await t.key('enrich-only', { services: 'enrichment' });
    const res = await evWith(key);
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('API key is not permitted for this endpoint');
  });

  it('checks the key before the parameters', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v5/ev?api_key=nope' });
    expect(res.statusCode).toBe(401);
  });

  it('does not take the key from a header on a query-key endpoint', async () => {
    const { key } = await t.key('hdr');
    const res = await t.app.inject({ method: 'GET', url: '/v5/ev?email=jane@example.com', headers: { api_key: key } });
    expect(res.statusCode).toBe(401);
  });
});

describe('quota and rate', () => {
  it('answers 403 once the quota is used up', async () => {
    const { key } = await t.key('small', { quota: '2' });
    expect((await evWith(key)).statusCode).toBe(200);
    expect((await evWith(key)).statusCode).toBe(200);
    const res = await evWith(key);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error_code: 403, error_msg: 'Query limit exceeded' });
  });

  it('gives a trial key 1,000 calls', async () => {
    const { record } = await t.key('try', { trial: true });
    expect(record).toMatchObject({ trial: true, quota: 1000, services: ['verification', 'enrichment'] });
  });

  it('answers 429 with Retry-After past the key rate, per key', async () => {
    const { key } = await t.key('slow', { rate: '3' });
    const other = (await t.key('other', { rate: '3' })).key;
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await evWith(key)).statusCode);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    const limited = await evWith(key);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.json()).toEqual({ error_code: 429, error_msg: 'Rate limit exceeded' });
    expect((await evWith(other)).statusCode).toBe(200);
  });
});

describe('List API authentication (header key)', () => {
  it('reads the key from the api_key header', async () => {
    const { key } = await t.key('lists');
    const res = await t.app.inject({ method: 'GET', url: '/v5/list/1', headers: { api_key: key } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error_code: 404, error_msg: 'List not found' });
  });

  it('ignores a key sent only in the query, with a JSON 401', async () => {
    const { key } = await t.key('lists');
    const res = await t.app.inject({ method: 'GET', url: `/v5/list/1?api_key=${key}` });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ error_code: 401, error_msg: 'Invalid API key' });
  });

  it('refuses a key without the lists service', async () => {
    const { key } = await t.key('verify-only', { services: 'verification' });
    const res = await t.app.inject({ method: 'GET', url: '/v5/list/1', headers: { api_key: key } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error_code: 401, error_msg: 'API key is not permitted for this endpoint' });
  });

  it('rejects a malformed list id', async () => {
    const { key } = await t.key('lists');
    const res = await t.app.inject({ method: 'GET', url: '/v5/list/abc', headers: { api_key: key } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(400);
  });
});
