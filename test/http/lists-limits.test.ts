/**
 * Issue 19 (16): the List API is bounded per key — its rate (429 with Retry-After, as on every
 * keyed route), the bytes it may keep stored (413) and, issue 31, the lists it may have waiting
 * (429 with Retry-After) — as a user meets them over HTTP.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/multipart.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp({ env: { MAILSURE_LIST_MAX_STORED_GB: '1', MAILSURE_LIST_WAITING_PER_KEY: '2' } });
});
afterEach(() => t.close());

it('holds the key’s rate on the List API', async () => {
  const key = (await t.key('slow', { services: 'lists', rate: '1' })).key;
  // One call a second: among fifty calls made back to back, some share a second however slow the machine.
  let limited;
  for (let i = 0; i < 50 && limited === undefined; i++) {
    const res = await t.app.inject({ url: '/v5/list', headers: { api_key: key } });
    if (res.statusCode === 429) limited = res;
    else expect(res.statusCode).toBe(200);
  }
  expect(limited?.statusCode).toBe(429);
  expect(limited!.json()).toEqual({ error_code: 429, error_msg: 'Rate limit exceeded' });
  expect(Number(limited!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
});

it('refuses an upload past the bytes a key may keep, with 413 and the limit', async () => {
  const key = (await t.key('full', { services: 'verification,lists' })).key;
  // What the key already keeps: one list of a gigabyte, as the store records it.
  await t.storage.lists.create({
    keyId: 1,
    name: 'huge.csv',
    format: 'csv',
    delimiter: null,
    header: true,
    emailColumn: null,
    report: false,
    fields: null,
    callbackUrl: null,
    sizeBytes: 1024 ** 3,
    createdAt: new Date().toISOString(),
  });
  const { payload, headers } = multipart([{ name: 'file', filename: 'people.csv', content: 'email\nann@example.com\n' }]);
  const res = await t.app.inject({ method: 'POST', url: '/v5/list', headers: { ...headers, api_key: key }, payload });
  expect(res.statusCode).toBe(413);
  expect(res.json()).toEqual({
    error_code: 413,
    error_msg: 'This upload would take the key past the 1 GB of lists it may keep until they pass the retention period',
  });
});

it('refuses a list past the lists a key may have waiting, with 429 and Retry-After, and takes it once one is done', async () => {
  const key = (await t.key('busy', { services: 'verification,lists' })).key;
  const waiting = (status: 'Pending' | 'Processing') =>
    t.storage.lists
      .create({
        keyId: 1,
        name: 'big.csv',
        format: 'csv',
        delimiter: null,
        header: true,
        emailColumn: null,
        report: false,
        fields: null,
        callbackUrl: null,
        sizeBytes: 10,
        createdAt: new Date().toISOString(),
      })
      .then((list) => t.storage.lists.update(list.id, { status }));
  await waiting('Pending');
  const running = await waiting('Processing');
  const submit = () => {
    const { payload, headers } = multipart([{ name: 'file', filename: 'people.csv', content: 'email\nann@example.com\n' }]);
    return t.app.inject({ method: 'POST', url: '/v5/list', headers: { ...headers, api_key: key }, payload });
  };
  const refused = await submit();
  expect(refused.statusCode).toBe(429);
  expect(refused.headers['retry-after']).toBe('60');
  expect(refused.json()).toEqual({
    error_code: 429,
    error_msg: 'Too many lists waiting: this key may have 2 lists waiting or running at once; send the next when one is done',
  });
  await t.storage.lists.update(running!.id, { status: 'Results' });
  expect((await submit()).statusCode).toBe(202);
});
