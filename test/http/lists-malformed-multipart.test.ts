/**
 * Issue 19 (10): malformed multipart bodies are the caller's mistake — 400 with our error body
 * and the parser's reason, never a 500 and a stack trace in the log — and nothing is kept.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await makeTestApp();
  key = (await t.key('lists', { services: 'verification,lists' })).key;
});
afterAll(() => t.close());

const post = (contentType: string, payload: string) =>
  t.app.inject({ method: 'POST', url: '/v5/list', headers: { 'content-type': contentType, api_key: key }, payload });

describe('POST /v5/list with a malformed multipart body', () => {
  it.each([
    [
      'a body that ends inside the file part',
      'multipart/form-data; boundary=XX',
      '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nemail\nann@example.com',
      'Malformed multipart/form-data body (Unexpected end of multipart data)',
    ],
    [
      'no boundary in the content type',
      'multipart/form-data',
      'garbage',
      'Malformed multipart/form-data body (Multipart: Boundary not found)',
    ],
  ])('%s: 400 with the reason', async (_what, type, payload, message) => {
    const res = await post(type, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error_code: 400, error_msg: message });
  });

  it('logs no error and keeps no half upload', async () => {
    await post('multipart/form-data; boundary=XX', '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nemail\n');
    expect(t.logs.filter((l) => (JSON.parse(l) as { level: number }).level >= 50)).toEqual([]);
    const incoming = join(t.dataDir, 'lists', 'incoming');
    expect(await readdir(incoming).catch(() => [])).toEqual([]);
    expect((await t.storage.lists.listForKey(1, { limit: 10, offset: 0 })).total).toBe(0);
  });
});
