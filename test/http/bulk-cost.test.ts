/**
 * Issue 19 (3, 5): a bulk call costs its records against the quota, reserved before the work (so
 * calls cannot all pass a check made before any was counted); a call that ends in an error is
 * given back. Issue 26: for the rate a bulk call is one call, as the contract counts calls, and a
 * key may have only so many bulk calls in progress at once.
 */
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBulkSlots } from '../../src/http/bulk-slots.js';
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
  // Thirty at once: no cap on bulk calls in progress gets in the way here.
  await t.close();
  t = await makeTestApp({ env: { MAILSURE_BULK_CALLS_PER_KEY: '30' } });
  const key = (await t.key('q10', { services: 'enrichment', quota: '10' })).key;
  const answers = await Promise.all(Array.from({ length: 30 }, () => bulk(key, 2)));
  expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
  expect(answers.filter((a) => a.statusCode === 403)).toHaveLength(25);
});

it('gives back the calls of a request that ends in an error', async () => {
  const key = (await t.key('q2', { services: 'enrichment', quota: '2' })).key;
  const bad = await t.app.inject({
    method: 'POST',
    url: `/v5/ei/bulk?api_key=${key}`,
    headers: { 'content-type': 'application/json' },
    payload: '[{"email":"a@b.com"},',
  });
  expect(bad.statusCode).toBe(400);
  expect((await bulk(key, 2)).statusCode).toBe(200);
});

const malformed = (key: string) =>
  t.app.inject({
    method: 'POST',
    url: `/v5/ei/bulk?api_key=${key}`,
    headers: { 'content-type': 'application/json' },
    payload: '[{"email":"a@b.com"},',
  });

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

/**
 * A bulk call whose body arrives only at `finish()`. `admitted` says what became of it first:
 * 'reading' once the server reads its body (past the key, rate and bulk-call checks), or its status.
 */
function heldBulk(key: string) {
  let reading!: () => void;
  const read = new Promise<'reading'>((resolve) => (reading = () => resolve('reading')));
  const body = new Readable({ read: () => reading() });
  const answer = t.app.inject({
    method: 'POST',
    url: `/v5/ei/bulk?api_key=${key}`,
    headers: { 'content-type': 'application/json' },
    payload: body,
  });
  return {
    admitted: Promise.race([read, answer.then((res) => res.statusCode)]),
    answer,
    finish() {
      body.push(JSON.stringify([{ email: 'a@example.com' }, { email: 'b@example.com' }]));
      body.push(null);
    },
  };
}

