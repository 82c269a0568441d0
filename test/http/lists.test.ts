import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newPerson } from '../../src/storage/contract/people-fixtures.js';
import { MAX_ATTEMPTS } from '../../src/lists/callback/retry-schedule.js';
import { verifySignature } from '../../src/lists/callback/sign-body.js';
import { openMemoryStorage } from '../../src/storage/open-storage.js';
import { writeZip } from '../../src/lists/test-support.js';
import { startCallbackReceiver } from '../helpers/callback-receiver.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { multipart, type Part } from '../helpers/multipart.js';
import { unzip } from '../helpers/unzip.js';
import { peopleBatch } from '../helpers/people.js';
import { until } from '../helpers/until.js';

let t: TestApp;
let key: string;
let secret: string;
beforeEach(async () => {
  t = await makeTestApp({ env: { MAILSURE_LIST_MAX_MB: '1', MAILSURE_ALLOW_PRIVATE_TARGETS: 'on' } });
  const created = await t.key('acme', { services: 'verification,lists' });
  key = created.key;
  secret = created.webhookSecret;
});
afterEach(() => t.close());

const CSV = 'Email,Name\nann@example.com,Ann\nnot-an-address,Bob\nann@example.com,Ann again\n\ninfo@example.com,Role\n';

const submit = (query: string, parts: Part[] = [{ name: 'file', filename: 'people.csv', content: CSV }], k = key) => {
  const { payload, headers } = multipart(parts);
  return t.app.inject({ method: 'POST', url: `/v5/list${query}`, headers: { ...headers, api_key: k }, payload });
};
const get = (path: string, k = key) => t.app.inject({ url: path, headers: { api_key: k } });

describe('POST /v5/list → status → results', () => {
  it('accepts a list, processes it, reports and returns the results zip', async () => {
    const res = await submit('?header=true');
    expect(res.statusCode).toBe(202);
    const { list_id, size_bytes } = res.json() as { list_id: number; size_bytes: number };
    expect(res.headers.location).toBe(`/v5/list/${list_id}`);
    expect(size_bytes).toBe(Buffer.byteLength(CSV));

    await t.lists.idle();
    const status = await get(`/v5/list/${list_id}`);
    expect(status.statusCode).toBe(200);
    expect(status.headers['retry-after']).toBeUndefined();
    const body = status.json();
    expect(body).toMatchObject({ list_id, name: 'people.csv', status: 'Results', records: 4, size_bytes });
    expect(body.services.email_validation).toMatchObject({ input_count: 4, completed_count: 4, status: 'Completed' });
    expect(body.services.email_validation.reporting.statuses).toMatchObject({ Invalid: 1 });
    expect(body.services.email_validation.reporting.invalid_categories['Syntax Errors']).toBe(1);

    const results = await get(`/v5/list/${list_id}/results`);
    expect(results.statusCode).toBe(200);
    expect(results.headers['content-type']).toBe('application/zip');
    expect(results.headers['content-disposition']).toContain(`filename="people-${list_id}-Service.zip"`);
    const files = await unzip(results.rawPayload);
    const text = files[`people-${list_id}-Service.csv`]!;
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('Email,Name,Validation Status,Validation Code,Domain Type,Role Account,Duplicate,Valid Email');
    expect(lines).toHaveLength(5);
    expect(lines[1]!.startsWith('ann@example.com,Ann,')).toBe(true);
    expect(lines[1]!.split(',')[6]).toBe('true');
    expect(lines[2]!.startsWith('not-an-address,Bob,invalid,')).toBe(true);
    expect(lines[4]!.split(',')[5]).toBe('true');
  });

  it('lists the key’s lists newest first, paginated, and hides other keys’ lists', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(((await submit('?header=true')).json() as { list_id: number }).list_id);
    await t.lists.idle();
    const page = (await get('/v5/list?per_page=2')).json();
    expect(page).toMatchObject({ page: 1, per_page: 2, total: 3 });
    expect(page.lists.map((l: { list_id: number }) => l.list_id)).toEqual([ids[2], ids[1]]);
    const other = (await t.key('other', { services: 'lists,verification' })).key;
    expect((await get('/v5/list', other)).json()).toMatchObject({ total: 0, lists: [] });
    expect((await get(`/v5/list/${ids[0]}`, other)).statusCode).toBe(404);
    expect((await get(`/v5/list/${ids[0]}/results`, other)).statusCode).toBe(404);
    expect((await get('/v5/list?per_page=500')).statusCode).toBe(400);
  });
});

