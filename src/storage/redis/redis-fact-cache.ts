/**
 * Verification facts (DNS answers, catch-all verdicts) shared by every process through Redis,
 * behind the FactCache interface the in-process cache also implements (scale-out). Each process
 * keeps what it read in a small memory cache in front, for the rest of the fact's Redis TTL, so a
 * fact costs one Redis read per process at most. Redis never decides a verdict: a Redis that
 * errs or is slow to answer (past `timeoutMs`) is a miss on read and a no-op on write, and the
 * caller asks DNS or the mail server itself.
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { createMemoryFactCache, type FactCache } from '../../verification/fact-cache.js';
import { withTimeout } from './with-timeout.js';

export interface RedisFactCacheOptions {
  /** Key prefix, e.g. `mailsure:facts:mx`; a fact is stored at `<namespace>:<key>`. */
  namespace: string;
  clock: Clock;
  logger?: Logger;
  /** Longest wait for Redis before the read counts as a miss (default 250 ms). */
  timeoutMs?: number;
  /** Facts held in this process's memory cache (default 100,000). */
  maxLocalEntries?: number;
}

/** Logged at most this often per cache: a Redis outage must not flood the log. */
const WARN_EVERY_MS = 60_000;

export function createRedisFactCache<V>(redis: Redis, options: RedisFactCacheOptions): FactCache<V> {
  const local = createMemoryFactCache<V>(options.clock, options.maxLocalEntries);
  const timeoutMs = options.timeoutMs ?? 250;
  let lastWarning = -Infinity;
  const warn = (error: unknown, action: string) => {
    const now = options.clock.now();
    if (now - lastWarning < WARN_EVERY_MS) return;
    lastWarning = now;
    options.logger?.warn({ err: error, cache: options.namespace }, `shared fact cache: could not ${action}; using this process's own`);
  };
  const keyOf = (key: string) => `${options.namespace}:${key}`;

  return {
    async get(key) {
      const held = await local.get(key);
      if (held !== undefined) return held;
      try {
        const answer = await withTimeout(redis.multi().get(keyOf(key)).pttl(keyOf(key)).exec(), timeoutMs);
        const [[, text], [, ttl]] = (answer ?? [
          [null, null],
          [null, -2],
        ]) as [[unknown, string | null], [unknown, number]];
        if (typeof text !== 'string') return undefined;
        const value = JSON.parse(text) as V;
        if (ttl > 0) await local.set(key, value, ttl);
        return value;
      } catch (error) {
        warn(error, 'read');
        return undefined;
      }
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      await local.set(key, value, ttlMs);
      try {
        await withTimeout(redis.set(keyOf(key), JSON.stringify(value), 'PX', Math.ceil(ttlMs)), timeoutMs);
      } catch (error) {
        warn(error, 'write');
      }
    },
  };
}
