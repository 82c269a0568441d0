/**
 * Issue 19 (4): a request body cannot hold a connection for ever. Refused before its body is read
 * (a bad key on an upload), the request is answered and its connection closed at once, however
 * much body was announced; and every request has a time limit for arriving whole.
 *
 * Issue 31 (4): a JSON body has its own deadline (MAILSURE_BODY_TIMEOUT_SECONDS), kept to within
 * a few seconds (Node's own check, every 30 s, answered a 2 s setting after 60 to 90 s), and one
 * key (its bulk calls in progress) and one address (MAILSURE_BODIES_PER_ADDRESS) may have only so
 * many bodies arriving at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { rawExchange, startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';

let t: TestApp;
let port: number;
let server: TlsTestApp;

beforeAll(async () => {
  server = await startTlsTestApp({
    env: { MAILSURE_REQUEST_TIMEOUT_SECONDS: '120', MAILSURE_BODY_TIMEOUT_SECONDS: '2', MAILSURE_BODIES_PER_ADDRESS: '6' },
  });
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

/** Starts a bulk call whose body never arrives whole; resolves with its answer and how long it took. */
async function heldBulkBody(apiKey: string): Promise<{ status: number; body: string; retryAfter: string; ms: number }> {
  const started = Date.now();
  const answer = await rawExchange(
    port,
    `POST /v5/ei/bulk?api_key=${apiKey} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[{"email":`,
  );
  return { status: answer.status, body: answer.body, retryAfter: answer.header('retry-after'), ms: Date.now() - started };
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

  it("keep Node's own limit at the setting: its headers limit is never above it (Node takes the larger of the two)", async () => {
    const short = await makeTestApp({ env: { MAILSURE_REQUEST_TIMEOUT_SECONDS: '20' } });
    try {
      expect(short.app.server.requestTimeout).toBe(20_000);
      expect(short.app.server.headersTimeout).toBe(20_000);
    } finally {
      await short.close();
    }
  });

  it("a held JSON body gets 408 at its own deadline, well before the upload one; past the key's bulk calls, 429 at once", async () => {
    const key = (await t.key('trickle', { services: 'enrichment' })).key;
    const held = Array.from({ length: 4 }, () => heldBulkBody(key));
    // The key's four bulk calls in progress (MAILSURE_BULK_CALLS_PER_KEY) are these bodies: the fifth is refused unread.
    let fifth = await heldBulkBody(key);
    for (let i = 0; i < 20 && fifth.status === 408; i++) fifth = await heldBulkBody(key);
    expect(fifth.status).toBe(429);
    expect(JSON.parse(fifth.body).error_msg).toMatch(/^Too many bulk calls in progress/);
    for (const answer of await Promise.all(held)) {
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toEqual({ error_code: 408, error_msg: 'Request timeout' });
      // The setting is 2 s; Node's own check would have answered after 30 s or more.
      expect(answer.ms).toBeLessThan(10_000);
    }
  });

  it('an address may have only so many bodies arriving at once, whatever keys they carry (429 with Retry-After)', async () => {
    const keys = await Promise.all(['a1', 'a2'].map(async (name) => (await t.key(name, { services: 'enrichment' })).key));
    const held = [...Array.from({ length: 4 }, () => heldBulkBody(keys[0]!)), ...Array.from({ length: 2 }, () => heldBulkBody(keys[1]!))];
    // Wait until all six are arriving: the seventh must then meet the address's cap.
    let seventh = await heldBulkBody(keys[1]!);
    for (let i = 0; i < 20 && seventh.status !== 429; i++) seventh = await heldBulkBody(keys[1]!);
    expect(seventh.status).toBe(429);
    expect(seventh.retryAfter).toBe('1');
    expect(JSON.parse(seventh.body)).toEqual({
      error_code: 429,
      error_msg: 'Too many requests arriving: this address may send 6 request bodies at once; send the next when one has arrived',
    });
    expect((await Promise.all(held)).map((a) => a.status)).toEqual([408, 408, 408, 408, 408, 408]);
  });
});