describe('POST /v5/list: synchronous checks', () => {
  it('415 for a body that is not multipart', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v5/list',
      headers: { api_key: key, 'content-type': 'text/csv' },
      payload: CSV,
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error_code: 415, error_msg: 'Invalid Content-Type' });
  });

  it.each([
    ['?header=maybe', 'Invalid parameter header: must be true or false'],
    ['?report=yes', 'Invalid parameter report: must be true or false'],
    ['?email_column=0', 'Invalid parameter email_column: must be a 1-based column number'],
    ['?delimiter=ab', 'Invalid parameter delimiter: must be exactly one character'],
    ['?fields=age,shoe_size', 'Invalid parameter fields: unknown field shoe_size'],
    [`?callback_url=https://example.com/${'x'.repeat(520)}`, 'Invalid parameter callback_url'],
    ['?callback_url=ftp://example.com/hook', 'Invalid parameter callback_url'],
  ])('400 for %s', async (query, message) => {
    const res = await submit(query);
    expect(res.statusCode).toBe(400);
    expect((res.json() as { error_msg: string }).error_msg.startsWith(message)).toBe(true);
  });

  it('400 for a private callback target unless allowed', async () => {
    const strict = await makeTestApp({ env: {} });
    try {
      const k = (await strict.key('s', { services: 'verification,lists' })).key;
      const { payload, headers } = multipart([{ name: 'file', filename: 'a.csv', content: CSV }]);
      const res = await strict.app.inject({
        method: 'POST',
        url: '/v5/list?callback_url=http://127.0.0.1:9/hook',
        headers: { ...headers, api_key: k },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error_msg).toBe(
        'Invalid parameter callback_url: The callback host 127.0.0.1 resolves to a private or reserved address',
      );
    } finally {
      await strict.close();
    }
  });

  it('400 without a part named file', async () => {
    const res = await submit('', [{ name: 'upload', filename: 'a.csv', content: CSV }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error_code: 400, error_msg: 'Missing the file part (a multipart/form-data part named "file")' });
  });

  it.each([
    ['a bad extension', [{ name: 'file', filename: 'people.xls', content: CSV }], '?name=people.xls'],
    ['an empty file', [{ name: 'file', filename: 'empty.csv', content: '' }], ''],
  ])('422 for %s', async (_, parts, query) => {
    const res = await submit(query, parts);
    expect(res.statusCode).toBe(422);
    expect(res.json().error_code).toBe(422);
  });

  it('422 for a zip holding two files', async () => {
    const path = `${t.dataDir}/two.zip`;
    await writeZip(path, [
      { name: 'a.csv', data: CSV },
      { name: 'b.csv', data: CSV },
    ]);
    const { readFile } = await import('node:fs/promises');
    const res = await submit('', [{ name: 'file', filename: 'two.zip', content: await readFile(path) }]);
    expect(res.statusCode).toBe(422);
    expect(res.json().error_msg).toContain('exactly one file');
  });

  it('413 past the configured size limit, keeping nothing', async () => {
    const big = 'a@example.com\n'.repeat(80_000);
    const res = await submit('', [{ name: 'file', filename: 'big.csv', content: big }]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error_code: 413, error_msg: 'The file is larger than the limit of 1 MB' });
    expect((await get('/v5/list')).json().total).toBe(0);
  });

  it('401 without the lists service, 401 with the key in the query instead of the header', async () => {
    const noLists = (await t.key('nolists', { services: 'verification' })).key;
    expect((await submit('', undefined, noLists)).statusCode).toBe(401);
    expect((await t.app.inject({ url: `/v5/list?api_key=${key}` })).statusCode).toBe(401);
  });
});

