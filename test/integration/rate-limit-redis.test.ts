/**
 * Two app instances (as two API processes would be) on one real Redis share one per-key limit,
 * one cap on the key's bulk calls in progress, and one count against the key's quota.
 * Runs where MAILSURE_TEST_REDIS_URL is set (CI); reported as skipped elsewhere.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../../src/storage/open-storage.js';
import { makeTestApp } from '../helpers/app.js';

const url = process.env.MAILSURE_TEST_REDIS_URL;

describe.skipIf(!url)(`rate limit shared through Redis${url ? '' : ' (skipped: MAILSURE_TEST_REDIS_URL not set)'}`, () => {
  const clients: Redis[] = [];
  afterAll(() => clients.forEach((c) => c.disconnect()));

  /** Two app instances on one storage, each with its own Redis client, sharing one namespace. */
  async function twoInstances(env?: Record<string, string>) {
    const namespace = `mailsure-test:${randomUUID()}:`;
    const storage = openMemoryStorage();
    const [r1, r2] = [new Redis(url!), new Redis(url!)];
    clients.push(r1, r2);
    // Until a client is ready the limiter deliberately falls back to in-process counting.
    await Promise.all([r1.ping(), r2.ping()]);
    const a = await makeTestApp({ storage, redis: r1, rateLimitNamespace: namespace, ...(env ? { env } : {}) });
    const b = await makeTestApp({ storage, redis: r2, rateLimitNamespace: namespace, ...(env ? { env } : {}) });
    return { storage, a, b };
  }

  it('holds one limit per key across two app instances', async () => {
    const { a, b } = await twoInstances();
    const { key } = await a.key('shared', { rate: '6' });
    const url_ = `/v5/ev?email=jane@example.com&api_key=${key}`;

    const started = Date.now();
    const codes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).app.inject({ url: url_ }).then((r) => r.statusCode)),
    );
    const elapsed = Date.now() - started;
    const passed = codes.filter((c) => c === 200).length;
    expect(codes.filter((c) => c !== 200 && c !== 429)).toEqual([]);
    // Unshared, each instance would let 6 through: 12 in all. Shared, 6 pass within one window
    // (a slow machine that crossed into the next window may let a few more through, never 12).
    if (elapsed < 900) expect(passed).toBe(6);
    else expect(passed).toBeLessThan(12);

    const limited = await b.app.inject({ url: url_ });
    if (limited.statusCode === 429) expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await a.close();
    await b.close();
  });

  it('holds one cap on a key’s bulk calls in progress across two app instances', async () => {
    const env = { MAILSURE_BULK_CALLS_PER_KEY: '1' };
    const { a, b } = await twoInstances(env);
    const { key } = await a.key('bulky', { services: 'enrichment' });
    const path = `/v5/ei/bulk?api_key=${key}`;
    const headers = { 'content-type': 'application/json' };
    const records = JSON.stringify([{ email: 'a@example.com' }]);

    // A bulk call on a, its body held back until the server reads it (past the cap).
    let reading!: () => void;
    const read = new Promise<'reading'>((resolve) => (reading = () => resolve('reading')));
    const body = new Readable({ read: () => reading() });
    const held = a.app.inject({ method: 'POST', url: path, headers, payload: body });
    expect(await Promise.race([read, held.then((r) => r.statusCode)])).toBe('reading');

    const refused = await b.app.inject({ method: 'POST', url: path, headers, payload: records });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error_code: 429,
      error_msg: 'Too many bulk calls in progress: this key may have 1 at once; send the next when one is answered',
    });

    body.push(records);
    body.push(null);
    expect((await held).statusCode).toBe(200);
    // Given back in Redis once a's answer is sent (on a's own connection, so before a's next call asks).
    const next = await a.app.inject({ method: 'POST', url: path, headers, payload: records });
    expect(next.statusCode).toBe(200);
    await a.close();
    await b.close();
  });

  it('holds a key’s quota exactly across two app instances (issue 31): a quota of 5 gives 5 answers, not 10', async () => {
    const { storage, a, b } = await twoInstances();
    const { key } = await a.key('small', { quota: '5', services: 'verification,enrichment' });
    const ev = `/v5/ev?email=jane@example.com&api_key=${key}`;
    // At once, before either process has written its count to the database.
    const codes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).app.inject({ url: ev }).then((r) => r.statusCode)),
    );
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c !== 200)).toEqual([403, 403, 403, 403, 403]);
    await Promise.all([a.meter.flush(), b.meter.flush()]);
    expect((await storage.keys.findByName('small'))?.callsUsed).toBe(5);
    await a.close();
    await b.close();
  });

  it('counts a bulk call’s records once across the instances, and gives back a refused call', async () => {
    const { a, b } = await twoInstances();
    const { key } = await a.key('bulk', { quota: '4', services: 'enrichment' });
    const bulk = (t: typeof a, n: number) =>
      t.app.inject({
        method: 'POST',
        url: `/v5/ei/bulk?api_key=${key}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(Array.from({ length: n }, (_, i) => ({ email: `p${i}@example.com` }))),
      });
    expect((await bulk(a, 3)).statusCode).toBe(200);
    // Two more records do not fit in what is left (one): refused, and its first record given back.
    expect((await bulk(b, 2)).statusCode).toBe(403);
    expect((await bulk(b, 1)).statusCode).toBe(200);
    expect((await bulk(a, 1)).statusCode).toBe(403);
    await a.close();
    await b.close();
  });
});
