/**
 * Leases on a list's chunks and steps (ListStore.claim): taken before the work, renewed while it
 * runs, left to expire when a worker dies — then another worker takes the work over.
 */
import type { Clock } from '../../core/clock.js';
import type { ListStore } from '../list-record.js';

export const LEASE_MS = 30_000;
const RENEW_MS = 10_000;

/** Index of the results-file step, the parse step and a callback try among a list's claims. */
export const RESULTS_STEP = -1;
export const PARSE_STEP = -2;
export const CALLBACK_STEP = -3;

export interface Leases {
  /** True when this worker now holds the lease. */
  take(listId: number, index: number): Promise<boolean>;
  /** Runs `work` while renewing the lease (taken already) every few seconds. */
  hold<T>(listId: number, index: number, work: () => Promise<T>): Promise<T>;
  /** Ends this worker's lease now (a renewal until now), so another may take it at once. */
  release(listId: number, index: number): Promise<void>;
}

export function createLeases(store: Pick<ListStore, 'claim'>, worker: string, clock: Clock): Leases {
  const take = (listId: number, index: number) => {
    const now = clock.now();
    return store.claim(listId, index, worker, new Date(now).toISOString(), new Date(now + LEASE_MS).toISOString());
  };
  return {
    take,
    async release(listId, index) {
      const now = new Date(clock.now()).toISOString();
      await store.claim(listId, index, worker, now, now);
    },
    async hold(listId, index, work) {
      const timer = setInterval(() => void take(listId, index).catch(() => undefined), RENEW_MS);
      timer.unref();
      try {
        return await work();
      } finally {
        clearInterval(timer);
      }
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
