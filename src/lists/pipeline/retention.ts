/**
 * Retention: a list's files (upload and results) are deleted once the list is older than the
 * configured number of days; the list itself stays, so its status and reports remain readable
 * and its results answer 404. Runs at start and then hourly.
 */
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { ListFiles } from '../list-files.js';
import type { ListStore } from '../list-record.js';

const DAY_MS = 86_400_000;

export async function sweepExpiredLists(deps: { store: Pick<ListStore, 'createdBefore'>; files: ListFiles; retentionDays: number; clock: Clock }): Promise<number> {
  const cutoff = new Date(deps.clock.now() - deps.retentionDays * DAY_MS).toISOString();
  let removed = 0;
  for (const list of await deps.store.createdBefore(cutoff)) if (await deps.files.remove(list.id)) removed += 1;
  // Uploads a killed process left half-received, once they are a day old.
  await deps.files.sweepIncoming(deps.clock.now() - DAY_MS);
  return removed;
}

export function startRetention(deps: Parameters<typeof sweepExpiredLists>[0] & { logger: Logger }): { stop(): void } {
  const sweep = () =>
    void sweepExpiredLists(deps).then(
      (removed) => removed > 0 && deps.logger.info({ removed }, 'deleted the files of expired lists'),
      (error: unknown) => deps.logger.error({ err: error }, 'list retention sweep failed'),
    );
  sweep();
  const timer = setInterval(sweep, 3_600_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
