import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createKeyRateLimiter, createRecordRateLimiter } from './rate-limit.js';

describe('key rate limiter', () => {
  it('allows the rate per key per second, then tells how long to wait', async () => {
    const limiter = createKeyRateLimiter(null);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await limiter.consume(1, 3));
    expect(results).toEqual([undefined, undefined, undefined, 1, 1]);
    expect(await limiter.consume(2, 3)).toBeUndefined();
  });

  it('charges records against a record rate, per key', async () => {
    const limiter = createRecordRateLimiter(null, 'test');
    expect(await limiter.consume(1, 10, 8)).toBeUndefined();
    expect(await limiter.consume(1, 10, 3)).toBe(1);
    expect(await limiter.consume(1, 10, 0)).toBeUndefined();
    expect(await limiter.consume(9, 10, 10)).toBeUndefined();
  });

  it('lets a call of more records than the rate through on an unused second, then holds the key for the seconds they need', async () => {
    const limiter = createRecordRateLimiter(null, 'test');
    expect(await limiter.consume(1, 10, 2)).toBeUndefined();
    // The second is partly used: such a call waits for the next one.
    expect(await limiter.consume(1, 10, 25)).toBe(1);
    expect(await limiter.consume(2, 10, 25)).toBeUndefined();
    // 25 records at 10 a second: three seconds' worth (a fixed window of one would say 1).
    expect(await limiter.consume(2, 10, 1)).toBeGreaterThanOrEqual(2);
  });

  it('falls back to an in-process limit when Redis is not there', async () => {
    const dead = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    dead.on('error', () => undefined);
    const limiter = createKeyRateLimiter(dead, 'test');
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.consume(7, 2));
    expect(results).toEqual([undefined, undefined, 1, 1]);
    dead.disconnect();
  });
});
