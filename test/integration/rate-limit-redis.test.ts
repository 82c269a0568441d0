/**
 * Two app instances (as two API processes would be) on one real Redis share one per-key limit,
 * and one cap on the key's bulk calls in progress.
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

  it('holds one limit per key across two app instances', async () => {
    const namespace = `mailsure-test:${randomUUID()}:`;
    const storage = openMemoryStorage();
    const [r1, r2] = [new Redis(url!), new Redis(url!)];
    clients.push(r1, r2);
    // Until a client is ready the limiter deliberately falls back to in-process counting.
    await Promise.all([r1.ping(), r2.ping()]);
    const a = await makeTestApp({ storage, redis: r1, rateLimitNamespace: namespace });
    const b = await makeTestApp({ storage, redis: r2, rateLimitNamespace: namespace });
    const { key } = await a.key('shared', { rate: '6' });
    const url_ = `/v5/ev?email=jane@example.com&api_key=${key}`;

    const started = Date.now();
    const codes = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).app.inject({ url: url_ }).then((r) => r.statusCode)));
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
    const namespace = `mailsure-test:${randomUUID()}:`;
    const storage = openMemoryStorage();
    const [r1, r2] = [new Redis(url!), new Redis(url!)];
    clients.push(r1, r2);
    await Promise.all([r1.ping(), r2.ping()]);
    const env = { MAILSURE_BULK_CALLS_PER_KEY: '1' };
    const a = await makeTestApp({ storage, redis: r1, rateLimitNamespace: namespace, env });
    const b = await makeTestApp({ storage, redis: r2, rateLimitNamespace: namespace, env });
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
    expect(refused.json()).toEqual({ error_code: 429, error_msg: 'Too many bulk calls in progress: this key may have 1 at once; send the next when one is answered' });

    body.push(records);
    body.push(null);
    expect((await held).statusCode).toBe(200);
    // Given back in Redis once a's answer is sent (on a's own connection, so before a's next call asks).
    const next = await a.app.inject({ method: 'POST', url: path, headers, payload: records });
    expect(next.statusCode).toBe(200);
    await a.close();
    await b.close();
  });
});
