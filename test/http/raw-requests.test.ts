/**
 * Requests inject() cannot send: raw bytes on a TLS socket, as a client that did not URL-encode
 * its query sends them. Node's HTTP parser refuses some before Fastify sees a request; every
 * answer must still be our error body `{"error_code","error_msg"}` (decisions §3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { rawExchange, startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';

let t: TestApp;
let key: string;
let port: number;
let server: TlsTestApp;

beforeAll(async () => {
  server = await startTlsTestApp();
  ({ t, port } = server);
  key = (await t.key('acme')).key;
});
afterAll(() => server.close());

/** Sends `head` (request line and headers, as raw bytes) over TLS; the status, type and body of the answer. */
const raw = async (head: Buffer) => {
  const answer = await rawExchange(port, head);
  return { status: answer.status, type: answer.header('content-type'), body: answer.body };
};
const request = (target: string, headers = 'Host: localhost\r\n') =>
  Buffer.concat([Buffer.from('GET '), Buffer.from(target, 'utf8'), Buffer.from(` HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`)]);

describe('error bodies for requests the HTTP parser or router refuses', () => {
  it.each([
    ['raw UTF-8 in the query', () => `/v5/ev?email=josé@exämple.de&api_key=${key}`, 'Parameters are not URL encoded'],
    ['raw UTF-8 on /v5/td', () => `/v5/td?email=josé@exämple.de&api_key=${key}`, 'Parameters are not URL encoded'],
    ['a broken percent-encoding in the path', () => `/v5/%ZZ?api_key=${key}`, 'Parameters are not URL encoded'],
    ['a broken percent-encoding in the query', () => `/v5/ev?email=%ZZ&api_key=${key}`, 'Parameters are not URL encoded'],
  ])('answers %s with 400 and the JSON error body', async (_what, target, message) => {
    const res = await raw(request(target()));
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual({ error_code: 400, error_msg: message });
  });

  it('answers a request line with a raw space, and oversized headers, with the JSON error body', async () => {
    const space = await raw(request(`/v5/ev?email=jane doe@example.com&api_key=${key}`));
    expect(space.status).toBe(400);
    expect(JSON.parse(space.body)).toEqual({ error_code: 400, error_msg: expect.stringMatching(/^Malformed request/) });
    const huge = await raw(request('/v5/ev', `Host: localhost\r\nX-Big: ${'a'.repeat(100_000)}\r\n`));
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body)).toEqual({ error_code: 431, error_msg: 'Request headers too large' });
  });

  it('gives answers written before Fastify sees a request the security headers too', async () => {
    for (const head of [
      request('/v5/ev', `Host: localhost\r\nX-Big: ${'a'.repeat(100_000)}\r\n`),
      request(`/v5/ev?email=josé@x.de&api_key=${key}`),
    ]) {
      const answer = await rawExchange(port, head);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.header('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
      expect(answer.header('x-content-type-options')).toBe('nosniff');
      expect(answer.header('x-frame-options')).toBe('DENY');
      expect(answer.header('content-security-policy')).toBe(
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(answer.header('cache-control')).toBe('no-store');
    }
  });

  it('still answers a good percent-encoded request', async () => {
    const res = await raw(request(`/v5/ev?email=jos%C3%A9%40ex%C3%A4mple.de&api_key=${key}`));
    expect(res.status).toBe(200);
    expect(Object.keys(JSON.parse(res.body))).toEqual(['safe_to_send']);
  });
});
