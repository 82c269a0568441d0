/**
 * The per-key cap on bulk calls in progress (MAILSURE_BULK_CALLS_PER_KEY, default 4): the rate
 * counts a bulk call as one call, so without a cap one key could send hundreds of 5,000-record
 * calls at once. Over it the call is refused at once (429), never queued.
 *
 * In-process by default; with Redis, a semaphore per key (redis-semaphore: a sorted set of
 * holders that expire) so the cap holds across every API process. A slot is taken for at most
 * SHARED_HOLD_MS without renewal (the library's renewal timer rejects unhandled when Redis goes
 * away): a process that dies holding slots gives them back by then, and a call that lasts longer
 * (a slow upload) keeps its process's own slot. If Redis errs, the process holds the cap on its
 * own (logged) rather than refuse every bulk call or let them all through.
 */
import type { Redis } from 'ioredis';
import { Semaphore } from 'redis-semaphore';
import type { Logger } from '../core/logger.js';

export type Release = () => void;

export interface BulkSlots {
  /** The cap per key. */
  readonly max: number;
  /** A release (safe to call more than once) when the key may start another bulk call; null when it has `max` in progress. */
  take(keyId: number): Promise<Release | null>;
  /** Bulk calls of this key in progress in this process (tests). */
  held(keyId: number): number;
}

/** How long a shared slot stays taken without its holder: a minute, longer than any normal bulk call. */
export const SHARED_HOLD_MS = 60_000;

export function createBulkSlots(max: number, redis: Redis | null, options: { prefix: string; logger?: Logger }): BulkSlots {
  if (!Number.isInteger(max) || max < 1) throw new Error(`bulk calls per key must be a positive integer, got ${max}`);
  const inFlight = new Map<number, number>();
  const local = localSlots(max, inFlight);
  const held = (keyId: number) => inFlight.get(keyId) ?? 0;
  if (!redis) return { max, held, take: async (keyId) => local(keyId) };
  return {
    max,
    held,
    async take(keyId) {
      const releaseLocal = local(keyId);
      if (!releaseLocal) return null;
      const semaphore = new Semaphore(redis, `${options.prefix}:k${keyId}`, max, {
        lockTimeout: SHARED_HOLD_MS,
        refreshInterval: 0,
        acquireAttemptsLimit: 1,
      });
      try {
        if (!(await semaphore.tryAcquire())) {
          releaseLocal();
          return null;
        }
      } catch (error) {
        options.logger?.warn({ err: error }, 'shared bulk-call cap unavailable; holding this process to its own');
        return releaseLocal;
      }
      return once(() => {
        releaseLocal();
        semaphore.release().catch((error: unknown) => options.logger?.warn({ err: error }, 'could not give back a shared bulk-call slot'));
      });
    },
  };
}

/** This process's own count per key. */
function localSlots(max: number, inFlight: Map<number, number>): (keyId: number) => Release | null {
  return (keyId) => {
    const held = inFlight.get(keyId) ?? 0;
    if (held >= max) return null;
    inFlight.set(keyId, held + 1);
    return once(() => {
      const left = (inFlight.get(keyId) ?? 1) - 1;
      if (left > 0) inFlight.set(keyId, left);
      else inFlight.delete(keyId);
    });
  };
}

function once(release: Release): Release {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}
