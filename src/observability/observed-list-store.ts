/**
 * A ListStore that tells the operator what happens to lists: one log line per state change and
 * per delivered callback, and (with metrics on) records processed, state changes, time to the end
 * and callback outcomes. Every state change goes through `update` with the one status it comes
 * from (lists/pipeline/list-events.ts), so `from → to` is known without another read.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { ListStatus, ListStore } from '../lists/list-record.js';
import type { Metrics } from './metrics.js';

/** Where a list's processing ends for now: its time from submission is observed there. */
const ENDS: ReadonlySet<ListStatus> = new Set(['Processed', 'Results', 'Cancelled', 'Invalid', 'Error']);

export function observeListStore(inner: ListStore, deps: { logger: Logger; clock: Clock; metrics?: Metrics }): ListStore {
  const { logger, clock, metrics } = deps;
  return withOverrides(inner, {
    async create(list) {
      const created = await inner.create(list);
      logger.info({ list_id: created.id, status: created.status, size_bytes: created.sizeBytes }, `list ${created.id} submitted`);
      metrics?.listStateChanges.inc({ status: created.status });
      return created;
    },
    async update(id, patch, onlyFrom, version) {
      const updated = await inner.update(id, patch, onlyFrom, version);
      const from = onlyFrom?.length === 1 ? onlyFrom[0] : undefined;
      if (updated && patch.status && patch.status !== from) {
        logger.info(
          { list_id: id, from, status: updated.status, records: updated.records },
          `list ${id} ${from ? `${from} → ` : ''}${updated.status}`,
        );
        metrics?.listStateChanges.inc({ status: updated.status });
        if (ENDS.has(updated.status))
          metrics?.listDuration.observe({ status: updated.status }, Math.max(0, clock.now() - Date.parse(updated.createdAt)) / 1000);
      }
      return updated;
    },
    async commitChunk(listId, chunk) {
      const committed = await inner.commitChunk(listId, chunk);
      if (committed) metrics?.listRecords.inc(chunk.records);
      return committed;
    },
    async addCallbackAttempt(listId, attempt) {
      await inner.addCallbackAttempt(listId, attempt);
      // Failures are logged by the callback sender with their reason.
      if (attempt.error === null) logger.info({ list_id: listId, http_status: attempt.status }, `list ${listId} callback delivered`);
      metrics?.listCallbacks.inc({ outcome: attempt.error === null ? 'delivered' : 'failed' });
    },
  });
}

/** `inner` with some methods replaced; the others are inner's own, bound to it. */
function withOverrides<T extends object>(inner: T, overrides: Partial<T>): T {
  return new Proxy(inner, {
    get(target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
