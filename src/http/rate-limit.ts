/**
 * The per-key rate limits on real-time and bulk routes, with rate-limiter-flexible: one fixed
 * one-second window per key, in-process by default, in Redis when configured so that every API
 * process shares one counter per key. If Redis stops answering, an in-process limiter takes over
 * (each process then holds the limit on its own) rather than letting calls through unlimited or
 * refusing them all.
 *
 * Two of them: calls a second (default 500 per key, `--rate`; a bulk call is one call, as the
 * contract counts calls) and, when a key has one, records a second (`--record-rate`, off by
 * default; a real-time call is one record, a bulk call its records).
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface KeyRateLimiter {
  /** Undefined when the call (costing `points`, default 1) may go ahead; otherwise the seconds until it may. */
  consume(keyId: number, ratePerSecond: number, points?: number): Promise<number | undefined>;
}

export function createKeyRateLimiter(redis: Redis | null, keyPrefix = 'mailsure:rate'): KeyRateLimiter {
  const limiterFor = limitersByRate(redis, keyPrefix);
  return {
    consume: (keyId, ratePerSecond, points = 1) =>
      points <= 0 ? Promise.resolve(undefined) : consumeOn(limiterFor(ratePerSecond), `k${keyId}`, points),
  };
}

/**
 * Records a second per key. A call of more records than the key's rate goes ahead when the key's
 * second is unused, and then takes as many seconds as its records need: every batch size the
 * contract allows stays usable, and no run of calls passes more than the rate on average.
 */
export function createRecordRateLimiter(redis: Redis | null, keyPrefix: string): KeyRateLimiter {
  const limiterFor = limitersByRate(redis, keyPrefix);
  return {
    async consume(keyId, recordsPerSecond, records = 1) {
      if (records <= 0) return undefined;
      const limiter = limiterFor(recordsPerSecond);
      const key = `k${keyId}`;
      const refused = await consumeOn(limiter, key, Math.min(records, recordsPerSecond));
      if (refused !== undefined || records <= recordsPerSecond) return refused;
      // A store that cannot take the block lets this one call's extra seconds go, nothing more.
      await limiter.block(key, Math.ceil(records / recordsPerSecond)).catch(() => undefined);
      return undefined;
    },
  };
}

/** One fixed rate a second per name (an outcome webhook's token, hashed by the caller), shared through Redis like the key limits. */
export function createNamedRateLimiter(
  redis: Redis | null,
  keyPrefix: string,
  ratePerSecond: number,
): { consume(name: string): Promise<number | undefined> } {
  const limiter = limitersByRate(redis, keyPrefix)(ratePerSecond);
  return { consume: (name) => consumeOn(limiter, name, 1) };
}

/** A limiter holds one points value; keys differ in rate, so one limiter per distinct rate. */
function limitersByRate(redis: Redis | null, keyPrefix: string): (points: number) => RateLimiterAbstract {
  const byRate = new Map<number, RateLimiterAbstract>();
  return (points) => {
    let limiter = byRate.get(points);
    if (!limiter) {
      const memory = new RateLimiterMemory({ points, duration: 1, keyPrefix: `${keyPrefix}:${points}` });
      limiter = redis
        ? new RateLimiterRedis({
            storeClient: redis,
            points,
            duration: 1,
            keyPrefix: `${keyPrefix}:${points}`,
            insuranceLimiter: memory,
            rejectIfRedisNotReady: true,
          })
        : memory;
      byRate.set(points, limiter);
    }
    return limiter;
  };
}

async function consumeOn(limiter: RateLimiterAbstract, key: string, points: number): Promise<number | undefined> {
  try {
    await limiter.consume(key, points);
    return undefined;
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    throw refusal;
  }
}