describe('list states', () => {
  it('ends Invalid with the reason when the email column is ambiguous', async () => {
    const res = await submit('?header=true', [
      { name: 'file', filename: 'two.csv', content: 'email,e-mail\na@example.com,b@example.com\n' },
    ]);
    const { list_id } = res.json() as { list_id: number };
    await t.lists.idle();
    const body = (await get(`/v5/list/${list_id}`)).json();
    expect(body.status).toBe('Invalid');
    expect(body.error).toMatch(/Ambiguous email columns/);
    expect((await get(`/v5/list/${list_id}/results`)).statusCode).toBe(401);
  });

  it('cancels an unfinished list and refuses to cancel a finished one', async () => {
    const { list_id } = (await submit('?header=true')).json() as { list_id: number };
    const cancelled = await t.app.inject({ method: 'DELETE', url: `/v5/list/${list_id}`, headers: { api_key: key } });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('Cancelled');
    await t.lists.idle();
    expect((await get(`/v5/list/${list_id}`)).json().status).toBe('Cancelled');
    expect((await get(`/v5/list/${list_id}/results`)).statusCode).toBe(401);
    const again = await t.app.inject({ method: 'DELETE', url: `/v5/list/${list_id}`, headers: { api_key: key } });
    expect(again.statusCode).toBe(200);
    const done = (await submit('?header=true')).json() as { list_id: number };
    await t.lists.idle();
    const late = await t.app.inject({ method: 'DELETE', url: `/v5/list/${done.list_id}`, headers: { api_key: key } });
    expect(late.statusCode).toBe(409);
    expect(late.json().error_msg).toBe('The list is already finished (Results)');
  });

  it('404 for an unknown list', async () => {
    expect((await get('/v5/list/999999')).statusCode).toBe(404);
    expect((await get('/v5/list/999999/results')).json()).toEqual({ error_code: 404, error_msg: 'List not found' });
  });

  it('calls back once finished, signed with the key’s webhook secret', async () => {
    const { url, received, close } = await startCallbackReceiver();
    try {
      const { list_id } = (await submit(`?header=true&callback_url=${encodeURIComponent(url)}`)).json() as { list_id: number };
      await t.lists.idle();
      // The attempt is recorded once the sender has the receiver's answer, after the receiver saw it.
      const recorded = async () => (await t.storage.lists.callbackAttempts(list_id)).length > 0;
      await until(async () => received.length > 0 && (await recorded()), 'the callback and its recorded attempt');
      expect(received).toHaveLength(1);
      expect(JSON.parse(received[0]!.body)).toMatchObject({ list_id, status: 'Results' });
      expect(verifySignature(secret, received[0]!.body, received[0]!.signature)).toBe(true);
      expect(await t.storage.lists.callbackAttempts(list_id)).toMatchObject([{ status: 200, error: null }]);
    } finally {
      close();
    }
  });
});

