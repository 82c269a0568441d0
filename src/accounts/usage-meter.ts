/**
 * Counts calls against quotas and billable units per key. A call is reserved before its work —
 * checked against the quota and counted in one step, so concurrent calls cannot all pass a check
 * made before any of them was counted — and given back if it ends in an error; a bulk call
 * reserves one call per record. Counts gather in memory and are
 * written in one statement per key every `flushMs` (and on close), which keeps the database off
 * the hot path. In one process the quota is exact. Across several processes it is exact too when
 * they share a count (`shared`: Redis, one call per reservation of a key with a quota); without
 * one, or while it does not answer, each process checks on its own and the quota may be overshot
 * by what the others counted since their last flush (at most rate × flushMs).
 */
import { isoDay, type Clock } from '../core/clock.js';
import type { KeyStore } from './key-store.js';
import type { SharedQuota, UsageStore, UsageUnit } from './usage-store.js';
import type { ApiKeyRecord } from './key-config.js';

interface Pending {
  calls: number;
  /**
   * Calls given back after they were flushed (a request refused or failed while a flush ran):
   * taken off the next calls written, so a refused call is never billed, and counted off the
   * quota at once. The store's counter only ever grows.
   */
  credit: number;
  units: Partial<Record<UsageUnit, number>>;
  /** calls_used as last read from the store after a flush. */
  knownUsed: number;
}

export interface UsageMeter {
  /**
   * Counts `calls` against the key's quota when they fit in it; false (nothing counted) when not.
   * A promise only when the count is shared (a key with a quota, Redis configured).
   */
  reserve(key: ApiKeyRecord, calls: number): boolean | Promise<boolean>;
  /** Gives back calls reserved for work that ended in an error. */
  release(key: ApiKeyRecord, calls: number): void;
  /** Records the billable units a call delivered (the call itself was counted when reserved). */
  record(key: ApiKeyRecord, units: Partial<Record<UsageUnit, number>>): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createUsageMeter(deps: {
  keys: KeyStore;
  usage: UsageStore;
  clock: Clock;
  flushMs?: number;
  shared?: SharedQuota;
}): UsageMeter {
  const pending = new Map<number, Pending>();
  let flushing: Promise<void> = Promise.resolve();

  const entry = (key: ApiKeyRecord): Pending => {
    let p = pending.get(key.id);
    if (!p) {
      p = { calls: 0, credit: 0, units: {}, knownUsed: key.callsUsed };
      pending.set(key.id, p);
    }
    return p;
  };

  const flushOnce = async (): Promise<void> => {
    const day = isoDay(deps.clock.now());
    for (const [keyId, p] of pending) {
      if (p.calls === 0 && Object.keys(p.units).length === 0) continue;
      const net = p.calls - p.credit;
      const calls = Math.max(0, net);
      const units = p.units;
      p.calls = 0;
      p.credit = Math.max(0, -net);
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
    reserve(key, calls) {
      const p = entry(key);
      const quota = key.quota;
      const fitsHere = () => quota === null || Math.max(key.callsUsed, p.knownUsed) + p.calls - p.credit + calls <= quota;
      if (quota === null || !deps.shared) {
        if (!fitsHere()) return false;
        p.calls += calls;
        return true;
      }
      return deps.shared.reserve(key.id, quota, calls, Math.max(key.callsUsed, p.knownUsed)).then(
        (fits) => {
          if (fits) p.calls += calls;
          return fits;
        },
        // The shared count out of reach: this process's own check, the bound without one.
        () => {
          if (!fitsHere()) return false;
          p.calls += calls;
          return true;
        },
      );
    },
    release(key, calls) {
      if (key.quota !== null) void deps.shared?.release(key.id, calls).catch(() => undefined);
      // What was flushed already is stored: it becomes a credit against the next calls written.
      const p = entry(key);
      const unflushed = Math.min(p.calls, calls);
      p.calls -= unflushed;
      p.credit += calls - unflushed;
    },
    record(key, units) {
      const p = entry(key);
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
