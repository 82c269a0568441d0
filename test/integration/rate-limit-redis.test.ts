/**
 * Two app instances (as two API processes would be) on one real Redis share one per-key limit.
 * Runs where MAILSURE_TEST_REDIS_URL is set (CI); reported as skipped elsewhere.
 */
import { randomUUID } from 'node:crypto';
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
});
