/**
 * The per-MX-host session limit held across every process (scale-out): a Redis semaphore per host
 * (redis-semaphore: a sorted set of holders that expire). Every slot is taken for the longest any
 * session holds one (MAX_HOLD_MS: the real-time timeout's cap, a list's shared session's life) and
 * a margin: a session never outlives it, so nothing needs renewing (the library's renewal timer
 * rejects unhandled when Redis goes away), and a process that dies holding a slot gives it back
 * by then. In front of it, this process's own limiter keeps its waiters in order and sends at
 * most `maxPerHost` (or the host's own `max`: its provider profile's) of them to Redis at once. If Redis errs, the process falls back to its own
 * limit (logged) rather than stop verifying.
 */
import type { Redis } from 'ioredis';
import { Semaphore, TimeoutError } from 'redis-semaphore';
import type { Logger } from '../../core/logger.js';
import { createHostLimiter, MAX_HOLD_MS, type HostLimiter, type Release } from '../../verification/smtp/host-limiter.js';

export interface RedisHostLimiterOptions {
  /** Key prefix; a host's holders live at `<prefix>:<host>`. */
  prefix: string;
  logger?: Logger;
  /** How long past the longest hold a dead process's slot stays taken (default 5 s). */
  holdMarginMs?: number;
  /** The longest a session holds its slot (default MAX_HOLD_MS, 30 s). */
  maxHoldMs?: number;
  /** How often a waiter asks Redis again (default 25 ms). */
  retryIntervalMs?: number;
}

export function createRedisHostLimiter(redis: Redis, maxPerHost: number, options: RedisHostLimiterOptions): HostLimiter {
  const local = createHostLimiter(maxPerHost);
  const margin = options.holdMarginMs ?? 5_000;
  const maxHold = options.maxHoldMs ?? MAX_HOLD_MS;
  const retryInterval = options.retryIntervalMs ?? 25;

  return {
    async acquire(host, deadline, max = maxPerHost) {
      const releaseLocal = await local.acquire(host, deadline, max);
      if (!releaseLocal) return null;
      const semaphore = new Semaphore(redis, `${options.prefix}:${host.toLowerCase()}`, max, {
        // One figure for every holder: redis-semaphore judges the holders it finds expired by the
        // newcomer's lockTimeout, so a newcomer with a shorter one would push a live holder out.
        lockTimeout: maxHold + margin,
        refreshInterval: 0,
        acquireTimeout: Math.max(1, deadline - Date.now()),
        retryInterval,
      });
      try {
        await semaphore.acquire();
      } catch (error) {
        if (error instanceof TimeoutError) {
          releaseLocal();
          return null;
        }
        options.logger?.warn({ err: error, host }, 'shared SMTP session limit unavailable; holding this process to its own');
        return releaseLocal;
      }
      let released = false;
      const release: Release = () => {
        if (released) return;
        released = true;
        releaseLocal();
        semaphore
          .release()
          .catch((error: unknown) => options.logger?.warn({ err: error, host }, 'could not give back a shared SMTP session slot'));
      };
      return release;
    },
    active: (host) => local.active(host),
  };
}
