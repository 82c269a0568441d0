/**
 * test/helpers/redis-db.ts: each claim a database no other holds, empty, given back empty; so that
 * any two test files (of one run or of two checkouts) can use the one Redis at once. Runs where
 * MAILSURE_TEST_REDIS_URL is set.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { claimRedisDb, redisDbUrl } from '../helpers/redis-db.js';

const url = process.env.MAILSURE_TEST_REDIS_URL;

describe.skipIf(!url)('a Redis database of a test’s own', () => {
  it('is one no other claim holds, emptied when claimed and when released, and never the base URL’s', async () => {
    const base = new URL(url!);
    const baseDb = Number(base.pathname.slice(1) || 0);
    const first = await claimRedisDb(url!);
    const second = await claimRedisDb(url!);
    try {
      expect(first.db).not.toBe(second.db);
      for (const own of [first, second]) {
        expect([0, baseDb]).not.toContain(own.db);
        expect(own.url).toBe(redisDbUrl(url!, own.db));
      }
      const redis = new Redis(first.url);
      try {
        expect(await redis.dbsize()).toBe(0);
        await redis.set('left-behind', '1');
        await first.release();
        expect(await redis.dbsize()).toBe(0);
        const lease = new Redis(redisDbUrl(url!, 0));
        expect(await lease.exists(`mailsure-test:redis-db-lease:${first.db}`)).toBe(0);
        expect(await lease.exists(`mailsure-test:redis-db-lease:${second.db}`)).toBe(1);
        lease.disconnect();
      } finally {
        redis.disconnect();
      }
    } finally {
      await second.release();
    }
  });
});
