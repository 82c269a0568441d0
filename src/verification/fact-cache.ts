/**
 * Verification facts (DNS answers, catch-all verdicts) cached with a TTL. In-process by default;
 * with Redis (scale-out) storage/redis/redis-fact-cache.ts implements the same interface, so every
 * process shares what one learned.
 */
import type { Clock } from '../core/clock.js';

export interface FactCache<V> {
  get(key: string): Promise<V | undefined>;
  set(key: string, value: V, ttlMs: number): Promise<void>;
}

/** Bounded: past `maxEntries` the oldest entries go first (Map keeps insertion order). */
export function createMemoryFactCache<V>(clock: Clock, maxEntries = 100_000): FactCache<V> {
  const entries = new Map<string, { value: V; expires: number }>();
  return {
    async get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.expires <= clock.now()) {
        entries.delete(key);
        return undefined;
      }
      return hit.value;
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { value, expires: clock.now() + ttlMs });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
  };
}
