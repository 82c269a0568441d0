import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../../src/storage/open-storage.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

describe('service routes', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const notUsed = { state: 'unknown', evidence: ['not used at depth syntax'] };
    // At depth syntax nothing of the network is used, so nothing is checked or claimed.
    expect((await t.app.inject({ url: '/readyz' })).json()).toEqual({
      status: 'ready',
      prober: { mailbox_verification: 'unavailable', resolver: notUsed, smtp_egress: notUsed, identity: notUsed },
    });
  });

  it('answers /readyz with 503 when the database does not answer', async () => {
    const storage = openMemoryStorage();
    const sick = await makeTestApp({ storage: { ...storage, ping: () => Promise.reject(new Error('connection refused')) } });
    const res = await sick.app.inject({ url: '/readyz' });
    await sick.close();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      error_code: 503,
      error_msg: 'database is not answering',
      prober: { mailbox_verification: 'unavailable' },
    });
    // The error body first, then what the ready answer carries beside it; no Retry-After.
    expect(res.body).toMatch(
      /^\{"error_code":503,"error_msg":"database is not answering","prober":\{"mailbox_verification":"unavailable",/,
    );
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['retry-after']).toBeUndefined();
  });

  it('answers /readyz with 503 within its deadline when a dependency stalls instead of failing', async () => {
    const storage = openMemoryStorage();
    // A database that never answers (a held lock, a paused server): the probe must not hang.
    const stalled = await makeTestApp({ storage: { ...storage, ping: () => new Promise<void>(() => undefined) } });
    try {
      const res = await stalled.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error_code: 503, error_msg: 'database is not answering' });
      expect(stalled.logs.some((l) => l.includes('no answer within 2000 ms'))).toBe(true);
    } finally {
      await stalled.close();
    }
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const ev = doc.paths['/v5/ev'].get;
    // The key is the operation's security scheme (query `api_key`), not a parameter of its own.
    expect(ev.parameters.map((p: { name: string }) => p.name)).toEqual(['email', 'timeout', 'explain']);
    expect(ev.security).toEqual([{ queryKey: [] }]);
    expect(Object.keys(ev.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429']));
  });

  it('answers unknown paths with the JSON 404', async () => {
    const res = await t.app.inject({ url: '/v4/ev' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error_code: 404, error_msg: 'Not found' });
  });

  it('echoes a request id: a new one per request, never one a client chose', async () => {
    const first = (await t.app.inject({ url: '/healthz' })).headers['x-request-id'];
    const second = (await t.app.inject({ url: '/healthz' })).headers['x-request-id'];
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    expect(second).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    expect(second).not.toBe(first);
    expect(String(second).slice(0, 8)).toBe(String(first).slice(0, 8));
    const given = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'client-chosen' } });
    expect(given.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
  });

  it("keeps a trusted proxy's request id when it is a plain token", async () => {
    const proxied = await makeTestApp({ trustProxy: true });
    try {
      const via = (id: string) => proxied.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'https', 'x-request-id': id } });
      expect((await via('proxy-123')).headers['x-request-id']).toBe('proxy-123');
      for (const hostile of ['a b', 'x'.repeat(129), 'id\u202e', '{"json":1}']) {
        expect((await via(hostile)).headers['x-request-id'], hostile).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
      }
    } finally {
      await proxied.close();
    }
  });

  it('keeps addresses and keys out of the logs', async () => {
    const { key } = await t.key('acme');
    await t.app.inject({ url: `/v5/ev?email=secret.person%40example.com&api_key=${key}` });
    await t.app.inject({ url: '/v5/list/1', headers: { api_key: key } });
    const text = t.logs.join('');
    expect(text).toContain('/v5/ev?email=~&api_key=~');
    expect(text).toMatch(/"request_id"|"reqId"/);
    expect(text).not.toContain('secret.person');
    expect(text).not.toContain(key);
  });
});

describe('MAILSURE_TRUST_PROXY', () => {
  it('refuses requests the proxy did not receive over HTTPS, but not health probes', async () => {
    const proxied = await makeTestApp({ trustProxy: true });
    const { key } = await proxied.key('acme');
    const url = `/v5/ev?email=jane@example.com&api_key=${key}`;
    const plain = await proxied.app.inject({ url });
    expect(plain.statusCode).toBe(403);
    expect(plain.json()).toEqual({ error_code: 403, error_msg: 'HTTPS is required' });
    expect((await proxied.app.inject({ url, headers: { 'x-forwarded-proto': 'http' } })).statusCode).toBe(403);
    expect((await proxied.app.inject({ url, headers: { 'x-forwarded-proto': 'https' } })).statusCode).toBe(200);
    expect((await proxied.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    await proxied.close();
  });
});
