/**
 * Issue 19 (4): a request body cannot hold a connection for ever. Refused before its body is read
 * (a bad key on an upload), the request is answered and its connection closed at once, however
 * much body was announced; and every request has a time limit for arriving whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { rawExchange, startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';

let t: TestApp;
let port: number;
let server: TlsTestApp;

beforeAll(async () => {
  server = await startTlsTestApp({ env: { MAILSURE_REQUEST_TIMEOUT_SECONDS: '120' } });
  ({ t, port } = server);
});
afterAll(() => server.close());

/** Sends the head and a first slice of an announced megabyte, never the rest; resolves when the server closes. */
async function slowUpload(apiKey: string): Promise<{ status: number; connection: string; body: string }> {
  const answer = await rawExchange(
    port,
    `POST /v5/list HTTP/1.1\r\nHost: localhost\r\napi_key: ${apiKey}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: 1048576\r\n\r\n--XX\r\n`,
  );
  return { status: answer.status, connection: answer.header('connection'), body: answer.body };
}

describe('request bodies', () => {
  it('a refused upload is answered and its connection closed without waiting for the body', async () => {
    // The socket's close is what resolves this: a server that kept reading would leave it open
    // until the test's own time-out.
    const res = await slowUpload('wrong-key-123456');
    expect(res.status).toBe(401);
    expect(res.connection).toBe('close');
    expect(JSON.parse(res.body)).toEqual({ error_code: 401, error_msg: 'Invalid API key' });
  });

  it('have a time limit for arriving whole (MAILSURE_REQUEST_TIMEOUT_SECONDS)', () => {
    expect(t.app.server.requestTimeout).toBe(120_000);
  });
});
