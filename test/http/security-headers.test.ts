/**
 * Issue 19 (14): security headers on every answer — HSTS, nosniff, no framing — `Cache-Control:
 * no-store` on the API's answers (they carry personal data), and a CSP under which the
 * `format=html` page can load and run nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await makeTestApp();
  key = (await t.key('all')).key;
});
afterAll(() => t.close());

describe('security headers', () => {
  it('are on API answers, errors included, with no-store', async () => {
    for (const url of [
      `/v5/ev?email=ann@example.com&api_key=${key}`,
      '/v5/ev?email=ann@example.com&api_key=wrong-key-123456',
      `/v5/td?email=x@example.com&api_key=${key}`,
    ]) {
      const res = await t.app.inject({ url });
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
    }
  });

  it('give the format=html page a CSP that runs nothing', async () => {
    const res = await t.app.inject({ url: `/v5/td?email=x@example.com&format=html&api_key=${key}` });
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('leave health answers cacheable by nobody’s rule but their own', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBeUndefined();
  });
});