describe('intelligence, email append, report and purchase', () => {
  const kate = newPerson('P1', {
    firstName: 'Katherine',
    address: '123 N Main St',
    fields: { age: '35-44', gender: 'Female' },
    interests: ['books'],
    emails: ['kate@example.com'],
  });
  const joe = { ...kate, personKey: 'P2', firstName: 'Joseph', fields: { age: '45-54' }, interests: [], emails: ['joe@example.com'] };
  const FILE = [
    'email,first,last,street,city,state,zip',
    'kate@example.com,Katherine,Doe,123 N Main St,Springfield,IL,62701',
    'nobody@example.com,Mary,Doe,123 North Main Street,Springfield,IL,62701',
    'x@example.org,Ann,Roe,9 Elm St,Springfield,IL,62701',
  ].join('\n');

  let full: string;
  beforeEach(async () => {
    await t.storage.people.upsert(peopleBatch([kate, joe]));
    full = (await t.key('full', { services: 'verification,enrichment,email_append,lists', fields: 'age,gender,interests' })).key;
  });

  const post = (query: string, k: string) => submit(query, [{ name: 'file', filename: 'people.csv', content: FILE }], k);
  const purchase = (id: number, body: unknown, k: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v5/list/${id}/purchase`,
      headers: { api_key: k, 'content-type': 'application/json' },
      payload: body === undefined ? '' : JSON.stringify(body),
    });

  it('runs every service the key and the columns allow, with their reports and columns', async () => {
    const { list_id } = (await post('?header=true', full)).json() as { list_id: number };
    await t.lists.idle();
    const body = (await get(`/v5/list/${list_id}`, full)).json();
    expect(body.status).toBe('Results');
    expect(Object.keys(body.services)).toEqual(['email_validation', 'email_intelligence', 'email_append']);
    expect(body.services.email_append.reporting).toEqual({ email_match_type: { 'Individual match': 1, 'Household match': 1 } });
    expect(body.services.email_intelligence.reporting).toMatchObject({
      age: { 'Total Count': 1 },
      gender: { 'Total Count': 1 },
      interests: { 'Total Count': 1 },
    });
    const files = await unzip((await get(`/v5/list/${list_id}/results`, full)).rawPayload);
    const lines = files[`people-${list_id}-Service.csv`]!.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'email,first,last,street,city,state,zip,Validation Status,Validation Code,Domain Type,Role Account,Duplicate,Valid Email,age,gender,interests,Append Email,Append Match Type',
    );
    expect(lines[1]!.endsWith(',35-44,Female,books,kate@example.com,Individual')).toBe(true);
    expect(lines[2]!.endsWith(',,,,kate@example.com,Household')).toBe(true);
    expect(lines[3]!.endsWith(',,,,,')).toBe(true);
  });

  it('with report=true waits in Processed until purchase, then delivers what was bought, idempotently', async () => {
    const { list_id } = (await post('?header=true&report=true', full)).json() as { list_id: number };
    await t.lists.idle();
    const waiting = await get(`/v5/list/${list_id}`, full);
    expect(waiting.json().status).toBe('Processed');
    expect(waiting.headers['retry-after']).toBe('5');
    expect(waiting.json().services.email_append.reporting).toEqual({ email_match_type: { 'Individual match': 1, 'Household match': 1 } });
    expect((await get(`/v5/list/${list_id}/results`, full)).statusCode).toBe(401);

    expect((await purchase(list_id, { fields: ['shoe_size'] }, full)).json()).toEqual({
      error_code: 400,
      error_msg: 'Invalid purchase: unknown field shoe_size',
    });
    expect((await purchase(list_id, { options: { email_append: { match_type: 'X' } } }, full)).statusCode).toBe(400);
    const bought = await purchase(list_id, { fields: ['age'], options: { email_append: { match_type: 'I' } } }, full);
    expect(bought.statusCode).toBe(200);
    expect(bought.json().list_id).toBe(list_id);
    await t.lists.idle();
    expect((await purchase(list_id, undefined, full)).statusCode).toBe(200);
    expect((await get(`/v5/list/${list_id}`, full)).json().status).toBe('Results');
    const files = await unzip((await get(`/v5/list/${list_id}/results`, full)).rawPayload);
    const lines = files[`people-${list_id}-Service.csv`]!.trim().split(/\r?\n/);
    expect(lines[0]!.endsWith('Valid Email,age,Append Email,Append Match Type')).toBe(true);
    expect(lines[1]!.endsWith(',35-44,kate@example.com,Individual')).toBe(true);
    expect(lines[2]!.endsWith(',,,')).toBe(true);
  });

  it('refuses to purchase an Invalid list and answers 404 for another key', async () => {
    const { list_id } = (
      await submit('?header=true', [{ name: 'file', filename: 'x.csv', content: 'email,e-mail\na@example.com,b@example.com\n' }], full)
    ).json() as {
      list_id: number;
    };
    await t.lists.idle();
    expect((await purchase(list_id, {}, full)).statusCode).toBe(409);
    expect((await purchase(list_id, {}, key)).statusCode).toBe(404);
  });

  it('enriches rows with email and first only, and never repeats an input column’s name (zip → ei_zip)', async () => {
    const enrich = (await t.key('enrich', { services: 'verification,enrichment,lists', fields: 'age,zip' })).key;
    const file = ['email,first,zip', 'kate@example.com,Kate,99999', 'joe@example.com,Joe,'].join('\n');
    const { list_id } = (await submit('?header=true', [{ name: 'file', filename: 'people.csv', content: file }], enrich)).json() as {
      list_id: number;
    };
    await t.lists.idle();
    const body = (await get(`/v5/list/${list_id}`, enrich)).json();
    expect(body.services.email_intelligence.reporting).toMatchObject({ age: { 'Total Count': 2 } });
    const files = await unzip((await get(`/v5/list/${list_id}/results`, enrich)).rawPayload);
    const lines = files[`people-${list_id}-Service.csv`]!.trim().split(/\r?\n/);
    expect(lines[0]).toBe('email,first,zip,Validation Status,Validation Code,Domain Type,Role Account,Duplicate,Valid Email,age,ei_zip');
    expect(lines[1]!.startsWith('kate@example.com,Kate,99999,')).toBe(true);
    expect(lines[1]!.endsWith(`,35-44,${kate.zip.slice(0, 5)}`)).toBe(true);
    expect(lines[2]!.endsWith(`,45-54,${kate.zip.slice(0, 5)}`)).toBe(true);
  });

  it('bills list records once, at Results', async () => {
    await post('?header=true', full);
    await t.lists.idle();
    const record = await t.storage.keys.findByName('full');
    expect((await t.storage.usage.totals(record!.id)).list_record).toBe(3);
  });
});

describe('callback retries', () => {
  it('retries a failed delivery with back-off and records every attempt', async () => {
    const fast = await makeTestApp({ env: { MAILSURE_ALLOW_PRIVATE_TARGETS: 'on' }, callbackDelayScale: 0.0001 });
    let calls = 0;
    const server = createServer((req, res) => {
      req.resume();
      calls += 1;
      res.statusCode = calls < 3 ? 503 : 204;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const k = (await fast.key('k', { services: 'verification,lists' })).key;
      const port = (server.address() as AddressInfo).port;
      const { payload, headers } = multipart([{ name: 'file', filename: 'a.csv', content: CSV }]);
      const res = await fast.app.inject({
        method: 'POST',
        url: `/v5/list?header=true&callback_url=${encodeURIComponent(`http://127.0.0.1:${port}/hook`)}`,
        headers: { ...headers, api_key: k },
        payload,
      });
      const { list_id } = res.json() as { list_id: number };
      await fast.lists.idle();
      await until(async () => (await fast.storage.lists.callbackAttempts(list_id)).length >= 3, 'three callback attempts');
      const attempts = await fast.storage.lists.callbackAttempts(list_id);
      expect(attempts.map((a) => [a.status, a.error])).toEqual([
        [503, 'answered HTTP 503'],
        [503, 'answered HTTP 503'],
        [204, null],
      ]);
    } finally {
      server.close();
      await fast.close();
    }
  });

  it('delivers after a restart: the new process resumes the schedule from the recorded attempts', async () => {
    const storage = openMemoryStorage();
    const env = { MAILSURE_ALLOW_PRIVATE_TARGETS: 'on' };
    // The target is down: a port nothing listens on any more.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));

    // Real back-off: the first try fails, the second is a minute away when the process stops.
    const first = await makeTestApp({ storage, env });
    const created = await first.key('k', { services: 'verification,lists' });
    const { payload, headers } = multipart([{ name: 'file', filename: 'a.csv', content: CSV }]);
    const res = await first.app.inject({
      method: 'POST',
      url: `/v5/list?header=true&callback_url=${encodeURIComponent(`http://127.0.0.1:${port}/hook`)}`,
      headers: { ...headers, api_key: created.key },
      payload,
    });
    const { list_id } = res.json() as { list_id: number };
    await first.lists.idle();
    await until(async () => (await storage.lists.callbackAttempts(list_id)).length > 0, 'the first callback attempt');
    await first.close();
    expect(await storage.lists.callbackAttempts(list_id)).toMatchObject([
      { status: null, error: expect.stringContaining('ECONNREFUSED') as string },
    ]);

    // The target comes up; a new process on the same store finds the second try overdue.
    const received: { body: string; signature: string | undefined }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ body, signature: req.headers['x-mailsure-signature'] as string | undefined });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    const second = await makeTestApp({ storage, env, callbackDelayScale: 0.0001 });
    try {
      await second.callbacks.resume();
      await until(async () => (await storage.lists.callbackAttempts(list_id)).length >= 2, 'the second callback attempt');
      expect(received).toHaveLength(1);
      expect(JSON.parse(received[0]!.body)).toMatchObject({ list_id, status: 'Results' });
      expect(verifySignature(created.webhookSecret, received[0]!.body, received[0]!.signature)).toBe(true);
      expect((await storage.lists.callbackAttempts(list_id)).map((a) => [a.status, a.error === null])).toEqual([
        [null, false],
        [200, true],
      ]);
      // Delivered: nothing is pending for the next start.
      expect(await storage.lists.pendingCallbacks(MAX_ATTEMPTS)).toEqual([]);
    } finally {
      server.close();
      await second.close();
    }
  });
});