describe('bulk calls in progress per key', () => {
  it('refuses a key’s fifth bulk call in progress (429, Retry-After), never another key’s, and takes calls again once answered', async () => {
    const key = (await t.key('busy', { services: 'enrichment' })).key;
    const other = (await t.key('calm', { services: 'enrichment' })).key;
    const held = Array.from({ length: 4 }, () => heldBulk(key));
    expect(await Promise.all(held.map((h) => h.admitted))).toEqual(['reading', 'reading', 'reading', 'reading']);

    const fifth = await bulk(key, 2);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.headers['retry-after']).toBe('1');
    expect(fifth.json()).toEqual({
      error_code: 429,
      error_msg: 'Too many bulk calls in progress: this key may have 4 at once; send the next when one is answered',
    });
    expect((await bulk(other, 2)).statusCode).toBe(200);
    // A single call is no bulk call: it goes on.
    expect((await t.app.inject({ url: `/v5/td?api_key=${key}&email=a@example.com` })).statusCode).toBe(200);

    held.forEach((h) => h.finish());
    expect((await Promise.all(held.map((h) => h.answer))).map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const again = Array.from({ length: 4 }, () => heldBulk(key));
    expect(await Promise.all(again.map((h) => h.admitted))).toEqual(['reading', 'reading', 'reading', 'reading']);
    again.forEach((h) => h.finish());
    await Promise.all(again.map((h) => h.answer));
  });

  it('gives the slot back when a bulk call ends in an error', async () => {
    const key = (await t.key('sloppy', { services: 'enrichment' })).key;
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await malformed(key)).statusCode);
    for (let i = 0; i < 2; i++) codes.push((await bulk(key, 5_001)).statusCode);
    const empty = await t.app.inject({
      method: 'POST',
      url: `/v5/ei/bulk?api_key=${key}`,
      headers: { 'content-type': 'application/json' },
    });
    codes.push(empty.statusCode);
    expect(codes).toEqual([400, 400, 400, 400, 400, 400, 400, 400]);
    const held = Array.from({ length: 4 }, () => heldBulk(key));
    expect(await Promise.all(held.map((h) => h.admitted))).toEqual(['reading', 'reading', 'reading', 'reading']);
    held.forEach((h) => h.finish());
    await Promise.all(held.map((h) => h.answer));
  });

  it('gives the slot back when the client goes away mid-body (a real socket)', async () => {
    const slots = createBulkSlots(1, null, { prefix: 'test' });
    const own = await makeTestApp({ bulkSlots: slots });
    try {
      const created = await own.key('gone', { services: 'enrichment' });
      await own.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = own.app.server.address() as { port: number };
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(
        `POST /v5/ei/bulk?api_key=${created.key} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[{"email":"a@`,
      );
      await vi.waitFor(() => expect(slots.held(created.record.id)).toBe(1), { timeout: 10_000, interval: 5 });
      const busy = await own.app.inject({
        method: 'POST',
        url: `/v5/ei/bulk?api_key=${created.key}`,
        headers: { 'content-type': 'application/json' },
        payload: '[]',
      });
      expect(busy.statusCode).toBe(429);
      socket.destroy();
      await vi.waitFor(() => expect(slots.held(created.record.id)).toBe(0), { timeout: 10_000, interval: 5 });
      const after = await own.app.inject({
        method: 'POST',
        url: `/v5/ei/bulk?api_key=${created.key}`,
        headers: { 'content-type': 'application/json' },
        payload: '[{"email":"a@example.com"}]',
      });
      expect(after.statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('the record rate (a key setting, off by default)', () => {
  it('is off unless set: a key is limited in calls, not records', async () => {
    const { record, key } = await t.key('plain', { services: 'enrichment' });
    expect(record.recordRate).toBeNull();
    for (let i = 0; i < 3; i++) expect((await bulk(key, 5_000)).statusCode).toBe(200);
  });

  it('refuses records past it with 429, a real-time call counting one and a bulk call its records', async () => {
    const key = (await t.key('metered', { services: 'enrichment', recordRate: '100' })).key;
    expect((await bulk(key, 60)).statusCode).toBe(200);
    const refused = await bulk(key, 60);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json()).toEqual({ error_code: 429, error_msg: 'Record rate exceeded: this key may send 100 records a second' });

    const single = (await t.key('singles', { services: 'enrichment', recordRate: '2' })).key;
    const td = () => t.app.inject({ url: `/v5/td?api_key=${single}&email=a@example.com` });
    expect([(await td()).statusCode, (await td()).statusCode, (await td()).statusCode]).toEqual([200, 200, 429]);
  });

  it('lets a batch larger than the record rate through, then holds the key for the seconds its records need', async () => {
    const key = (await t.key('small-rate', { services: 'enrichment', recordRate: '100' })).key;
    expect((await bulk(key, 250)).statusCode).toBe(200);
    const next = await bulk(key, 1);
    expect(next.statusCode).toBe(429);
    // 250 records at 100 a second: three seconds (a one-second window would say 1).
    expect(Number(next.headers['retry-after'])).toBeGreaterThanOrEqual(2);
  });

  it('gives back the quota of a bulk call it refuses', async () => {
    const key = (await t.key('billed', { services: 'enrichment', recordRate: '10', quota: '15' })).key;
    expect((await bulk(key, 8)).statusCode).toBe(200);
    expect((await bulk(key, 5)).statusCode).toBe(429);
    await t.meter.flush();
    expect((await t.storage.keys.findByName('billed'))!.callsUsed).toBe(8);
  });
});
