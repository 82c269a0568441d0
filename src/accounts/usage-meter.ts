/**
 * Counts calls against quotas and billable units per key. Counts gather in memory and are
 * written in one statement per key every `flushMs` (and on close), which keeps the database off
 * the hot path. In one process the quota is exact; across several processes it may overshoot by
 * what the others counted since their last flush (at most rate × flushMs).
 */
import { isoDay, type Clock } from '../core/clock.js';
import type { KeyStore } from './key-store.js';
import type { UsageStore, UsageUnit } from './usage-store.js';
import type { ApiKeyRecord } from './key-config.js';

interface Pending {
  calls: number;
  units: Partial<Record<UsageUnit, number>>;
  /** calls_used as last read from the store after a flush. */
  knownUsed: number;
}

export interface UsageMeter {
  /** True when the key may make one more call. */
  withinQuota(key: ApiKeyRecord): boolean;
  /** Records one call and the billable units it delivered. */
  record(key: ApiKeyRecord, units: Partial<Record<UsageUnit, number>>): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createUsageMeter(deps: { keys: KeyStore; usage: UsageStore; clock: Clock; flushMs?: number }): UsageMeter {
  const pending = new Map<number, Pending>();
  let flushing: Promise<void> = Promise.resolve();

  const entry = (key: ApiKeyRecord): Pending => {
    let p = pending.get(key.id);
    if (!p) {
      p = { calls: 0, units: {}, knownUsed: key.callsUsed };
      pending.set(key.id, p);
    }
    return p;
  };

  const flushOnce = async (): Promise<void> => {
    const day = isoDay(deps.clock.now());
    for (const [keyId, p] of pending) {
      if (p.calls === 0 && Object.keys(p.units).length === 0) continue;
      const calls = p.calls;
      const units = p.units;
      p.calls = 0;
      p.units = {};
      try {
        if (Object.keys(units).length > 0) await deps.usage.add(keyId, day, units);
        if (calls > 0) p.knownUsed = await deps.keys.addCalls(keyId, calls);
      } catch (error) {
        // Put the counts back: a failed flush must not lose billable usage.
        p.calls += calls;
        for (const [unit, n] of Object.entries(units) as [UsageUnit, number][]) p.units[unit] = (p.units[unit] ?? 0) + n;
        throw error;
      }
    }
  };

  const flush = (): Promise<void> => {
    flushing = flushing.then(flushOnce, flushOnce);
    return flushing;
  };

  const timer = setInterval(() => void flush().catch(() => undefined), deps.flushMs ?? 1_000);
  timer.unref();

  return {
    withinQuota(key) {
      if (key.quota === null) return true;
      const p = pending.get(key.id);
      const used = Math.max(key.callsUsed, p?.knownUsed ?? 0) + (p?.calls ?? 0);
      return used < key.quota;
    },
    record(key, units) {
      const p = entry(key);
      p.calls += 1;
      for (const [unit, n] of Object.entries(units) as [UsageUnit, number][]) {
        if (n > 0) p.units[unit] = (p.units[unit] ?? 0) + n;
      }
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
