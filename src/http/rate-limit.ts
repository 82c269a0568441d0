/**
 * The per-key rate limit on real-time and bulk routes (default 500 calls a second, per key
 * `--rate`), with rate-limiter-flexible: one fixed one-second window per key, in-process by
 * default, in Redis when configured so that every API process shares one counter per key. If
 * Redis stops answering, an in-process limiter takes over (each process then holds the limit on
 * its own) rather than letting calls through unlimited or refusing them all.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface KeyRateLimiter {
  /** Undefined when the call (costing `points`, default 1) may go ahead; otherwise the seconds until it may. */
  consume(keyId: number, ratePerSecond: number, points?: number): Promise<number | undefined>;
}

export function createKeyRateLimiter(redis: Redis | null, keyPrefix = 'mailsure:rate'): KeyRateLimiter {
  // A limiter holds one points value; keys differ in rate, so one limiter per distinct rate.
  const byRate = new Map<number, RateLimiterAbstract>();
  const limiterFor = (points: number): RateLimiterAbstract => {
    let limiter = byRate.get(points);
    if (!limiter) {
      const memory = new RateLimiterMemory({ points, duration: 1, keyPrefix: `${keyPrefix}:${points}` });
      limiter = redis
        ? new RateLimiterRedis({ storeClient: redis, points, duration: 1, keyPrefix: `${keyPrefix}:${points}`, insuranceLimiter: memory, rejectIfRedisNotReady: true })
        : memory;
      byRate.set(points, limiter);
    }
    return limiter;
  };
  return {
    async consume(keyId, ratePerSecond, points = 1) {
      if (points <= 0) return undefined;
      try {
        await limiterFor(ratePerSecond).consume(`k${keyId}`, points);
        return undefined;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
        throw refusal;
      }
    },
  };
}

